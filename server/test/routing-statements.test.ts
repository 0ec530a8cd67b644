// What routing adds to a store order's ingest, counted in SQL statements (knex's query event) for a
// paid order of two card lines made in house: the order's routes, history entries and outbox rows
// are written together, the floor's capacity once for the product type's day, and the site and the
// designs the ingest read are not read again (nor, as the inbox applies it, the site its batch
// read). A count, not a time: it fails when a change brings back per-line statements or repeated
// reads.
import { beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/lib/logger';
import type { Delivery } from '../src/modules/inbox';
import { applyDeliveries, applyDelivery } from '../src/modules/orders/upsert';
import { orderRouting } from '../src/workflows/routeOrder';
import { bearer, createWorld, type TestWorld } from './harness';
import { makeDesign, order } from './ordersKit';
import type { RoutingRuleSet } from '../../common/api/routing';

// Measured when the order's writes were batched, on SQLite and on PostgreSQL alike: 17 statements
// routing on (BEGIN and COMMIT included), 10 off; before, 26 and 11. As the inbox applies it (the
// batch reads the site and whether it routes first), 18; before, 28.
const MOST = { on: 17, added: 7, inbox: 18 };

const IN_HOUSE: RoutingRuleSet = {
  rules: [{ id: 'cards', name: 'Cards in house', when: { sku: 'STMT-CARD' }, then: { action: 'inHouse', ifFull: { action: 'provider' } } }],
  default: { action: 'provider' },
  capacity: [{ productType: 'Card', unitsPerDay: 1000, cutoff: '23:59' }],
};

let w: TestWorld;
let deliveryId = 0;

beforeAll(async () => {
  w = await createWorld();
  await makeDesign(w, w.tokens.adminA, { name: 'Counted card', sku: 'STMT-CARD', productType: 'Card', hpSKU: 'HP-CARD', data: { artworkUrls: ['/files/test/a.png'] } });
  await makeDesign(w, w.tokens.adminB, { name: 'Counted card', sku: 'STMT-CARD', productType: 'Card', hpSKU: 'HP-CARD', data: { artworkUrls: ['/files/test/a.png'] } });
  const saved = await w.request().put(`/api/sites/${w.sites.a}/routing`).set(bearer(w.tokens.adminA)).send(IN_HOUSE);
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
}, 60_000);

/** A new two-line order applied as the inbox applies a routing site's delivery; answers its id and the statements its transaction ran. */
async function ingest(siteId: number, asInbox = false): Promise<{ orderId: string; statements: string[] }> {
  const flow = orderRouting({ db: w.db, clock: w.clock, config: w.config, log: createLogger('silent'), production: w.services.production, send: w.services.fulfilment });
  const ctx = { clock: w.clock, production: w.services.production, routePort: () => flow.port };
  const o = order({ skus: ['STMT-CARD', 'STMT-CARD'] });
  const statements: string[] = [];
  const listen = (q: { sql: string }) => statements.push(q.sql);
  w.db.on('query', listen);
  try {
    const d: Delivery = { id: ++deliveryId, source: 'shopify', eventId: `stmt-${deliveryId}`, deliveryId: null, siteId, topic: 'orders/create', payload: o, status: 'received', attempts: 0, error: null, receivedAt: '', processedAt: null };
    await w.db.transaction(async (trx) => {
      if (asInbox) await applyDeliveries(ctx, trx, [d]);
      else await applyDelivery(ctx, trx, d);
    });
  } finally {
    w.db.off('query', listen);
  }
  return { orderId: o.id, statements };
}

describe('statements of a routed order', () => {
  it('a two-line order routed in house stays within its count, and routing adds at most its share to the ingest', async () => {
    // Warm: the first order of a site may read what later ones find (the capacity row is made).
    await ingest(w.sites.a);
    await ingest(w.sites.b);
    const on = await ingest(w.sites.a);
    const off = await ingest(w.sites.b);
    expect(on.statements.length, on.statements.join('\n')).toBeLessThanOrEqual(MOST.on);
    expect(on.statements.length - off.statements.length, `on:\n${on.statements.join('\n')}\noff:\n${off.statements.join('\n')}`).toBeLessThanOrEqual(MOST.added);

    // And it did what routing does: both lines on the floor, recorded, queued for their jobs.
    const routes = await w.db('order_line_routes').where({ site_id: w.sites.a, order_id: on.orderId }).orderBy('id');
    expect(routes.map((r) => [r.action, r.rule_id, Number(r.units)])).toEqual([
      ['inHouse', 'cards', 1],
      ['inHouse', 'cards', 1],
    ]);
    const history = await w.db('history').where({ site_id: w.sites.a, subject_kind: 'order', subject_id: on.orderId, action: 'routed' });
    expect(history).toHaveLength(2);
    expect(await w.db('outbox').where('dedupe_key', 'like', `inhouse:${w.sites.a}:${on.orderId}:%`)).toHaveLength(2);
    const day = routes[0].day as string;
    expect(await w.db('routing_capacity_days').where({ site_id: w.sites.a, product_type: 'card', day }).first()).toMatchObject({ units: 4 });
    expect(await w.db('order_line_routes').where({ site_id: w.sites.b })).toHaveLength(0);
  });

  it('as the inbox applies a routing site\'s delivery, the batch\'s site is not read again', async () => {
    const { orderId, statements } = await ingest(w.sites.a, true);
    expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(MOST.inbox);
    expect(await w.db('order_line_routes').where({ site_id: w.sites.a, order_id: orderId })).toHaveLength(2);
  });
});
