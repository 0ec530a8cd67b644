import { useMemo, useState, type ReactNode } from 'react';
import {
  ArrayInput,
  BooleanInput,
  Confirm,
  Form,
  ReferenceInput,
  required,
  SelectInput,
  SimpleFormIterator,
  TextInput,
  useDataProvider,
  useNotify,
} from 'react-admin';
import { useMutation } from '@tanstack/react-query';
import { Box, Button, CircularProgress, Divider, Link, Typography } from '@mui/material';
import DeleteIcon from '@mui/icons-material/Delete';
import SaveIcon from '@mui/icons-material/Save';
import { type Design, PRODUCT_TYPES } from '../../../../common/api/printProduction';
import { retryLostAnswers, useActionKey } from '../../lib/actionKey';
import { errorMessage } from '../../lib/format';
import type { AppDataProvider } from '../../providers/dataProvider';
import { designFormValues, PROOF_AS_SITE, PROOF_CHOICES, toDesignInput, type DesignFormValues } from './designForm';
import { ProductPdfInput } from './ProductPdfInput';
import { NumberTextInput } from '../../components/NumberTextInput';

export const SAVED_MESSAGE = 'Save design successfully';
export const DELETE_CONFIRMATION = 'Are you sure you want to delete?';

const PRODUCT_TYPE_CHOICES = PRODUCT_TYPES.map((type) => ({ id: type, name: type }));
const validateName = [required()];

function ReadOnlyBlock({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box sx={{ mt: 3 }}>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

function ArtworkThumbnails({ urls }: { urls: readonly string[] }) {
  if (!urls.length) return <Typography color="text.secondary">No artwork yet</Typography>;
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
      {urls.map((url, i) => (
        <Link key={`${url}-${i}`} href={url} target="_blank" rel="noopener noreferrer">
          <Box
            component="img"
            src={url}
            alt={`Artwork page ${i + 1}`}
            loading="lazy"
            sx={{ width: 96, height: 136, objectFit: 'contain', border: 1, borderColor: 'divider', bgcolor: 'grey.50', display: 'block' }}
          />
        </Link>
      ))}
    </Box>
  );
}

export interface DesignInfoFormProps {
  /** null for a new design. */
  design: Design | null;
  canSave: boolean;
  canDelete: boolean;
  onSaved: (design: Design, wasNew: boolean) => void;
  onDeleted: () => void;
}

export function DesignInfoForm({ design, canSave, canDelete, onSaved, onDeleted }: DesignInfoFormProps) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const [confirmDelete, setConfirmDelete] = useState(false);

  const actionKey = useActionKey();
  const save = useMutation({
    mutationFn: ({ values, idempotencyKey }: { values: DesignFormValues; idempotencyKey: string }) => dataProvider.saveDesign(toDesignInput(values, design?.id), idempotencyKey),
    ...retryLostAnswers,
    onSettled: actionKey.end,
    onSuccess: (saved) => {
      notify(SAVED_MESSAGE, { type: 'success' });
      onSaved(saved, !design);
    },
    onError: (error) => notify(errorMessage(error), { type: 'error' }),
  });

  const remove = useMutation({
    mutationFn: () => dataProvider.deleteDesign(design!.id),
    onSuccess: () => {
      setConfirmDelete(false);
      notify('Design deleted', { type: 'info' });
      onDeleted();
    },
    onError: (error) => {
      setConfirmDelete(false);
      notify(errorMessage(error), { type: 'error' });
    },
  });

  // Stable, so the form resets only when the design itself changes.
  const formRecord = useMemo(() => designFormValues(design), [design]);
  const artworkUrls = Array.isArray(design?.data?.artworkUrls) ? design!.data!.artworkUrls! : [];
  const importOriginalData = design?.data?.importOriginalData;

  return (
    <Box sx={{ p: { xs: 2, md: 3 } }}>
      <Form
        // A reloaded design (e.g. after the editor saved it) resets the form to the server's values.
        key={`${design?.id ?? 'new'}-${design?.updatedAt ?? ''}`}
        record={formRecord}
        onSubmit={(values: Record<string, unknown>) => save.mutate({ values: values as unknown as DesignFormValues, idempotencyKey: actionKey.begin() })}
        noValidate
      >
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, columnGap: 2, maxWidth: 960 }}>
          <TextInput source="name" label="Name" validate={validateName} />
          <TextInput source="sku" label="SKU" />
          <SelectInput source="productType" label="Product type" choices={PRODUCT_TYPE_CHOICES} emptyText="(none)" />
          <TextInput source="hpSKU" label="Provider SKU" helperText="The print provider's SKU (hpSKU)" />
          <TextInput source="stock" label="Paper stock" helperText='What its jobs print on, e.g. "350 gsm silk": a batch takes one stock' />
          <Box sx={{ gridColumn: '1 / -1' }}>
            <BooleanInput source="isCustomizable" label="Customizable" />
          </Box>
          <SelectInput source="proof" label="Buyer proof" choices={PROOF_CHOICES} emptyValue="" emptyText={PROOF_AS_SITE} helperText="Whether buyers approve a proof of this design before it is made" />
          <Box sx={{ gridColumn: '1 / -1' }}>
            <ProductPdfInput disabled={!canSave} />
          </Box>
        </Box>

        <Divider sx={{ my: 2 }} />
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
          Provider additions
        </Typography>
        <TextInput
          source="hpAdditionData.componentCode"
          label="Component code"
          helperText="The Site Flow product's own component code (e.g. Card); empty means Content"
          disabled={!canSave}
          sx={{ mt: 2, maxWidth: 360 }}
        />
        <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
          Attributes
        </Typography>
        <ArrayInput source="hpAdditionData.attributes" label={false}>
          <SimpleFormIterator inline disableReordering>
            <TextInput source="name" label="Attribute name" helperText={false} />
            <TextInput source="value" label="Attribute value" helperText={false} />
          </SimpleFormIterator>
        </ArrayInput>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
          Stock items
        </Typography>
        <ArrayInput source="hpAdditionData.stockItems" label={false}>
          <SimpleFormIterator inline disableReordering>
            <TextInput source="code" label="Stock code" helperText={false} />
            <TextInput source="name" label="Stock item name" helperText={false} />
            <NumberTextInput source="quantity" label="Quantity" helperText={false} min={0} step={1} />
          </SimpleFormIterator>
        </ArrayInput>

        <Divider sx={{ my: 2 }} />
        <Typography variant="subtitle2">Consumes</Typography>
        <Typography variant="body2" color="text.secondary">
          The stock one unit made takes (Setup → Stock). A fraction is fine: ½ a sheet for a mug printed two-up; a job rounds up to whole units.
        </Typography>
        <ArrayInput source="consumes" label={false}>
          <SimpleFormIterator inline disableReordering>
            <ReferenceInput source="stockItemId" reference="stock-items" perPage={200} sort={{ field: 'name', order: 'ASC' }}>
              <SelectInput label="Stock item" optionText="name" helperText={false} />
            </ReferenceInput>
            <NumberTextInput source="perUnit" label="Per unit" helperText={false} min={0} step="any" />
          </SimpleFormIterator>
        </ArrayInput>

        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', mt: 3 }}>
          <Button
            type="submit"
            variant="contained"
            disabled={!canSave || save.isPending}
            startIcon={save.isPending ? <CircularProgress size={16} color="inherit" /> : <SaveIcon />}
          >
            Save
          </Button>
          {design ? (
            <Button
              variant="outlined"
              color="error"
              disabled={!canDelete || remove.isPending}
              startIcon={<DeleteIcon />}
              onClick={() => setConfirmDelete(true)}
            >
              Delete
            </Button>
          ) : null}
          {!canSave ? (
            <Typography variant="body2" color="text.secondary">
              Only an admin or the design&apos;s creator can change it.
            </Typography>
          ) : null}
        </Box>
      </Form>

      {design ? (
        <>
          <ReadOnlyBlock title="Artwork">
            <ArtworkThumbnails urls={artworkUrls} />
          </ReadOnlyBlock>
          <ReadOnlyBlock title="Import original data">
            {importOriginalData === undefined || importOriginalData === null ? (
              <Typography color="text.secondary">None</Typography>
            ) : (
              <Box
                component="pre"
                aria-label="Import original data"
                sx={{ m: 0, p: 1.5, bgcolor: 'grey.100', borderRadius: 1, maxHeight: 320, overflow: 'auto', fontSize: 12 }}
              >
                {JSON.stringify(importOriginalData, null, 2)}
              </Box>
            )}
          </ReadOnlyBlock>
        </>
      ) : null}

      <Confirm
        isOpen={confirmDelete}
        loading={remove.isPending}
        title={`Delete ${design?.name ?? 'design'}`}
        content={DELETE_CONFIRMATION}
        confirm="Delete"
        // Cannot be undone: the confirm button looks like it.
        confirmColor="warning"
        onConfirm={() => remove.mutate()}
        onClose={() => setConfirmDelete(false)}
      />
    </Box>
  );
}
