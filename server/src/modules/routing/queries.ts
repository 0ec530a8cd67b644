// What other modules and the workflows ask of routing's tables, by name (the repo stays routing's own).
import type { Knex } from 'knex';
import type { Db } from '../../db';
import { routingRepo, type LineRouteRow } from './repo';

type Trx = Db | Knex.Transaction;

/** Where each line of an order was routed, by line id. */
export const lineRoutesOf = (db: Trx, siteId: number, orderId: string) => routingRepo(db).routesOfOrder(siteId, orderId);
/** Records where a line went (the newest decision replaces the line's earlier one). */
export const saveLineRoute = (db: Trx, row: LineRouteRow) => routingRepo(db).saveRoutes([row]);
/** Records where several lines went, in one statement. */
export const saveLineRoutes = (db: Trx, rows: LineRouteRow[]) => routingRepo(db).saveRoutes(rows);
/** Held lines, oldest first (Needs attention). */
export const heldLineRoutes = (db: Trx, siteIds: number[] | 'all', limit: number) => routingRepo(db).heldLines(siteIds, limit);
/** Gives a line's units back to its floor day (it no longer goes in house). */
export const releaseFloorCapacity = (db: Trx, siteId: number, productType: string, day: string, units: number) => routingRepo(db).releaseCapacity(siteId, productType.toLowerCase(), day, units);
/** Units taken per `${day}\n${product type}` on these days. */
export const floorCapacityUsed = (db: Trx, siteId: number, days: string[]) => routingRepo(db).capacityUsed(siteId, days);
