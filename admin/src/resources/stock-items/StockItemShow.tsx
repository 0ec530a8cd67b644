// One item: its figures, Receive and Count, and every movement with who, when and why (CSV too).
import { useState } from 'react';
import { EditButton, Labeled, NumberField, Show, SimpleShowLayout, TextField, TopToolbar, useNotify, useRecordContext } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import { Button, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import type { StockItem } from '../../../../common/api/stock';
import { dataProvider } from '../../providers/dataProvider';
import { formatDateTime } from '../../lib/format';
import { usePageTitle } from '../../layout/usePageTitle';
import { StockMoveButton } from './StockMoveButton';

const KIND_WORDS: Record<string, string> = { receive: 'Received', count: 'Counted', reserve: 'Reserved', release: 'Released', consume: 'Used', waste: 'Wasted (reprint)' };

function Movements() {
  const item = useRecordContext<StockItem>();
  const notify = useNotify();
  const [page, setPage] = useState(1);
  const moves = useQuery({ queryKey: ['stock-movements', item?.id, item?.onHand, item?.reserved, page], queryFn: () => dataProvider.getStockMovements(item!.id, page), enabled: Boolean(item) });
  if (!item) return null;
  const downloadCsv = async () => {
    try {
      const blob = await dataProvider.stockMovementsCsv(item.id);
      const a = document.createElement('a');
      a.href = URL.createObjectURL(blob);
      a.download = `stock-${item.id}-movements.csv`;
      a.click();
      URL.revokeObjectURL(a.href);
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    }
  };
  return (
    <Stack spacing={1} sx={{ mt: 2 }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Typography variant="h6">Movements</Typography>
        <Button size="small" onClick={downloadCsv}>
          Export CSV
        </Button>
      </Stack>
      {moves.error ? <Typography color="error">{(moves.error as Error).message}</Typography> : null}
      <Table size="small" aria-label="Movements">
        <TableHead>
          <TableRow>
            <TableCell>When</TableCell>
            <TableCell>What</TableCell>
            <TableCell align="right">Change</TableCell>
            <TableCell align="right">On hand after</TableCell>
            <TableCell align="right">Reserved after</TableCell>
            <TableCell>Job</TableCell>
            <TableCell>Who</TableCell>
            <TableCell>Why</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {(moves.data?.list ?? []).map((m) => (
            <TableRow key={m.id}>
              <TableCell>{formatDateTime(m.at)}</TableCell>
              <TableCell>{KIND_WORDS[m.kind] ?? m.kind}</TableCell>
              <TableCell align="right">{m.quantity > 0 ? `+${m.quantity}` : m.quantity}</TableCell>
              <TableCell align="right">{m.onHandAfter}</TableCell>
              <TableCell align="right">{m.reservedAfter}</TableCell>
              <TableCell>{m.jobId ? `#${m.jobId}` : ''}</TableCell>
              <TableCell>{m.byName ?? ''}</TableCell>
              <TableCell>{m.note ?? ''}</TableCell>
            </TableRow>
          ))}
          {moves.data && moves.data.list.length === 0 ? (
            <TableRow>
              <TableCell colSpan={8}>No movements yet</TableCell>
            </TableRow>
          ) : null}
        </TableBody>
      </Table>
      <Stack direction="row" spacing={1}>
        <Button size="small" disabled={page === 1} onClick={() => setPage((p) => p - 1)}>
          Newer
        </Button>
        <Button size="small" disabled={!moves.data?.hasNext} onClick={() => setPage((p) => p + 1)}>
          Older
        </Button>
      </Stack>
    </Stack>
  );
}

function Actions() {
  return (
    <TopToolbar>
      <StockMoveButton kind="receive" />
      <StockMoveButton kind="count" />
      <EditButton />
    </TopToolbar>
  );
}

export default function StockItemShow() {
  usePageTitle('Stock item');
  return (
    <Show resource="stock-items" title="Stock item" actions={<Actions />}>
      <SimpleShowLayout>
        <TextField source="name" label="Item" />
        <Stack direction="row" spacing={4}>
          <Labeled label="On hand">
            <NumberField source="onHand" />
          </Labeled>
          <Labeled label="Reserved">
            <NumberField source="reserved" />
          </Labeled>
          <Labeled label="Available">
            <NumberField source="available" />
          </Labeled>
          <Labeled label="Reorder point">
            <NumberField source="reorderPoint" />
          </Labeled>
          <Labeled label="Reorder quantity">
            <NumberField source="reorderQuantity" />
          </Labeled>
        </Stack>
        <TextField source="unit" label="Unit" />
        <TextField source="supplierNote" label="Supplier note" emptyText="—" />
        <Movements />
      </SimpleShowLayout>
    </Show>
  );
}
