import { useCallback, useState } from 'react';
import { useDataProvider, usePermissions } from 'react-admin';
import { Box, IconButton, MenuItem, TextField, Tooltip } from '@mui/material';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import { PRODUCT_TYPES, type PrintJobSort } from '../../../../common/api/printProduction';
import type { Role } from '../../../../common/api/sites';
import { SitePicker } from '../../components/SitePicker';
import { usePagedList, type PagedList } from '../../lib/usePagedList';
import { useSmallScreen } from '../../lib/useViewport';
import { JOBS_OPENING_VIEW, type AppDataProvider } from '../../providers/dataProvider';
import type { PrintJob } from '../../../../common/api/printProduction';
import { sortableColumns, type PrintJobColumns, type PrintJobOrder } from './PrintJobTable';
import { useJobSelection, type JobSelection } from './useJobSelection';

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
  selection: JobSelection;
} {
  const dataProvider = useDataProvider<AppDataProvider>();
  const { permissions } = usePermissions<Role | null>();
  const isAdmin = permissions === 'admin';
  const [view, setViewState] = useState<PrintQueueView>({ ...JOBS_OPENING_VIEW });
  const { sort, order, clientId, productType } = view;
  // Only an admin can pick a client (the picker is theirs): the list does not wait for permissions.
  const fetchPage = useCallback(
    (page: number) => dataProvider.getPrintJobs({ page, isPrinted, sort, order, clientId, productType }),
    [dataProvider, isPrinted, sort, order, clientId, productType],
  );
  const list = usePagedList(fetchPage);
  const setView = useCallback((change: Partial<PrintQueueView>) => setViewState((v) => ({ ...v, ...change })), []);
  // "Select all N matching": every id of this filter, read page by page through the same list call.
  const allIds = useCallback(() => dataProvider.getPrintJobIds({ isPrinted, sort, order, clientId, productType }), [dataProvider, isPrinted, sort, order, clientId, productType]);
  const selection = useJobSelection(list, allIds, view);
  return { list, view, setView, isAdmin, selection };
}

/** A phone shows no column headers: the sort column and its direction are picked here. */
function SmallScreenSort({ view, setView, columns }: { view: PrintQueueView; setView: (change: Partial<PrintQueueView>) => void; columns: PrintJobColumns }) {
  const descending = view.order === 'desc';
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flex: '1 1 100%' }}>
      <TextField
        select
        size="small"
        label="Sort by"
        value={view.sort ?? ''}
        onChange={(e) => setView({ sort: (e.target.value || undefined) as PrintJobSort | undefined, order: 'asc' })}
        sx={{ flex: 1 }}
        slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      >
        <MenuItem value="">The list's own order</MenuItem>
        {sortableColumns(columns).map((c) => (
          <MenuItem key={c.sort} value={c.sort}>
            {c.label}
          </MenuItem>
        ))}
      </TextField>
      {/* The list's own order has its own direction (History: newest first): only a picked column flips. */}
      {view.sort ? (
        <Tooltip title={descending ? 'Descending' : 'Ascending'}>
          <IconButton aria-label={descending ? 'Sorted descending: sort ascending' : 'Sorted ascending: sort descending'} onClick={() => setView({ order: descending ? 'asc' : 'desc' })}>
            {descending ? <ArrowDownwardIcon /> : <ArrowUpwardIcon />}
          </IconButton>
        </Tooltip>
      ) : null}
    </Box>
  );
}

/** Above the list: the client (admins only) and the product type; on a phone the sort too. */
export function PrintQueueFilters({
  view,
  setView,
  isAdmin,
  printed = false,
  sortable = true,
}: {
  view: PrintQueueView;
  setView: (change: Partial<PrintQueueView>) => void;
  isAdmin: boolean;
  /** Print History: its printed columns sort too. */
  printed?: boolean;
  /** The list below sorts by its columns (the Held list keeps the server's order). */
  sortable?: boolean;
}) {
  const small = useSmallScreen();
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
      {small && sortable ? <SmallScreenSort view={view} setView={setView} columns={{ showClient: isAdmin, printed }} /> : null}
    </Box>
  );
}
