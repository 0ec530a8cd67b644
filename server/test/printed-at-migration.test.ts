// Migration 20261206_026_order_printed_by_provider_at on orders already in `printed`: each takes the
// first `printed` event HP sent for it, else its last change, so "printed by HP Site Flow and has
// not shipped" keeps counting from when it printed.
import { describe, expect, it } from 'vitest';
import { migrationSource } from '../../migrations';
import { migrate } from '../src/db';
import { createWorld } from './harness';

describe('migration 026: the printed time of orders HP already printed', async () => {
  const w = await createWorld();
  // Back to the schema before it (later migrations undone first).
  for (let undone = 0; (await w.db.schema.hasColumn('store_orders', 'printed_by_provider_at')) && undone < 60; undone++) await w.db.migrate.down({ migrationSource });
  expect(await w.db.schema.hasColumn('store_orders', 'printed_by_provider_at')).toBe(false);

  const changed = '2026-11-20T15:00:00.000Z';
  const order = (id: number, status: string) => ({
    id,
    site_id: w.sites.a,
    store_order_id: String(id),
    order_name: `#${id}`,
    order_number: String(id),
    status,
    search_text: null,
    store_data: JSON.stringify({ id: String(id), line_items: [] }),
    our_data: JSON.stringify({}),
    created_at: '2026-11-20T08:00:00.000Z',
    updated_at: changed,
  });
  let eventId = 9_100_000;
  const event = (orderId: number, status: string, at: string, siteId = w.sites.a) => ({
    id: ++eventId,
    site_id: siteId,
    store_order_id: String(orderId),
    provider_order_id: 'hp-1',
    name: `order.${status}`,
    status,
    data: JSON.stringify({ status }),
    user_id: null,
    created_at: at,
    updated_at: at,
  });
  await w.db('store_orders').insert([order(9_000_201, 'printed'), order(9_000_202, 'printed'), order(9_000_203, 'printready')]);
  await w.db('provider_events').insert([
    event(9_000_201, 'printready', '2026-11-20T08:30:00.000Z'),
    // Its first line printed at 09:00 (which moved the order), the second at 10:00.
    event(9_000_201, 'printed', '2026-11-20T10:00:00.000Z'),
    event(9_000_201, 'printed', '2026-11-20T09:00:00.000Z'),
    // The same order number at another site says nothing of this one.
    event(9_000_202, 'printed', '2026-11-20T07:00:00.000Z', w.sites.b),
    event(9_000_203, 'printed', '2026-11-20T09:00:00.000Z'),
  ]);
  await migrate(w.db);

  it('an order in printed takes its first printed event, else its last change; other orders none', async () => {
    const rows = await w.db('store_orders').whereIn('id', [9_000_201, 9_000_202, 9_000_203]).orderBy('id').pluck('printed_by_provider_at');
    expect(rows).toEqual(['2026-11-20T09:00:00.000Z', changed, null]);
  });
});
