import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Title, useDataProvider } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Box,
  Card,
  CardContent,
  CircularProgress,
  LinearProgress,
  Tab,
  Tabs,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import type { OrderRecord, ProviderEventRecord, ProviderSendRecord } from '../../../../common/api/orders';
import type { DataRecord } from '../../../../common/api/records';
import { RequireAccess } from '../../components/RequireAccess';
import { errorMessage } from '../../lib/format';
import { usePageTitle } from '../../layout/usePageTitle';
import type { AppDataProvider } from '../../providers/dataProvider';
import { storeOrderId } from '../../providers/orders';
import { CancelAtHpButton } from './CancelAtHpButton';
import { CancellationNotice } from './CancellationNotice';
import { DemoStoreCancelButton } from './DemoStoreCancelButton';
import { ProviderNotice } from './ProviderNotice';
import { HpDataTab } from './HpDataTab';
import { OrderHistoryPanel, orderHistoryQueryKey } from './OrderHistoryPanel';
import { OrderSearchForm, type OrderSearch } from './OrderSearchForm';
import { PipelinePanel } from './PipelinePanel';
import { pipelineQueryKey } from './useOrderPipeline';
import { RerunPanel } from './RerunPanel';
import { ShopifyDataTab } from './ShopifyDataTab';
import { StoreFulfilmentPanel } from './StoreFulfilmentPanel';
import { WaitingLinesPanel } from './WaitingLinesPanel';

const ORDER_TYPE = 'shopify-order-log';
const EVENT_TYPE = 'hp-log';
const SEND_TYPE = 'shopify-hp-log';

const keyOf = (r: DataRecord) => `${r.siteId}:${r.field1 ?? ''}`;

export interface OrderLogs {
  order: OrderRecord;
  events: ProviderEventRecord[];
  sends: ProviderSendRecord[];
}

/** check-order answers the logs of every matching order (an admin may match one per site): group them per order. */
export function groupOrderLogs(logs: readonly DataRecord[]): OrderLogs[] {
  const orders = logs.filter((r) => r.type === ORDER_TYPE) as OrderRecord[];
  return orders.map((order) => ({
    order,
    events: logs.filter((r) => r.type === EVENT_TYPE && keyOf(r) === keyOf(order)) as ProviderEventRecord[],
    sends: logs.filter((r) => r.type === SEND_TYPE && keyOf(r) === keyOf(order)) as ProviderSendRecord[],
  }));
}

/** Sent to HP and not finished there: something HP could still cancel. */
const atProvider = (order: OrderRecord) => Boolean(order.data?.hpOrderId || order.data?.preGeneratedHPItems?.length) && !['shipped', 'cancelled'].includes(order.status ?? order.data?.status ?? '');

function OrderDetail({ logs, onChanged }: { logs: OrderLogs; onChanged: () => void }) {
  const [tab, setTab] = useState<'shopify' | 'hp'>('shopify');
  const queryClient = useQueryClient();
  const orderId = storeOrderId(logs.order);
  // A re-run changes the pipeline's steps as well as the order's logs.
  const rerunDone = () => {
    onChanged();
    void queryClient.invalidateQueries({ queryKey: pipelineQueryKey(logs.order) });
  };
  // A change made here (Mark shipped, a re-run) is in the history at once.
  const changed = () => {
    rerunDone();
    void queryClient.invalidateQueries({ queryKey: orderHistoryQueryKey(logs.order) });
  };
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Typography variant="h6" component="h2">
        Order {logs.order.data?.name || orderId}
      </Typography>
      <CancellationNotice order={logs.order} />
      <ProviderNotice order={logs.order} />
      <WaitingLinesPanel order={logs.order} onChanged={changed} />
      <RerunPanel key={keyOf(logs.order)} order={logs.order} onDone={changed} />
      {atProvider(logs.order) ? <CancelAtHpButton orderId={orderId} onDone={onChanged} /> : null}
      <DemoStoreCancelButton order={logs.order} onDone={changed} />
      <PipelinePanel order={logs.order} />
      <StoreFulfilmentPanel order={logs.order} onChanged={changed} />
      <OrderHistoryPanel order={logs.order} />
      <Box sx={{ borderBottom: 1, borderColor: 'divider' }}>
        <Tabs value={tab} onChange={(_e, value: 'shopify' | 'hp') => setTab(value)} aria-label="Order data">
          <Tab value="shopify" label="Shopify Data" id="tab-shopify" aria-controls="panel-shopify" />
          <Tab value="hp" label="HP Data" id="tab-hp" aria-controls="panel-hp" />
        </Tabs>
      </Box>
      <Box role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
        {tab === 'shopify' ? <ShopifyDataTab order={logs.order} /> : <HpDataTab events={logs.events} sends={logs.sends} />}
      </Box>
    </Box>
  );
}

function CheckOrderView() {
  usePageTitle('Check order');
  const dataProvider = useDataProvider<AppDataProvider>();
  const [params, setParams] = useSearchParams();
  const id = params.get('id')?.trim() || '';
  const name = params.get('name')?.trim() || '';
  const searching = Boolean(id || name);
  const query = useQuery({
    queryKey: ['check-order', id, name],
    queryFn: () => dataProvider.checkOrder({ id, name }),
    enabled: searching,
    retry: false,
  });
  const groups = useMemo(() => groupOrderLogs(query.data ?? []), [query.data]);
  const [picked, setPicked] = useState<string | null>(null);
  const current = groups.find((g) => keyOf(g.order) === picked) ?? groups[0];

  const search = (next: OrderSearch) => {
    const p = new URLSearchParams();
    if (next.id) p.set('id', next.id);
    if (next.name) p.set('name', next.name);
    setPicked(null);
    setParams(p);
  };

  return (
    <Card sx={{ mt: 2, mb: 4 }}>
      <Title title="Check order" />
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        <Typography variant="h6" component="h1">
          Check order
        </Typography>
        <OrderSearchForm key={`${id}|${name}`} initial={id || name} onSearch={search} />
        {!searching ? <Typography color="text.secondary">Search an order by its id or its name.</Typography> : null}
        {searching && query.isPending && query.isFetching ? (
          <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 1, py: 2 }}>
            <CircularProgress size={20} />
            <Typography color="text.secondary">Loading...</Typography>
          </Box>
        ) : null}
        {searching && !query.isPending && query.isFetching ? <LinearProgress aria-label="Refreshing" /> : null}
        {query.isError ? (
          <Typography color="error" role="alert">
            {errorMessage(query.error)}
          </Typography>
        ) : null}
        {groups.length > 1 ? (
          <Box>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 0.5 }}>
              {groups.length} orders match, one per site:
            </Typography>
            <ToggleButtonGroup
              size="small"
              exclusive
              value={current ? keyOf(current.order) : null}
              onChange={(_e, value: string | null) => value && setPicked(value)}
            >
              {groups.map((g) => (
                <ToggleButton key={keyOf(g.order)} value={keyOf(g.order)}>
                  {g.order.data?.name || storeOrderId(g.order)} · site {g.order.siteId}
                </ToggleButton>
              ))}
            </ToggleButtonGroup>
          </Box>
        ) : null}
        {current && !query.isError ? <OrderDetail key={keyOf(current.order)} logs={current} onChanged={() => void query.refetch()} /> : null}
      </CardContent>
    </Card>
  );
}

/** /check-order?id=&name=: one order's store data and provider data, and re-running its steps. */
export function CheckOrderPage() {
  return (
    <RequireAccess resource="check-order" action="list">
      <CheckOrderView />
    </RequireAccess>
  );
}

export default CheckOrderPage;
