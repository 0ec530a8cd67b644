import { useState } from 'react';
import { useDataProvider, useNotify } from 'react-admin';
import { useMutation } from '@tanstack/react-query';
import { IconButton, Tooltip } from '@mui/material';
import DeleteIcon from '@mui/icons-material/Delete';
import { LazyConfirm } from '../../components/LazyConfirm';
import { errorMessage } from '../../lib/format';
import type { AppDataProvider } from '../../providers/dataProvider';
import type { PrintJobActionProps } from './PrintJobTable';

export const DELETE_CONFIRMATION = 'Are you sure you want to delete?';

export function DeletePrintJobButton({ job, leave }: PrintJobActionProps) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const [open, setOpen] = useState(false);
  const remove = useMutation({
    mutationFn: () => dataProvider.deletePrintJob(job.id),
    onSuccess: () => {
      setOpen(false);
      notify('Print job deleted', { type: 'info' });
      leave();
    },
    onError: (error) => {
      setOpen(false);
      notify(errorMessage(error), { type: 'error' });
    },
  });
  const name = job.productName ?? `job ${job.id}`;
  return (
    <>
      <Tooltip title="Delete">
        <IconButton size="small" aria-label={`Delete ${name}`} onClick={() => setOpen(true)}>
          <DeleteIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <LazyConfirm
        isOpen={open}
        loading={remove.isPending}
        title={`Delete ${name}`}
        content={DELETE_CONFIRMATION}
        confirm="Delete"
        // Cannot be undone: the confirm button looks like it.
        confirmColor="warning"
        onConfirm={() => remove.mutate()}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
