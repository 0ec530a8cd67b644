// The order screens' actions that compose orders with production, fulfilment and the pipeline:
// built once by services.ts, called by workflows/orderActionRoutes.ts.
import type { Db } from '../db';
import type { Actor } from '../http/types';
import type { OrderLineInput, OrderSendPort, RerunOrderInput } from '../modules/orders';
import type { ProductionService } from '../modules/production';
import { lineImages, linePdf, makeOrdersInHouse, orderToArtwork } from './orderLines';
import { rerunOrder, type RerunPipelinePort } from './rerun';

export interface OrderActionsDeps {
  db: Db;
  production: ProductionService;
  /** The provider side (modules/fulfilment); none: Send to HP is skipped with the reason. */
  send?: OrderSendPort;
  /** The charity's order pipeline (modules/pipeline): its steps re-run on purpose. */
  pipeline?: RerunPipelinePort;
}

export function orderActions({ db, production, send, pipeline }: OrderActionsDeps) {
  return {
    rerunOrder: (actor: Actor, input: RerunOrderInput) => rerunOrder({ db, production, sendPort: () => send, pipeline }, actor, input),
    orderToArtwork: (actor: Actor, id: string, siteId?: number, ownOrigin?: string) => orderToArtwork({ db, production }, actor, id, siteId, ownOrigin),
    makeOrdersInHouse: (actor: Actor, ids: string[], siteId?: number, ownOrigin?: string) => makeOrdersInHouse({ db, production }, actor, ids, siteId, ownOrigin),
    linePdf: (actor: Actor, input: OrderLineInput & { printInHouse?: boolean }, ownOrigin: string) => linePdf({ db, production }, actor, input, ownOrigin),
    lineImages: (actor: Actor, input: OrderLineInput & { page?: number }, ownOrigin?: string) => lineImages({ db, production }, actor, input, ownOrigin),
  };
}

export type OrderActions = ReturnType<typeof orderActions>;
