// Routing by rules: what routing an order costs with 50 rules (the last one matching, so every
// rule is tried) against a set with only a default, and store-order ingest (the inbox's processing
// of a delivery into its order, in its transaction) with routing on (50 rules) against off, in the
// same run on one SQLite file. Aims: 50 rules cost at most 3× a default-only set; ingest with
// routing keeps at least 50 % of its rate without.
//   npx tsx bench/routing.bench.ts [orders=300]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../server/src/config';
import { createDb, migrate } from '../server/src/db';
import { systemClock } from '../server/src/lib/clock';
import { createLogger } from '../server/src/lib/logger';
import { createServices, fileStoreFor } from '../server/src/services';
import { applyDelivery } from '../server/src/modules/orders/upsert';
import { orderRouting } from '../server/src/workflows/routeOrder';
import type { RoutingRuleSet } from '../common/api/routing';
import { emitSummary } from './support';

const N = Number(process.argv[2] ?? 300);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'presswork-bench-routing-'));
const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dir, JWT_SECRET: 'bench-secret-that-is-long-enough-0123456789', LOG_LEVEL: 'silent', SEED_DEMO: '0' });
const db = createDb(config.database);
const deps = { db, clock: systemClock, config, log: createLogger('silent') };

const RULES_50: RoutingRuleSet = {
  rules: [
    ...Array.from({ length: 49 }, (_, i) => ({ id: `r${i}`, name: `Rule ${i}`, when: { sku: [`NOPE-${i}-*`, `*-X${i}`], country: ['US', 'CA'], quantity: { min: 100 } }, then: { action: 'provider' as const } })),
    { id: 'cards', name: 'Cards in house', when: { sku: 'BENCH-*' }, then: { action: 'inHouse' as const, ifFull: { action: 'provider' as const } } },
  ],
  default: { action: 'provider' },
  capacity: [{ productType: 'Card', unitsPerDay: 1_000_000, cutoff: '23:59' }],
};
const DEFAULT_ONLY: RoutingRuleSet = { rules: [], default: { action: 'inHouse' }, capacity: [{ productType: 'Card', unitsPerDay: 1_000_000, cutoff: '23:59' }] };

let seq = 0;
const order = () => {
  seq++;
  return {
    id: String(5_000_000_000 + seq),
    name: `#B${seq}`,
    created_at: new Date().toISOString(),
    updated_at: new Date().toISOString(),
    financial_status: 'paid',
    line_items: [
      { id: String(8_000_000_000 + seq * 3), sku: 'BENCH-CARD', quantity: 1, properties: [], name: 'Card', title: 'Card' },
      { id: String(8_000_000_001 + seq * 3), sku: 'BENCH-CARD', quantity: 2, properties: [], name: 'Card', title: 'Card' },
    ],
    shipping_address: { name: 'A B', address1: '1 St', city: 'London', zip: 'N1', country_code: 'GB' },
    shipping_lines: [{ title: 'Standard', code: 'STD' }],
  };
};

async function main() {
  await migrate(db);
  const services = createServices(deps, fileStoreFor(dir));
  const now = new Date().toISOString();
  const site = async (slug: string) => {
    const [r] = await db('sites').insert({ name: slug, slug, logo: null, theme: '{}', settings: JSON.stringify({ env: [] }), created_at: now, updated_at: now }).returning('id');
    return Number(typeof r === 'object' ? r.id : r);
  };
  const [on, off] = [await site('routing-on'), await site('routing-off')];
  for (const s of [on, off]) await db('designs').insert({ name: 'Bench card', sku: 'BENCH-CARD', product_type: 'Card', site_id: s, data: JSON.stringify({}), hp_addition_data: JSON.stringify({}), created_at: now, updated_at: now, is_customizable: false });
  const flow = orderRouting({ ...deps, production: services.production, send: services.fulfilment });
  const ctx = { clock: systemClock, production: services.production, routePort: () => flow.port };

  let deliveryId = 0;
  // The process's CPU time an order too: on a loaded machine the wall time is mostly the commits' fsyncs.
  const cpuMs = new Map<number, number[]>();
  const ingest = async (siteId: number) => {
    const t = performance.now();
    const c = process.cpuUsage();
    for (let i = 0; i < N; i++) await db.transaction((trx) => applyDelivery(ctx, trx, { id: ++deliveryId, siteId, topic: 'orders/create', payload: order() }));
    const used = process.cpuUsage(c);
    cpuMs.set(siteId, [...(cpuMs.get(siteId) ?? []), (used.user + used.system) / 1000 / N]);
    return (N / (performance.now() - t)) * 1000;
  };
  const routeCost = async (set: RoutingRuleSet) => {
    await services.routing.save({ id: 0, role: 'admin', siteId: on, firstName: '', lastName: '', email: '' }, String(on), set);
    const orders = Array.from({ length: N }, order);
    const t = performance.now();
    for (const o of orders) await db.transaction((trx) => flow.port.routeOrder(trx, on, o as never));
    return (performance.now() - t) / N;
  };

  // Warm up both paths, then measure each twice, alternating.
  await ingest(off);
  const offRates = [await ingest(off)];
  await services.routing.save({ id: 0, role: 'admin', siteId: on, firstName: '', lastName: '', email: '' }, String(on), RULES_50);
  const onRates = [await ingest(on)];
  offRates.push(await ingest(off));
  await services.routing.save({ id: 0, role: 'admin', siteId: on, firstName: '', lastName: '', email: '' }, String(on), RULES_50);
  onRates.push(await ingest(on));
  const base = Math.min(await routeCost(DEFAULT_ONLY), await routeCost(DEFAULT_ONLY));
  const fifty = Math.min(await routeCost(RULES_50), await routeCost(RULES_50));
  const offRate = Math.max(...offRates);
  const onRate = Math.max(...onRates);
  console.log(`routing an order (2 lines): ${fifty.toFixed(2)} ms with 50 rules, ${base.toFixed(2)} ms with a default only`);
  console.log(`ingest: ${onRate.toFixed(0)} orders/s routing on (50 rules), ${offRate.toFixed(0)} orders/s off`);
  const cpuOf = (siteId: number) => (cpuMs.get(siteId) ?? []).map((ms) => ms.toFixed(2)).join(', ');
  console.log(`ingest CPU time an order (ms, each pass): ${cpuOf(on)} routing on; ${cpuOf(off)} off (its first pass is the warm-up)`);
  emitSummary({ figure: 'routing an order, 50 rules', value: `${fifty.toFixed(2)} ms`, baseline: `${base.toFixed(2)} ms (default only)`, ratio: (fifty / base).toFixed(2), aim: '≤ 3×', met: fifty / base <= 3 });
  emitSummary({ figure: 'ingest with routing on', value: `${onRate.toFixed(0)}/s`, baseline: `${offRate.toFixed(0)}/s (off)`, ratio: (onRate / offRate).toFixed(2), aim: '≥ 0.5', met: onRate / offRate >= 0.5 });
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
}

void main().catch((err) => {
  console.error(err);
  process.exit(1);
});
