import { useState } from 'react';
import { Confirm, useDataProvider, useNotify } from 'react-admin';
import { useMutation } from '@tanstack/react-query';
import { Alert, AlertTitle, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, IconButton, TextField, Typography } from '@mui/material';
import DeleteIcon from '@mui/icons-material/Delete';
import type { OrderLineItem, OrderRecord } from '../../../../common/api/orders';
import type { LineWaiting } from '../../../../common/api/waiting';
import { useActionKey } from '../../lib/actionKey';
import { errorMessage } from '../../lib/format';
import type { AppDataProvider } from '../../providers/dataProvider';
import { lineItemsOf, storeOrderId } from '../../providers/orders';

/** A line's route as check-order answers it (production's routing): what it waits for, in a sentence. */
interface WaitingRoute {
  lineId: string;
  reason: string;
  waiting: LineWaiting | null;
}

/** The order's lines that wait before they are made (change window, proof), with the server's sentence. */
export function waitingLinesOf(order: OrderRecord): Array<{ line: OrderLineItem; route: WaitingRoute }> {
  const routes = Array.isArray(order.data?.routes) ? (order.data.routes as WaitingRoute[]) : [];
  return lineItemsOf(order).flatMap((line) => {
    const route = routes.find((r) => r.lineId === String(line.id) && r.waiting);
    return route ? [{ line, route }] : [];
  });
}

const shownProperties = (line: OrderLineItem) =>
  (Array.isArray(line.properties) ? (line.properties as Array<{ name?: unknown; value?: unknown }>) : [])
    .filter((p) => typeof p?.name === 'string' && !p.name.startsWith('_'))
    .map((p) => ({ name: String(p.name), value: String(p.value ?? '') }));

/** The line's personalisation as a form: its properties, each a name and a value; Save sends them all. */
function EditPersonalisationDialog({ line, onClose, onSave, saving }: { line: OrderLineItem; onClose: () => void; onSave: (properties: Array<{ name: string; value: string }>) => void; saving: boolean }) {
  const [rows, setRows] = useState(() => (shownProperties(line).length ? shownProperties(line) : [{ name: '', value: '' }]));
  const set = (i: number, key: 'name' | 'value', value: string) => setRows((all) => all.map((r, j) => (j === i ? { ...r, [key]: value } : r)));
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="edit-personalisation-title">
      <DialogTitle id="edit-personalisation-title">Edit personalisation: {line.name ?? line.title ?? `line ${String(line.id)}`}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          What is printed for this line. A line waiting for its proof gets a new proof at once.
        </Typography>
        {rows.map((r, i) => (
          <Box key={i} sx={{ display: 'flex', gap: 1, mb: 1, alignItems: 'center' }}>
            <TextField size="small" label="Name" value={r.name} onChange={(e) => set(i, 'name', e.target.value)} />
            <TextField size="small" label="Value" value={r.value} onChange={(e) => set(i, 'value', e.target.value)} sx={{ flex: 1 }} />
            <IconButton aria-label={`Remove ${r.name || 'property'}`} onClick={() => setRows((all) => all.filter((_, j) => j !== i))}>
              <DeleteIcon fontSize="small" />
            </IconButton>
          </Box>
        ))}
        <Button size="small" onClick={() => setRows((all) => [...all, { name: '', value: '' }])}>
          Add a property
        </Button>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" disabled={saving} onClick={() => onSave(rows.map((r) => ({ name: r.name.trim(), value: r.value })).filter((r) => r.name))}>
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * Check order: the lines that wait before they are made ("In the change window until 14:30",
 * "Waiting for the buyer to approve the proof"), with Release now, Extend hold and Edit personalisation.
 */
export function WaitingLinesPanel({ order, onChanged }: { order: OrderRecord; onChanged: () => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const actionKey = useActionKey();
  const [confirmRelease, setConfirmRelease] = useState(false);
  const [extending, setExtending] = useState(false);
  const [minutes, setMinutes] = useState('30');
  const [editing, setEditing] = useState<OrderLineItem | null>(null);
  const orderId = storeOrderId(order);
  const siteId = order.siteId;
  const failed = (error: unknown) => notify(errorMessage(error), { type: 'error', autoHideDuration: 10_000 });
  const release = useMutation({
    mutationFn: (key: string) => dataProvider.releaseOrder(orderId, siteId, key),
    onSettled: actionKey.end,
    onSuccess: (out) => {
      setConfirmRelease(false);
      notify(out?.released.length ? `Released: ${out.released.length} line${out.released.length === 1 ? '' : 's'} made now` : 'Nothing was waiting any more', { type: 'success' });
      onChanged();
    },
    onError: (e) => {
      setConfirmRelease(false);
      failed(e);
    },
  });
  const extend = useMutation({
    mutationFn: (input: { minutes: number; key: string }) => dataProvider.extendHold(orderId, input.minutes, siteId, input.key),
    onSettled: actionKey.end,
    onSuccess: () => {
      setExtending(false);
      notify('Hold extended', { type: 'success' });
      onChanged();
    },
    onError: failed,
  });
  const edit = useMutation({
    mutationFn: (input: { lineId: string; properties: Array<{ name: string; value: string }>; key: string }) => dataProvider.editPersonalisation(orderId, input.lineId, input.properties, siteId, input.key),
    onSettled: actionKey.end,
    onSuccess: (out) => {
      setEditing(null);
      notify(out?.proof === 'sent' ? 'Personalisation saved: a new proof was e-mailed to the buyer' : out?.proof === 'failed' ? 'Personalisation saved, but the new proof could not be e-mailed (see the history)' : 'Personalisation saved', { type: out?.proof === 'failed' ? 'warning' : 'success' });
      onChanged();
    },
    onError: failed,
  });

  const waiting = waitingLinesOf(order);
  if (!waiting.length) return null;
  const inWindow = waiting.some((w) => w.route.waiting?.reason === 'hold');
  return (
    <Alert severity="info" role="region" aria-label="Waiting before it is made">
      <AlertTitle>Waiting before it is made</AlertTitle>
      <Box component="ul" sx={{ m: 0, pl: 2 }}>
        {waiting.map(({ line, route }) => (
          <li key={String(line.id)}>
            <strong>{line.name ?? line.title ?? `Line ${String(line.id)}`}</strong>: {route.reason}{' '}
            <Button size="small" onClick={() => setEditing(line)}>
              Edit personalisation
            </Button>
          </li>
        ))}
      </Box>
      <Box sx={{ display: 'flex', gap: 1, mt: 1 }}>
        <Button size="small" variant="contained" disabled={release.isPending} onClick={() => setConfirmRelease(true)}>
          Release now
        </Button>
        {inWindow ? (
          <Button size="small" variant="outlined" onClick={() => setExtending(true)}>
            Extend hold
          </Button>
        ) : null}
      </Box>
      <Confirm
        isOpen={confirmRelease}
        loading={release.isPending}
        title="Release now"
        content="Every waiting line of this order is made now, without waiting for the window to end or for the buyer's approval. Release it?"
        confirm="Release now"
        cancel="Keep waiting"
        onConfirm={() => release.mutate(actionKey.begin())}
        onClose={() => setConfirmRelease(false)}
      />
      <Dialog open={extending} onClose={() => setExtending(false)} aria-labelledby="extend-hold-title">
        <DialogTitle id="extend-hold-title">Extend hold</DialogTitle>
        <DialogContent>
          <TextField autoFocus label="Minutes more" type="number" value={minutes} onChange={(e) => setMinutes(e.target.value)} slotProps={{ htmlInput: { min: 1, max: 10080 } }} sx={{ mt: 1 }} />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setExtending(false)}>Cancel</Button>
          <Button variant="contained" disabled={extend.isPending} onClick={() => extend.mutate({ minutes: Number(minutes), key: actionKey.begin() })}>
            Extend
          </Button>
        </DialogActions>
      </Dialog>
      {editing ? <EditPersonalisationDialog line={editing} saving={edit.isPending} onClose={() => setEditing(null)} onSave={(properties) => edit.mutate({ lineId: String(editing.id), properties, key: actionKey.begin() })} /> : null}
    </Alert>
  );
}
