// Which store order a send, a postback or a screen is about.
import type { Knex } from 'knex';
import type { Db } from '../../db';
import { notFound } from '../../http/errors';
import type { Actor } from '../../http/types';
import { siteScope } from '../auth';
import type { DataRecord } from '../general-data';
import { newestOrder, orderById } from '../orders';
import type { StoreOrder } from './orderBody';

/** The order record of a store order id (newest when several), in one site or any. */
export async function findOrder(db: Db | Knex.Transaction, orderId: string, siteId?: number): Promise<DataRecord<StoreOrder> | undefined> {
  return (await newestOrder(db, orderId, siteId)) as DataRecord<StoreOrder> | undefined;
}

/** Locks an order record for a read-modify-write of its JSON (PostgreSQL; SQLite has one writer). */
export async function lockedOrder(trx: Knex.Transaction, id: number): Promise<DataRecord<StoreOrder> | undefined> {
  return (await orderById(trx, id, true)) as DataRecord<StoreOrder> | undefined;
}

/**
 * send-hp's `id`/`orderId`: a store order id (or the order record's id), within what the actor
 * may see. Another site's order, or another site named, is not found.
 */
export async function resolveOrder(db: Db, actor: Actor, ref: string, siteId?: number): Promise<DataRecord<StoreOrder>> {
  const scope = siteScope(actor, siteId, 'Order not found');
  let order = await findOrder(db, ref, scope);
  if (!order && /^[1-9]\d{0,9}$/.test(ref) && Number(ref) <= 2_147_483_647) {
    const byId = await orderById(db, Number(ref));
    if (byId && (scope === undefined || byId.siteId === scope)) order = byId as DataRecord<StoreOrder>;
  }
  if (!order) throw notFound('Order not found');
  return order;
}
