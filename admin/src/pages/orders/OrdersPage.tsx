import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Title, useDataProvider, useGetList } from 'react-admin';
import {
  Box,
  Button,
  Card,
  InputAdornment,
  MenuItem,
  TextField,
  Typography,
} from '@mui/material';
import ManageSearchIcon from '@mui/icons-material/ManageSearch';
import SearchIcon from '@mui/icons-material/Search';
import { ORDER_STATUSES, type OrderRecord, type SendOutcome } from '../../../../common/api/orders';
import type { Site } from '../../../../common/api/sites';
import { ErrorDataPanel } from '../../components/ErrorDataPanel';
import { RequireAccess } from '../../components/RequireAccess';
import { PagedListFooter } from '../../components/PagedListParts';
import { usePagedList } from '../../lib/usePagedList';
import { useWindowFocus } from '../../lib/useViewport';
import { usePageTitle } from '../../layout/usePageTitle';
import type { AppDataProvider } from '../../providers/dataProvider';
import { storeOrderId } from '../../providers/orders';
import { SitePicker } from '../../components/SitePicker';
import { useJobSelection } from '../print-jobs/useJobSelection';
import { MakeInHouseBar, orderKey } from './MakeInHouse';
import { OrderTable, visibleOrders, type SentFromHere } from './OrderTable';
import { useProductTypes } from '../../lib/useProductTypes';

/** A selected order's key: its site and store order id (what Make in house takes). */
const keyOfOrder = (order: OrderRecord) => orderKey(order.siteId, storeOrderId(order));

export const SEARCH_DELAY_MS = 400;

function useDebounced<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

function useSiteNames(enabled: boolean): Map<string, string> | undefined {
  const { data } = useGetList<Site>(
    'sites',
    { pagination: { page: 1, perPage: 500 }, sort: { field: 'name', order: 'ASC' } },
    { enabled },
  );
  return useMemo(() => (enabled ? new Map((data ?? []).map((site) => [String(site.id), site.name])) : undefined), [data, enabled]);
}

interface ErrorData {
  orderName: string;
  data: unknown;
}

function OrdersView({ allClients }: { allClients: boolean }) {
  usePageTitle('List Orders');
  const dataProvider = useDataProvider<AppDataProvider>();
  // Search, status and how many pages are shown live in the URL (?q=&status=&pages=), so Detail
  // then Back finds the list as it was. replace: typing is not a history entry per letter.
  const [params, setParams] = useSearchParams();
  const search = params.get('q') ?? '';
  const status = params.get('status') ?? '';
  // All orders: the admin's Client filter (a site's id; empty: every client).
  const client = allClients ? (params.get('client') ?? '') : '';
  const setParam = useCallback(
    (name: 'q' | 'status' | 'pages' | 'client', value: string) =>
      setParams(
        (before) => {
          const next = new URLSearchParams(before);
          if (value) next.set(name, value);
          else next.delete(name);
          // Another search or status is another list: it starts at its first page.
          if (name !== 'pages') next.delete('pages');
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  const q = useDebounced(search.trim(), SEARCH_DELAY_MS);
  const fetchPage = useCallback(
    (page: number) => dataProvider.getOrders({ page, allClients, q, status, siteId: client || undefined }),
    [dataProvider, allClients, q, status, client],
  );
  // An empty page ends the list (spec §4), and so does the server's hasNext: false (a one-result search offers no "Load more").
  const log = usePagedList(fetchPage, { untilEmptyPage: true });
  // Ticks for Make in house: rows, this page, or every order the search, status and client match.
  const allKeys = useCallback(
    async () => visibleOrders(await dataProvider.getOrderRecords({ allClients, q, status, siteId: client || undefined })).map(keyOfOrder),
    [dataProvider, allClients, q, status, client],
  );
  const selection = useJobSelection(log, allKeys, { q, status, client }, keyOfOrder);
  // Back on this list: load again as many pages as were shown, then follow "Load more" in the URL.
  const restoreTo = useRef(Math.max(1, Math.min(50, Number(params.get('pages')) || 1)));
  const loaded = log.page - 1;
  const { loading, loadingMore, error, exhausted, loadMore } = log;
  useEffect(() => {
    if (loading || loadingMore || error) return;
    if (loaded < restoreTo.current && !exhausted) return loadMore();
    restoreTo.current = 0;
    const shown = loaded > 1 ? String(loaded) : '';
    if ((params.get('pages') ?? '') !== shown) setParam('pages', shown);
  }, [loading, loadingMore, error, exhausted, loadMore, loaded, params, setParam]);
  // Orders arrive and change all the time: show the current list whenever the user comes back.
  useWindowFocus(log.reload);
  const productTypes = useProductTypes();
  const siteNames = useSiteNames(allClients);
  const [sent, setSent] = useState<ReadonlyMap<string, SentFromHere>>(new Map());
  const [errorData, setErrorData] = useState<ErrorData | null>(null);
  const orders = visibleOrders(log.items);

  const onSent = useCallback((order: OrderRecord, outcome: SendOutcome, whole: boolean) => {
    if (outcome.status === 'queued') return;
    setSent((before) => {
      const id = storeOrderId(order);
      const next = new Map(before);
      next.set(id, { sentAt: outcome.sentAt ?? null, orderStatus: outcome.orderStatus ?? null, whole: whole || before.get(id)?.whole === true });
      return next;
    });
  }, []);
  const onErrorData = useCallback((order: OrderRecord, data: unknown) => {
    setErrorData(data === undefined ? null : { orderName: order.data?.name || storeOrderId(order), data });
  }, []);

  return (
    <Card sx={{ mt: 2, mb: 4 }}>
      <Title title="List Orders" />
      <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 2, px: 2, pt: 2 }}>
        <Box sx={{ flexGrow: 1, display: 'flex', alignItems: 'baseline', flexWrap: 'wrap', columnGap: 1 }}>
          <Typography variant="h6" component="h1">
            List Orders
          </Typography>
          {/* The spec's title, and what the menu's "All list Orders" means, said on the page. */}
          {allClients ? (
            <Typography variant="subtitle1" color="text.secondary">
              All clients
            </Typography>
          ) : null}
        </Box>
        <Button variant="contained" color="secondary" component={Link} to="/check-order" startIcon={<ManageSearchIcon />}>
          Check order
        </Button>
      </Box>
      <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 2, px: 2, py: 1 }}>
        {allClients ? <SitePicker label="Client" allLabel="All clients" value={client} onChange={(siteId) => setParam('client', siteId)} width={220} /> : null}
        <TextField
          size="small"
          label="Search"
          placeholder="Order name or customer"
          value={search}
          onChange={(e) => setParam('q', e.target.value)}
          fullWidth={false}
          slotProps={{ input: { startAdornment: <InputAdornment position="start"><SearchIcon fontSize="small" /></InputAdornment> } }}
          sx={{ width: 300, maxWidth: '100%' }}
        />
        <TextField select size="small" label="Status" value={status} onChange={(e) => setParam('status', e.target.value)} fullWidth={false} sx={{ width: 180 }}>
          <MenuItem value="">All statuses</MenuItem>
          {ORDER_STATUSES.map((s) => (
            <MenuItem key={s} value={s}>
              {s}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      <Box sx={{ px: 2 }}>
        {errorData ? <ErrorDataPanel data={errorData.data} title={errorData.orderName} onClose={() => setErrorData(null)} /> : null}
        {log.error ? (
          <Typography color="error" role="alert" sx={{ py: 1 }}>
            {log.error}
          </Typography>
        ) : null}
      </Box>
      <MakeInHouseBar selection={selection} onDone={log.reload} />
      {orders.length > 0 ? (
        <OrderTable
          selection={selection}
          orders={orders}
          siteNames={siteNames}
          productTypes={productTypes}
          sent={sent}
          onSent={onSent}
          onErrorData={onErrorData}
        />
      ) : null}
      <PagedListFooter list={log} emptyText="No orders found" shown={orders.length} />
    </Card>
  );
}

/** /orders: the signed-in user's site. */
export function OrdersPage() {
  return (
    <RequireAccess resource="orders" action="list">
      <OrdersView allClients={false} />
    </RequireAccess>
  );
}

/** /all-orders: every client's orders (admin), with a Client column and filter; titled "List Orders" (spec). */
export function AllOrdersPage() {
  return (
    <RequireAccess resource="all-orders" action="list">
      <OrdersView allClients />
    </RequireAccess>
  );
}

export default OrdersPage;
