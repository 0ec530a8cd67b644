import { useCallback, useState } from 'react';
import { useDataProvider, usePermissions } from 'react-admin';
import { Box, MenuItem, TextField } from '@mui/material';
import { PRODUCT_TYPES, type PrintJob } from '../../../../common/api/printProduction';
import type { Role } from '../../../../common/api/sites';
import { SitePicker } from '../../components/SitePicker';
import { usePagedList, type PagedList } from '../../lib/usePagedList';
import type { AppDataProvider } from '../../providers/dataProvider';
import type { PrintJobOrder } from './PrintJobTable';

/** Which jobs a queue screen lists: a client (admins), a product type, and in what order. */
export interface PrintQueueView extends PrintJobOrder {
  clientId: string;
  productType: string;
}

/** The Jobs or Print History list with its view; a change of view reads page 1 again. */
export function usePrintQueue(isPrinted: boolean): {
  list: PagedList<PrintJob>;
  view: PrintQueueView;
  setView: (change: Partial<PrintQueueView>) => void;
  isAdmin: boolean;
} {
  const dataProvider = useDataProvider<AppDataProvider>();
  const { permissions } = usePermissions<Role | null>();
  const isAdmin = permissions === 'admin';
  const [view, setViewState] = useState<PrintQueueView>({ order: 'asc', clientId: '', productType: '' });
  const { sort, order, clientId, productType } = view;
  // Only an admin can pick a client (the picker is theirs): the list does not wait for permissions.
  const fetchPage = useCallback(
    (page: number) => dataProvider.getPrintJobs({ page, isPrinted, sort, order, clientId, productType }),
    [dataProvider, isPrinted, sort, order, clientId, productType],
  );
  const list = usePagedList(fetchPage);
  const setView = useCallback((change: Partial<PrintQueueView>) => setViewState((v) => ({ ...v, ...change })), []);
  return { list, view, setView, isAdmin };
}

/** Above the list: the client (admins only) and the product type. */
export function PrintQueueFilters({ view, setView, isAdmin }: { view: PrintQueueView; setView: (change: Partial<PrintQueueView>) => void; isAdmin: boolean }) {
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, p: 2, pb: 1 }}>
      {isAdmin ? (
        <SitePicker label="Client" allLabel="All clients" value={view.clientId} onChange={(clientId) => setView({ clientId })} width={240} sx={{ flex: { xs: '1 1 150px', sm: '0 0 auto' } }} />
      ) : null}
      <TextField
        select
        size="small"
        label="Product type"
        value={view.productType}
        onChange={(e) => setView({ productType: e.target.value })}
        sx={{ width: 200, maxWidth: '100%', flex: { xs: '1 1 150px', sm: '0 0 auto' } }}
        slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      >
        <MenuItem value="">All types</MenuItem>
        {PRODUCT_TYPES.map((t) => (
          <MenuItem key={t} value={t}>
            {t}
          </MenuItem>
        ))}
      </TextField>
    </Box>
  );
}
