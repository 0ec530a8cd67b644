import { useState, type FormEvent, type ReactNode } from 'react';
import { Title, useDataProvider, useNotify, usePermissions } from 'react-admin';
import { useMutation } from '@tanstack/react-query';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  Grid,
  IconButton,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import SendIcon from '@mui/icons-material/Send';
import type { Role } from '../../../../common/api/sites';
import { JsonBlock } from '../../components/JsonBlock';
import { RequireAccess } from '../../components/RequireAccess';
import { SitePicker } from '../../components/SitePicker';
import { retryLostAnswers, useActionKey } from '../../lib/actionKey';
import { errorMessage } from '../../lib/format';
import { usePageTitle } from '../../layout/usePageTitle';
import type { AppDataProvider } from '../../providers/dataProvider';
import { failureDataOf } from '../../providers/orders';
import { getUser } from '../../providers/session';
import { emptyItem, initialForm, toSubmission, type ManualForm, type ManualItemRow } from './manualForm';

export const MANUAL_NOTE = 'Please fill in all the fields. Make up some ids';
export const MANUAL_SUCCESS = 'Successfully sent to HP';

function Section({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <Box component="section" aria-label={title}>
      <Box sx={{ display: 'flex', alignItems: 'center', mb: 1.5 }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, flexGrow: 1 }}>
          {title}
        </Typography>
        {action}
      </Box>
      {children}
    </Box>
  );
}

type ShipToKey = keyof ManualForm['shipTo'];
const SHIP_TO_FIELDS: ReadonlyArray<[ShipToKey, string]> = [
  ['name', 'Name'],
  ['address1', 'Address 1'],
  ['address2', 'Address 2'],
  ['town', 'Town'],
  ['isoCountry', 'ISO Country'],
  ['postcode', 'Post Code'],
];

function ItemRow({ item, index, onChange, onDelete }: { item: ManualItemRow; index: number; onChange: (item: ManualItemRow) => void; onDelete: () => void }) {
  const field = (key: 'sku' | 'quantity' | 'pdfUrl' | 'sourceItemId', label: string, extra: { type?: string; size: number }) => (
    <Grid size={{ xs: 12, sm: extra.size }}>
      <TextField
        fullWidth
        size="small"
        label={label}
        type={extra.type}
        value={item[key]}
        onChange={(e) => onChange({ ...item, [key]: e.target.value })}
        slotProps={{ htmlInput: { 'aria-label': `${label} of item ${index + 1}` } }}
      />
    </Grid>
  );
  return (
    <Box data-testid="manual-item" sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
      <Grid container spacing={1.5} sx={{ flexGrow: 1 }}>
        {field('sku', 'SKU', { size: 3 })}
        {field('quantity', 'Quantity', { type: 'number', size: 2 })}
        {field('pdfUrl', 'PDF URL', { size: 4 })}
        {field('sourceItemId', 'Source Item ID', { size: 3 })}
      </Grid>
      <Tooltip title="Delete this item">
        <IconButton aria-label={`Delete item ${index + 1}`} onClick={onDelete}>
          <DeleteIcon />
        </IconButton>
      </Tooltip>
    </Box>
  );
}

function SendHpManuallyView() {
  usePageTitle('Send HP Manually');
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const { permissions } = usePermissions<Role | null>();
  const isAdmin = permissions === 'admin';
  const [form, setForm] = useState<ManualForm>(initialForm);
  const [siteId, setSiteId] = useState(() => String(getUser()?.siteId ?? ''));

  const actionKey = useActionKey();
  const send = useMutation({
    mutationFn: (idempotencyKey: string) => dataProvider.sendToProviderManually(toSubmission(form, isAdmin && siteId ? Number(siteId) : undefined), idempotencyKey),
    ...retryLostAnswers,
    onSettled: actionKey.end,
    onSuccess: () => notify(MANUAL_SUCCESS, { type: 'success' }),
    onError: (error) => notify(errorMessage(error), { type: 'error', autoHideDuration: 10_000 }),
  });
  const providerAnswer = send.isSuccess ? send.data : send.isError ? failureDataOf(send.error) : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    send.mutate(actionKey.begin());
  };
  const setOrderData = (key: keyof ManualForm['orderData'], value: string) => setForm((f) => ({ ...f, orderData: { ...f.orderData, [key]: value } }));
  const setShipTo = (key: ShipToKey, value: string) => setForm((f) => ({ ...f, shipTo: { ...f.shipTo, [key]: value } }));
  const setItem = (index: number, item: ManualItemRow) => setForm((f) => ({ ...f, items: f.items.map((it, i) => (i === index ? item : it)) }));
  const deleteItem = (index: number) => setForm((f) => ({ ...f, items: f.items.filter((_it, i) => i !== index) }));
  const addItem = () => setForm((f) => ({ ...f, items: [...f.items, emptyItem()] }));

  return (
    <Card sx={{ mt: 2, mb: 4 }}>
      <Title title="Send HP Manually" />
      <CardContent>
        <Box component="form" onSubmit={submit} noValidate sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
            <Typography variant="h6" component="h1" sx={{ flexGrow: 1 }}>
              Send HP Manually
            </Typography>
            {isAdmin ? <SitePicker value={siteId} onChange={setSiteId} /> : null}
          </Box>
          <Alert severity="info">{MANUAL_NOTE}</Alert>

          <Section title="Order Info">
            <Grid container spacing={1.5}>
              <Grid size={{ xs: 12, sm: 6 }}>
                <TextField fullWidth size="small" label="Source Order Id" value={form.orderData.sourceOrderId} onChange={(e) => setOrderData('sourceOrderId', e.target.value)} />
              </Grid>
              <Grid size={{ xs: 12, sm: 6 }}>
                <TextField fullWidth size="small" label="Customer Name" value={form.orderData.customerName} onChange={(e) => setOrderData('customerName', e.target.value)} />
              </Grid>
            </Grid>
          </Section>

          <Section
            title="Items"
            action={
              <Button size="small" variant="outlined" startIcon={<AddIcon />} onClick={addItem}>
                Add item
              </Button>
            }
          >
            <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
              {form.items.map((item, index) => (
                <ItemRow key={item.key} item={item} index={index} onChange={(next) => setItem(index, next)} onDelete={() => deleteItem(index)} />
              ))}
              {form.items.length === 0 ? <Typography color="text.secondary">No items: add one.</Typography> : null}
            </Box>
          </Section>

          <Section title="Ship To">
            <Grid container spacing={1.5}>
              {SHIP_TO_FIELDS.map(([key, label]) => (
                <Grid key={key} size={{ xs: 12, sm: 6, md: 4 }}>
                  <TextField fullWidth size="small" label={label} value={form.shipTo[key]} onChange={(e) => setShipTo(key, e.target.value)} />
                </Grid>
              ))}
            </Grid>
          </Section>

          <Box>
            <Button
              type="submit"
              variant="contained"
              size="large"
              disabled={send.isPending}
              startIcon={send.isPending ? <CircularProgress size={18} color="inherit" /> : <SendIcon />}
            >
              {send.isPending ? 'Sending...' : 'Send'}
            </Button>
          </Box>

          {send.isError ? (
            <Alert severity="error" role="alert">
              {errorMessage(send.error)}
            </Alert>
          ) : null}
          {send.isSuccess ? <Alert severity="success">{MANUAL_SUCCESS}</Alert> : null}
          {providerAnswer !== undefined ? (
            <Section title="Response Data from HP">
              <JsonBlock value={providerAnswer} label="Response Data from HP" />
            </Section>
          ) : null}
        </Box>
      </CardContent>
    </Card>
  );
}

/** /send-hp-manually: an order typed by hand, sent straight to the provider with the site's settings. */
export function SendHpManuallyPage() {
  return (
    <RequireAccess resource="send-hp-manually" action="list">
      <SendHpManuallyView />
    </RequireAccess>
  );
}

export default SendHpManuallyPage;
