// What orders ask of production (modules/production) about an order's lines. Production sits above
// orders (it reads the order and its holds), so services.ts hands it in when it builds orders.
import type { Knex } from 'knex';
import type { Db } from '../../db';
import type { Design } from '../designs';
import type { PrintHold } from './orderHold';
import type { OrderData, OrderLine } from './shopify';

type Trx = Db | Knex.Transaction;

/** A line with its design, or the reason it has none (production's LineMapping, by its shape). */
export interface LineDesign {
  line: OrderLine;
  design: Design | null;
  via: 'design' | 'product' | null;
  reason?: string;
  removed?: boolean;
  ecard?: boolean;
}

export interface OrderProductionPort {
  /** Each line's design (or why it has none), as production maps it (in the caller's transaction, when given). */
  mapLines(siteId: number, order: { line_items: OrderLine[] }, trx?: Trx): Promise<LineDesign[]>;
  /** After a store change: the order's unprinted jobs follow their lines, in the caller's transaction. */
  followOrder(trx: Trx, siteId: number, order: OrderData): Promise<void>;
  /** Check order: where each line with a job is made. */
  whereMade(siteId: number, orderId: string): Promise<unknown[]>;
  /** Check order: where each line goes and whether it may go now. */
  routeLines(trx: Trx, siteId: number, order: OrderData & { id: string }, hold?: PrintHold): Promise<Array<{ route: unknown }>>;
}
