// Receive (a delivery) or Count (a stock-take) of one item: a dialog with the quantity and a note.
import { useState } from 'react';
import { Button as MuiButton, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import { Button, useNotify, useRecordContext, useRefresh } from 'react-admin';
import { useMutation } from '@tanstack/react-query';
import type { StockItem } from '../../../../common/api/stock';
import { dataProvider } from '../../providers/dataProvider';
import { newActionKey } from '../../lib/actionKey';

const WORDS = {
  receive: { button: 'Receive', title: 'Receive a delivery', quantity: 'Quantity received', done: 'Received' },
  count: { button: 'Count', title: 'Count (stock-take)', quantity: 'Quantity counted on the shelf', done: 'Counted' },
} as const;

export function StockMoveButton({ kind }: { kind: 'receive' | 'count' }) {
  const item = useRecordContext<StockItem>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  const [quantity, setQuantity] = useState('');
  const [note, setNote] = useState('');
  // One dialog opened is one action: a double click or a retry is answered once.
  const [key, setKey] = useState(newActionKey);
  const words = WORDS[kind];
  const move = useMutation({
    mutationFn: () => {
      const input = { quantity: Number(quantity), note: note.trim() || undefined };
      return kind === 'receive' ? dataProvider.receiveStock(item!.id, input, key) : dataProvider.countStock(item!.id, input, key);
    },
    onSuccess: (after) => {
      notify(`${words.done}: ${after.name} now ${after.onHand} ${after.unit} on hand, ${after.available} available`, { type: 'success' });
      setOpen(false);
      setQuantity('');
      setNote('');
      setKey(newActionKey());
      refresh();
    },
    onError: (error: Error) => notify(error.message, { type: 'error' }),
  });
  if (!item) return null;
  return (
    <>
      <Button label={words.button} onClick={(e) => (e.stopPropagation(), setOpen(true))} />
      <Dialog open={open} onClose={() => setOpen(false)} onClick={(e) => e.stopPropagation()}>
        <DialogTitle>
          {words.title}: {item.name}
        </DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1, minWidth: 320 }}>
            <TextField label={`${words.quantity} (${item.unit})`} type="number" value={quantity} onChange={(e) => setQuantity(e.target.value)} autoFocus required />
            <TextField label="Note" value={note} onChange={(e) => setNote(e.target.value)} multiline minRows={2} helperText={kind === 'receive' ? 'Supplier, delivery note number' : 'Why it differs'} />
          </Stack>
        </DialogContent>
        <DialogActions>
          <MuiButton onClick={() => setOpen(false)}>Cancel</MuiButton>
          <MuiButton variant="contained" disabled={quantity === '' || move.isPending} onClick={() => move.mutate()}>
            {words.button}
          </MuiButton>
        </DialogActions>
      </Dialog>
    </>
  );
}
