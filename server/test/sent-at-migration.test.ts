// Migration 20261205_024_order_sent_to_provider_at on orders already waiting in `sent`: each takes
// its latest send time kept on the order, else its last change, so "HP has not acknowledged it"
// keeps counting from the send.
import { describe, expect, it } from 'vitest';
import { migrationSource } from '../../migrations';
import { migrate } from '../src/db';
import { createWorld } from './harness';

describe('migration 024: the send time of orders already sent', async () => {
  const w = await createWorld();
  // Back to the schema before it (later migrations undone first).
  for (let undone = 0; (await w.db.schema.hasColumn('store_orders', 'sent_to_provider_at')) && undone < 60; undone++) await w.db.migrate.down({ migrationSource });
  expect(await w.db.schema.hasColumn('store_orders', 'sent_to_provider_at')).toBe(false);

  const changed = '2026-11-20T15:00:00.000Z';
  const order = (id: number, status: string, ours: object) => ({
    id,
    site_id: w.sites.a,
    store_order_id: String(id),
    order_name: `#${id}`,
    order_number: String(id),
    status,
    search_text: null,
    store_data: JSON.stringify({ id: String(id), line_items: [] }),
    our_data: JSON.stringify(ours),
    created_at: '2026-11-20T08:00:00.000Z',
    updated_at: changed,
  });
  await w.db('store_orders').insert([
    // Whole order sent at 09:00, a line on its own at 10:00.
    order(9_000_101, 'sent', { hpOrders: { '9000101': { sentAt: '2026-11-20T09:00:00.000Z' }, '9000101-2': { sentAt: '2026-11-20T10:00:00.000Z' } } }),
    order(9_000_102, 'sent', {}),
    order(9_000_103, 'dataready', { hpOrders: { '9000103': { sentAt: '2026-11-20T09:00:00.000Z' } } }),
  ]);
  await migrate(w.db);

  it('an order in sent takes its latest send, else its last change; other orders none', async () => {
    const rows = await w.db('store_orders').whereIn('id', [9_000_101, 9_000_102, 9_000_103]).orderBy('id').pluck('sent_to_provider_at');
    expect(rows).toEqual(['2026-11-20T10:00:00.000Z', changed, null]);
  });
});
