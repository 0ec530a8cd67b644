// The jobs of the listed orders (every list showing ship-by: List Orders, Check order, Needs
// attention) are found through (client_id, shopify_order_id), migration 027 — not by reading every
// job of the site, a cost that grows with the shop's history (the order-list benchmark measures it).
// SQLite's plan; PostgreSQL chooses by its statistics.
import { describe, expect, it } from 'vitest';
import { printJobsRepo } from '../src/modules/print-jobs/repo';
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
});
