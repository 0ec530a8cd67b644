import { useDataProvider } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import type { OrderRecord } from '../../../../common/api/orders';
import type { PipelineStep } from '../../../../common/api/pipeline';
import type { AppDataProvider } from '../../providers/dataProvider';
import { storeOrderId } from '../../providers/orders';

/** While a step waits in the outbox the panel reads again this often, so it turns done or failed by itself. */
export const PIPELINE_POLL_MS = 5_000;

/** The query of an order's pipeline: Re-run refreshes it once done. */
export const pipelineQueryKey = (order: OrderRecord) => ['order-pipeline', order.siteId, storeOrderId(order)] as const;

/** The order's pipeline steps (only those its site has), read again while one is queued. */
export function useOrderPipeline(order: OrderRecord) {
  const dataProvider = useDataProvider<AppDataProvider>();
  return useQuery({
    queryKey: pipelineQueryKey(order),
    queryFn: () => dataProvider.orderPipeline(storeOrderId(order), order.siteId),
    retry: false,
    refetchInterval: (q) => (q.state.data?.steps.some((s) => s.state === 'queued') ? PIPELINE_POLL_MS : false),
  });
}

/** The pipeline steps Re-run offers for this order: those of its site (none until known). */
export function useSiteSteps(order: OrderRecord): ReadonlySet<PipelineStep> {
  const { data } = useOrderPipeline(order);
  return new Set((data?.steps ?? []).map((s) => s.step));
}
