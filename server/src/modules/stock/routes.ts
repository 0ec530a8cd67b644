// /api/stock-items: the stock of blanks. Staff see their site's items and the shared ones and
// change their site's; shared items are changed by admins (the service says so, through auth).
import { Router } from 'express';
import { allow } from '../../http/access';
import { actorOf } from '../../http/auth';
import { ok } from '../../http/envelope';
import { idempotent } from '../../http/idempotency';
import { idParam, parse } from '../../http/validate';
import { countBody, itemBody, listQuery, lowQuery, movementsQuery, receiveBody } from './schema';
import type { StockService } from './service';

/** What happens after stock comes in (a delivery, a count): jobs waiting for it are tried again. */
export interface StockInPort {
  afterStockIn(actor: import('../../http/types').Actor): Promise<void>;
}

export function stockRoutes(stock: StockService, port: StockInPort): Router {
  const r = Router();
  r.get('/', allow.ownSite.describe("Stock items: the caller's site's and the shared ones, with on hand, reserved and available", { query: listQuery }), async (req, res) => {
    ok(res, await stock.list(actorOf(req), parse(listQuery, req.query)));
  });

  r.post('/', allow.ownSite.describe("Create a stock item (no id) or change an item's fields", { body: itemBody }), idempotent, async (req, res) => {
    ok(res, await stock.save(actorOf(req), parse(itemBody, req.body)));
  });

  // Before /:id: "low" is not an id. Home's "Stock running low": the same items and forecast as Needs attention.
  r.get('/low', allow.ownSite.describe("Stock items at or under their reorder point, lowest first, each with its use per day over the last 14 days and the days it lasts at that rate", { query: lowQuery }), async (req, res) => {
    const q = parse(lowQuery, req.query);
    ok(res, { list: await stock.lowStock(actorOf(req), q.clientId, q.limit ?? 20) });
  });

  r.get('/:id', allow.site.describe('One stock item'), async (req, res) => {
    ok(res, await stock.find(actorOf(req), idParam(req.params.id)));
  });

  r.post('/:id/receive', allow.site.describe('Receive a delivery of a stock item, with a note; jobs waiting for it are tried again', { body: receiveBody }), idempotent, async (req, res) => {
    const actor = actorOf(req);
    const item = await stock.receive(actor, idParam(req.params.id), parse(receiveBody, req.body));
    await port.afterStockIn(actor);
    ok(res, await stock.find(actor, item.id));
  });

  r.post('/:id/count', allow.site.describe('Count a stock item (a stock-take sets on hand and records the difference), with a note', { body: countBody }), idempotent, async (req, res) => {
    const actor = actorOf(req);
    const item = await stock.count(actor, idParam(req.params.id), parse(countBody, req.body));
    await port.afterStockIn(actor);
    ok(res, await stock.find(actor, item.id));
  });

  r.get('/:id/movements', allow.site.describe('A stock item\'s movements, newest first, with who, when and why (?format=csv: all of them as CSV)', { query: movementsQuery }), async (req, res) => {
    const q = parse(movementsQuery, req.query);
    const actor = actorOf(req);
    if (q.format === 'csv') {
      const { item, csv } = await stock.movementsCsv(actor, idParam(req.params.id));
      res.set({ 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="stock-${item.id}-movements.csv"`, 'X-Content-Type-Options': 'nosniff' });
      res.send(csv);
      return;
    }
    ok(res, await stock.movements(actor, idParam(req.params.id), q));
  });
  return r;
}
