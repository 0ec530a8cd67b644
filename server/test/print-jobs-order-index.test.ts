// The jobs of the listed orders (every list showing ship-by: List Orders, Check order, Needs
// attention) are found through (client_id, shopify_order_id), migration 027 — not by reading every
// job of the site, a cost that grows with the shop's history (the order-list benchmark measures it).
// SQLite's plan; PostgreSQL chooses by its statistics.
import { describe, expect, it } from 'vitest';
import { printJobsRepo } from '../src/modules/print-jobs/repo';
import { searchRepo } from '../src/modules/search/repo';
import { createWorld } from './harness';

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('the print jobs of some orders of a site', () => {
  it('are looked up by site and order, not by reading the site\'s jobs', async () => {
    const w = await createWorld();
    // The statement linesOfOrders runs, caught as it goes to the database.
    const ran: Array<{ sql: string; bindings: unknown[] }> = [];
    const catchIt = (q: { sql: string; bindings?: unknown[] }) => ran.push({ sql: q.sql, bindings: q.bindings ?? [] });
    w.db.on('query', catchIt);
    await printJobsRepo(w.db).linesOfOrders(w.sites.a, ['1001', '1002']);
    w.db.off('query', catchIt);
    expect(ran).toHaveLength(1);
    const [sql] = ran;
    const plan = (await w.db.raw(`explain query plan ${sql.sql}`, sql.bindings as never[])) as Array<{ detail: string }>;
    expect(plan.map((p) => p.detail).join('\n')).toMatch(/print_jobs_client_order \(client_id=\? AND shopify_order_id=\?\)/);
  });

  it('the header search finds a job by number and the jobs of the orders found, each by one lookup, for staff and for an admin', async () => {
    const w = await createWorld();
    for (const siteId of [w.sites.a, undefined]) {
      const ran: Array<{ sql: string; bindings: unknown[] }> = [];
      const catchIt = (q: { sql: string; bindings?: unknown[] }) => ran.push({ sql: q.sql, bindings: q.bindings ?? [] });
      w.db.on('query', catchIt);
      await searchRepo(w.db).jobs(siteId, { id: 12, orders: [{ siteId: w.sites.a, orderId: '1001' }, { siteId: w.sites.a, orderId: '1002' }] }, 8);
      w.db.off('query', catchIt);
      expect(ran).toHaveLength(1);
      const plan = ((await w.db.raw(`explain query plan ${ran[0].sql}`, ran[0].bindings as never[])) as Array<{ detail: string }>).map((p) => p.detail).join('\n');
      // Not every job of the site (an index on client_id alone), nor every job (a scan).
      expect(plan, siteId === undefined ? 'admin' : 'staff').not.toMatch(/SCAN j\b|\(client_id=\?\)$/m);
      expect(plan).toMatch(/SEARCH j USING INTEGER PRIMARY KEY \(rowid=\?\)/);
      expect(plan.match(/print_jobs_client_order \(client_id=\? AND shopify_order_id=\?\)/g)).toHaveLength(2);
    }
  });
});
