// Migration 20261202_022_search_indexes on a database of orders stored before it: their search keys
// are filled from what is stored, so the header search finds them at once.
import { describe, expect, it } from 'vitest';
import { migrationSource } from '../../migrations';
import { migrate } from '../src/db';
import { bearer, createWorld } from './harness';

describe('migration 022: search keys of the orders already stored', async () => {
  const w = await createWorld();
  // Back to the schema before the search keys (later migrations undone first).
  for (let undone = 0; (await w.db.schema.hasColumn('store_orders', 'email_lower')) && undone < 60; undone++) await w.db.migrate.down({ migrationSource });
  expect(await w.db.schema.hasColumn('store_orders', 'email_lower')).toBe(false);

  const at = '2026-11-20T09:00:00.000Z';
  const store = { id: '6600001', name: '#4242', order_number: 4242, email: 'Zoë.Öberg@Example.com', customer: { first_name: 'Zoë', last_name: 'Öberg' }, line_items: [] };
  const [row] = await w.db('store_orders')
    .insert({ id: 9_000_001, site_id: w.sites.a, store_order_id: '6600001', order_name: '#4242', order_number: '4242', status: 'received', search_text: null, store_data: JSON.stringify(store), our_data: '{}', created_at: at, updated_at: at })
    .returning('id');
  const id = Number(typeof row === 'object' ? row.id : row);
  await migrate(w.db);

  it('fills the keys as the orders repo writes them (lower case beyond ASCII too)', async () => {
    expect(await w.db('store_orders').where({ id }).first('name_lower', 'customer_lower', 'surname_lower', 'email_lower')).toEqual({
      name_lower: '#4242',
      customer_lower: 'zoë öberg',
      surname_lower: 'öberg',
      email_lower: 'zoë.öberg@example.com',
    });
    for (const q of ['#424', 'ÖBERG', 'zoë ö', 'zoë.öberg@']) {
      const res = await w.request().get('/api/search').query({ q }).set(bearer(w.tokens.userA));
      expect(res.body.data.orders.map((o: { id: number }) => o.id), q).toEqual([id]);
    }
  });
});
