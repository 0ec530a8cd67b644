// The authorization matrix, generated from the app's own route table (server/src/http/routeTable.ts):
// every route × {anonymous, user of site A, user of site B, admin}, checked against the access the
// route declares beside its definition (server/src/http/access.ts: allow.public, allow.credential,
// allow.signedIn, allow.ownSite, allow.site, allow.admin).
//
// A new route fails this suite until it has both a declaration and an entry in EXAMPLES below
// (the request that exercises it: path parameters, query, body — naming site A's fixture records).
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminDist } from '../server/src/lib/runtime';
import { accessOf, type AccessHandler } from '../server/src/http/access';
import { routeTable, type RouteEntry } from '../server/src/http/routeTable';
import { batchesRepo } from '../server/src/modules/batches/repo';
import { ACTORS, buildSecurityWorld, type ActorName, type SecurityWorld } from './lib/world';
import { checkBody, send, type Example } from './lib/request';

let world: SecurityWorld;
let routes: RouteEntry[];

beforeAll(async () => {
  world = await buildSecurityWorld();
  routes = routeTable(world.app as never);
}, 120_000);

const key = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

/** An open batch of site A holding a throwaway job (stored as it is: the calls check access, not the batch rules). */
async function throwawayBatch(s: SecurityWorld): Promise<number> {
  const job = await s.throwaway.job();
  // As the service does: numbered under the site's lock, in one transaction (examples run at once).
  return s.w.db.transaction(async (trx) => {
    const repo = batchesRepo(trx);
    await repo.lockNumbering(s.fx.siteA);
    return repo.insert({ siteId: s.fx.siteA, sheet: 'SRA3', jobIds: [job], at: new Date().toISOString(), byUserId: s.fx.userA, byName: 'user A' });
  });
}

/** Path parameters every route shares (a route's own example may override them). */
const PARAMS = (s: SecurityWorld): Record<string, string> => ({
  site: s.fx.siteASlug,
  type: s.fx.recordType,
  orderId: s.fx.orderId,
  name: s.fx.markedExport,
  job: 're-sync',
  key: s.fx.fileKey,
  path: 'print-jobs',
});

type Examples = Record<string, Example>;

/** The CRM ↔ email-platform sync calls, the same under /api/sites/:site and SYNC_SERVICE_PATH. */
function syncExamples(prefix: string): Examples {
  const e: Examples = {
    'OPTIONS /raiser-edge-webhook': {},
    'POST /raiser-edge-webhook': { body: { id: 'evt-1', type: 'com.blackbaud.constituent.change.v1', data: { constituent_id: '1001' } } },
    'POST /raiser-edge-sync-one': { body: { constituent_id: '1001' } },
    'POST /raiser-edge-sync-list-from-specific-day': { body: { day: '2026-01-01' } },
    'GET /raiser-edge-sync-day-preview': { query: { day: '2026-01-01' } },
    'POST /raiser-edge-to-adestra': { body: { targetDate: '2026-01-01' } },
    'GET /raiser-edge-sync/list': {},
    'GET /raiser-edge-sync/:id': (c) => ({ params: { id: String(c.world.fx.syncRunId) } }),
    'GET /download-export/:name': {},
    'GET /sync-config': {},
    'GET /sync-config/:job': {},
    'POST /sync-config/:job': { body: { hour: '19' } },
    'GET /sync-status': {},
  };
  for (const [kind, list, handled, proc] of [
    ['unsubscribe', 'list-file-unsubscribe', 'list-handle-unsubscribe', 'sync-single-unsubscribe-file'],
    ['export80', 'list-file-export80', 'list-handle-export80', 'sync-single-export80'],
    ['export92', 'list-file-export92', 'list-handle-export92', 'sync-single-export92'],
  ] as const) {
    e[`GET /${list}`] = {};
    e[`POST /${list}`] = {};
    e[`GET /${handled}`] = {};
    e[`POST /${handled}`] = {};
    e[`POST /${proc}`] = (c) => ({ body: { name: c.world.fx.files[kind], force: true } });
  }
  return Object.fromEntries(Object.entries(e).map(([k, v]) => [k.replace(' /', ` ${prefix}/`), v]));
}

/** A simple-rest resource's five calls. `id` names site A's record; change/remove use throwaways. */
function rest(base: string, id: (s: SecurityWorld) => number, o: { create?: (c: { world: SecurityWorld }) => unknown; update?: (c: { world: SecurityWorld }) => unknown; throwaway?: (s: SecurityWorld) => Promise<number>; readOnly?: boolean } = {}): Examples {
  const e: Examples = {
    [`GET ${base}`]: { query: { range: '[0,9]' } },
    [`GET ${base}/:id`]: (c) => ({ params: { id: String(id(c.world)) } }),
  };
  if (o.readOnly) return e;
  const fresh = o.throwaway ?? (async (s: SecurityWorld) => id(s));
  e[`POST ${base}`] = (c) => ({ body: o.create?.(c) ?? { name: `new ${c.world.unique('x')}` } });
  e[`PUT ${base}/:id`] = async (c) => ({ params: { id: String(await fresh(c.world)) }, body: o.update?.(c) ?? o.create?.(c) ?? { name: `Changed ${c.world.marker}` } });
  e[`DELETE ${base}/:id`] = async (c) => ({ params: { id: String(await fresh(c.world)) } });
  return e;
}

/** A stock item of site A (its name carries the marker), for the calls that read or change one. */
async function throwawayStockItem(s: SecurityWorld): Promise<number> {
  const at = new Date().toISOString();
  const [row] = await s.w.db('stock_items').insert({ site_id: s.fx.siteA, name: `Blank mugs ${s.marker}`, unit: 'mugs', on_hand: 10, reorder_point: 2, reorder_quantity: 20, created_at: at, updated_at: at }).returning('id');
  return typeof row === 'object' ? row.id : row;
}

const EXAMPLES: Examples = {
  // ---- files, webhooks, UI --------------------------------------------------------------------
  'PUT /uploads/*key': { params: { key: 'logos/forged.png' }, query: { ct: 'image/png', expires: '9999999999' }, headers: { 'Content-Type': 'image/png' }, raw: Buffer.from('not signed') },
  'GET /files/*key': {},
  // The stored file at its signed upload URL's path (no query), as at /files/: public, by its key.
  'GET /uploads/*key': {},
  // Without METRICS_TOKEN only a client on this machine, not forwarded by a proxy, may scrape: this
  // request comes through "a proxy", so nobody gets in (server/test/metrics.test.ts covers the token).
  'GET /metrics': { headers: { 'X-Forwarded-For': '203.0.113.9' } },
  'POST /api/online-stores/shopify-webhook': (c) => ({
    headers: { 'Content-Type': 'application/json', 'X-Shopify-Topic': 'orders/create', 'X-Shopify-Shop-Domain': 'site-a-shop.myshopify.com', 'X-Shopify-Webhook-Id': c.world.unique('hook') },
    raw: JSON.stringify({ id: 1, line_items: [] }),
  }),
  'POST /api/online-stores/hp-webhook': (c) => ({ query: { site: c.world.fx.siteASlug }, body: { event: 'status', sourceOrderId: c.world.fx.orderId, status: 'shipped', timestamp: '2026-01-01T00:00:00Z' } }),
  'GET /': { headers: { Accept: 'text/html' } },
  'GET /*path': { headers: { Accept: 'text/html' } },
  'POST /users/logout': {},

  // ---- the product API ------------------------------------------------------------------------
  'GET /api': {},
  'GET /api/health': {},
  'GET /api/health/ready': {},
  'GET /api/app-config': {},
  'GET /api/openapi.json': {},
  'POST /api/users/me/get-upload-url': { body: { serverSidePath: 'logos/x.png', contentType: 'image/png' } },
  'POST /api/users/login': { body: { email: 'user-a@example.com', password: 'correct horse battery' } },
  'POST /api/users/logout': {},
  'POST /api/users/register': (c) => ({ body: { firstName: 'New', email: `${c.world.unique('reg')}@example.com`, password: 'correct horse battery', siteId: c.world.fx.siteA } }),
  'GET /api/users/me': {},
  'GET /api/users/list-by-site/:id': (c) => ({ params: { id: String(c.world.fx.siteA) } }),
  // A user changes their own account: the body names the caller.
  'POST /api/users/upsert': (c) => ({ body: { id: c.world.userIdOf(c.actor) ?? c.world.fx.userA, firstName: 'Renamed' } }),
  'GET /api/users/:id': (c) => ({ params: { id: String(c.world.fx.userA) } }),
  'GET /api/sites/info': (c) => ({ query: { site: c.world.fx.siteASlug } }),
  'GET /api/sites': {},
  'GET /api/sites/:id': (c) => ({ params: { id: String(c.world.fx.siteA) } }),
  'POST /api/sites': (c) => ({ body: { name: 'New site', slug: c.world.unique('new').toLowerCase() } }),
  ...syncExamples('/api/sites/:site'),
  ...syncExamples('/sync-service/:site'),
  // The Raiser's Edge connection (only under /api/sites/:site): the callback's proof is its state.
  'GET /api/sites/:site/raiser-edge/connect': {},
  'POST /api/sites/:site/raiser-edge/connect-url': {},
  'GET /api/sites/:site/raiser-edge/callback': { query: { code: 'not-a-code', state: 'not-a-state' } },
  'GET /api/sites/:site/raiser-edge/status': {},
  'GET /api/sites/:site/raiser-edge/consent-options': {},
  'POST /api/sites/:site/raiser-edge/consent-settings': { body: { source: '', category: '' } },
  'GET /api/sites/:site/raiser-edge/webhook-subscriptions': {},
  'POST /api/sites/:site/raiser-edge/webhook-subscriptions': {},
  'POST /api/test/send-email': {},
  'GET /api/test/caught-emails': {},
  'GET /api/test/caught-emails/:id': { params: { id: '1' } },
  'GET /api/test/caught-emails/:id/attachments/:index': { params: { id: '1', index: '0' } },
  // The demo store (site A's in this world): its site for every signed-in user, its cancel for site A's.
  'GET /api/test/demo-store': {},
  'POST /api/test/demo-store/cancel': (c) => ({ body: { id: c.world.fx.orderId } }),
  'POST /api/test/send-raiser-edge': (c) => ({ body: { site: c.world.fx.siteASlug } }),
  'POST /api/test/raiser-edge/call': (c) => ({ body: { site: c.world.fx.siteASlug, path: '/constituent/v1/constituents/1001' } }),
  'POST /api/test/send-adestra': (c) => ({ body: { site: c.world.fx.siteASlug } }),
  'POST /api/test/send-hp': (c) => ({ body: { site: c.world.fx.siteASlug } }),
  'GET /api/general-data/:type': {},
  'GET /api/general-data/:type/:id': (c) => ({ params: { id: String(c.world.fx.recordId) } }),
  'POST /api/general-data/:type': { body: { name: 'new note' } },
  'POST /api/pdf/from-image': (c) => ({ body: { url: `/files/${c.world.fx.fileKey}` } }),
  'POST /api/pdf/crop-bleed-pdf-to-front-page-image': (c) => ({ body: { url: `/files/${c.world.fx.fileKey}` } }),
  // Not multipart: the admin is let in and told the file is missing (print-profiles.test.ts uploads real ones).
  'POST /api/print-profiles': { body: {} },
  'GET /api/print-profiles': {},
  'POST /api/images/url-to-base64': (c) => ({ body: { url: `/files/${c.world.fx.fileKey}` } }),
  'POST /api/images/from-polotno': (c) => ({ body: { designId: c.world.fx.designId, dpi: 36 } }),
  'GET /api/print-jobs': {},
  'GET /api/print-jobs/reports': {},
  'GET /api/print-jobs/from-shopify-order/:orderId': {},
  'POST /api/print-jobs': { body: { productName: 'new job' } },
  'GET /api/print-jobs/:id': (c) => ({ params: { id: String(c.world.fx.jobId) } }),
  'DELETE /api/print-jobs/:id': async (c) => ({ params: { id: String(await c.world.throwaway.job()) } }),
  // Approve anyway / Re-check change the job: each call gets its own.
  'POST /api/print-jobs/:id/approve': async (c) => ({ params: { id: String(await c.world.throwaway.job()) } }),
  'POST /api/print-jobs/:id/recheck': async (c) => ({ params: { id: String(await c.world.throwaway.job()) } }),
  'GET /api/print-jobs/:id/history': (c) => ({ params: { id: String(c.world.fx.jobId) } }),
  'GET /api/online-stores/order-history': (c) => ({ query: { id: c.world.fx.orderId } }),
  'GET /api/history': { query: { kind: 'job' } },
  // Bulk actions: site A's job, so site B's user is refused it (reported, never shown).
  'POST /api/print-jobs/bulk': async (c) => ({ body: { ids: [await c.world.throwaway.job()], action: 'delete' } }),
  'POST /api/print-jobs/bulk-pdf': (c) => ({ body: { ids: [c.world.fx.jobId] } }),
  // Proof links are public and checked by their signature: a forged one is refused as a page.
  'GET /proof/:token': { params: { token: 'forged.token' }, headers: { Accept: 'application/json' } },
  'POST /api/proofs/:token/approve': { params: { token: 'forged.token' } },
  'POST /api/proofs/:token/request-change': { params: { token: 'forged.token' }, body: { message: 'Please spell it Ada' } },
  'POST /api/orders/:id/release': (c) => ({ params: { id: c.world.fx.orderId } }),
  'POST /api/orders/:id/extend-hold': (c) => ({ params: { id: c.world.fx.orderId }, body: { minutes: 30 } }),
  'POST /api/orders/:id/lines/:lineId/personalisation': (c) => ({ params: { id: c.world.fx.orderId, lineId: c.world.fx.lineId }, body: { properties: [{ name: 'Name', value: 'Ada' }] } }),
  'GET /api/sites/:site/routing': (c) => ({ params: { site: c.world.fx.siteASlug } }),
  'PUT /api/sites/:site/routing': (c) => ({ params: { site: c.world.fx.siteASlug }, body: { rules: [], default: { action: 'hold', reason: 'Check it' }, capacity: [] } }),
  'POST /api/sites/:site/routing/test': (c) => ({ params: { site: c.world.fx.siteASlug }, body: { last: 5 } }),
  'POST /api/sites/:site/routing/route-now': (c) => ({ params: { site: c.world.fx.siteASlug }, body: { orderId: c.world.fx.orderId } }),
  'GET /api/stock-items': {},
  'GET /api/stock-items/low': {},
  'POST /api/stock-items': (c) => ({ body: { siteId: c.actor === 'userB' ? c.world.fx.siteB : c.world.fx.siteA, name: `Mugs ${c.world.unique('s')}`, unit: 'mugs', onHand: 5, reorderPoint: 1, reorderQuantity: 10 } }),
  'GET /api/stock-items/:id': async (c) => ({ params: { id: String(await throwawayStockItem(c.world)) } }),
  'POST /api/stock-items/:id/receive': async (c) => ({ params: { id: String(await throwawayStockItem(c.world)) }, body: { quantity: 3, note: 'delivery' } }),
  'POST /api/stock-items/:id/count': async (c) => ({ params: { id: String(await throwawayStockItem(c.world)) }, body: { quantity: 4, note: 'stock-take' } }),
  'GET /api/stock-items/:id/movements': async (c) => ({ params: { id: String(await throwawayStockItem(c.world)) } }),
  'GET /api/batches': {},
  'POST /api/batches': async (c) => ({ body: { jobIds: [await c.world.throwaway.job()] } }),
  'GET /api/batches/sheets': {},
  'GET /api/batches/:id': async (c) => ({ params: { id: String(await throwawayBatch(c.world)) } }),
  'GET /api/batches/:id/jobs': async (c) => ({ params: { id: String(await throwawayBatch(c.world)) } }),
  'GET /api/batches/:id/pdf': async (c) => ({ params: { id: String(await throwawayBatch(c.world)) } }),
  'GET /api/batches/:id/pdf/progress': async (c) => ({ params: { id: String(await throwawayBatch(c.world)) }, query: { key: 'security-progress-key' } }),
  'POST /api/batches/:id/state': async (c) => ({ params: { id: String(await throwawayBatch(c.world)) }, body: { state: 'printed' } }),
  // A scan moves the job on: each call its own job of site A (site B's user: not found).
  'POST /api/scan': async (c) => ({ body: { code: `PJ-${await c.world.throwaway.job()}` } }),
  // Site A's order (its customer's name carries the marker) and its job: site B's user finds neither.
  'GET /api/search': (c) => ({ query: { q: `Ada${c.world.marker}` } }),
  // A job of site A held by preflight (its product name carries the marker): site B's user never sees it.
  'GET /api/attention': async (c) => {
    await c.world.w.db('print_jobs').where({ id: await c.world.throwaway.job() }).update({ held: true });
    return {};
  },
  'GET /api/designs': {},
  'GET /api/designs/all-with-product-type': {},
  'POST /api/designs': { body: { name: 'new design' } },
  'POST /api/designs/import-from-json': { body: { json: { name: 'imported' } } },
  'POST /api/designs/create-with-front-image': (c) => ({ body: { imageUrl: `/files/${c.world.fx.fileKey}`, name: 'front' } }),
  'GET /api/designs/:id': (c) => ({ params: { id: String(c.world.fx.designId) } }),
  'DELETE /api/designs/:id': async (c) => ({ params: { id: String(await c.world.throwaway.design()) } }),
  'POST /api/pdf/from-print-job': (c) => ({ body: { id: c.world.fx.jobId } }),
  'POST /api/online-stores/shopify-webhook/send-hp': (c) => ({ body: { id: c.world.fx.orderId } }),
  'POST /api/online-stores/shopify-webhook/send-hp-single-line': (c) => ({ body: { orderId: c.world.fx.orderId, lineId: c.world.fx.lineId } }),
  'POST /api/online-stores/shopify-webhook/cancel-hp': (c) => ({ body: { id: c.world.fx.orderId } }),
  'POST /api/online-stores/manually-send-hp': {},
  'GET /api/hp-data': {},
  'GET /api/hp-data/order/:orderId': {},
  'POST /api/orders/mark-shipped': (c) => ({ body: { orderId: c.world.fx.orderId, carrier: 'Royal Mail', trackingNumber: 'RM000111222GB' } }),
  'GET /api/orders/:orderId/store-fulfilments': {},
  'GET /api/orders/:orderId/pipeline': {},
  'POST /api/online-stores/check-order': (c) => ({ body: { id: c.world.fx.orderId } }),
  'POST /api/online-stores/rerun-order': (c) => ({ body: { id: c.world.fx.orderId, flags: {} } }),
  // Site A has no Admin API token in the security world: an admin is answered 400 (nothing to sync from).
  'POST /api/online-stores/reconcile': (c) => ({ body: { site: c.world.fx.siteASlug } }),
  // The Stores screen's Admin API calls (admin only; site A has no token, so nothing leaves the box).
  'POST /api/online-stores/check-connection': (c) => ({ body: { site: c.world.fx.siteASlug } }),
  'POST /api/online-stores/register-webhooks': (c) => ({ body: { site: c.world.fx.siteASlug } }),
  'POST /api/online-stores/connect': (c) => ({ body: { site: c.world.fx.siteASlug } }),
  'GET /api/online-stores/connection': (c) => ({ query: { site: c.world.fx.siteASlug } }),
  'GET /api/online-stores/privacy-requests': (c) => ({ query: { site: c.world.fx.siteASlug } }),
  'GET /api/online-stores/shopify/install': (c) => ({ query: { site: c.world.fx.siteASlug } }),
  'POST /api/online-stores/shopify/install-url': (c) => ({ body: { site: c.world.fx.siteASlug } }),
  // Shopify's redirect back: public (a browser), refused without a state and HMAC of ours.
  'GET /api/online-stores/shopify/callback': { query: { code: 'c', hmac: '00', shop: 'x.myshopify.com', state: 'forged', timestamp: '1' } },
  'POST /api/online-stores/shopify-webhook/order-to-arwork': (c) => ({ body: { id: c.world.fx.orderId } }),
  'POST /api/online-stores/shopify-webhook/hood-download-pdf': (c) => ({ body: { id: c.world.fx.orderId, lineId: c.world.fx.lineId } }),
  'POST /api/online-stores/shopify-webhook/hood-generate-image': (c) => ({ body: { id: c.world.fx.orderId, lineId: c.world.fx.lineId } }),
  'POST /api/online-stores/shopify-webhook/hood-generate-page-content-image': (c) => ({ body: { id: c.world.fx.orderId, lineId: c.world.fx.lineId } }),

  // ---- the admin REST API ---------------------------------------------------------------------
  ...rest('/api/admin/hp-logs', (s) => s.fx.hpLogId, { readOnly: true }),
  ...rest('/api/admin/orders', (s) => s.fx.orderRecordId, { readOnly: true }),
  ...rest('/api/admin/products', (s) => s.fx.productId, {
    throwaway: (s) => s.throwaway.product(),
    create: (c) => ({ storeSku: c.world.unique('SKU'), designId: c.world.fx.designId }),
    update: (c) => ({ storeSku: c.world.unique('SKU'), designId: c.world.fx.designId, productName: `Product ${c.world.marker}` }),
  }),
  ...rest('/api/admin/resellers', (s) => s.fx.resellerId, { throwaway: (s) => s.throwaway.reseller() }),
  ...rest('/api/admin/instances', (s) => s.fx.instanceId, { throwaway: (s) => s.throwaway.instance() }),
  ...rest('/api/admin/sites', (s) => s.fx.siteA, {
    throwaway: (s) => s.throwaway.site(),
    create: (c) => ({ name: 'New site', slug: c.world.unique('rest').toLowerCase() }),
    update: (c) => ({ name: 'Renamed site', slug: c.world.unique('renamed').toLowerCase() }),
  }),
  ...rest('/api/admin/users', (s) => s.fx.userA, {
    throwaway: (s) => s.throwaway.user(),
    create: (c) => ({ firstName: 'New', email: `${c.world.unique('rest')}@example.com`, password: 'correct horse battery', siteId: c.world.fx.siteA }),
    update: () => ({ firstName: 'Renamed' }),
  }),
  ...rest('/api/admin/general-data', (s) => s.fx.recordId, { throwaway: (s) => s.throwaway.record(), create: () => ({ type: 'note', name: 'new note' }) }),
  ...rest('/api/admin/print-jobs', (s) => s.fx.jobId, { throwaway: (s) => s.throwaway.job(), create: () => ({ productName: 'new job' }), update: () => ({ isPrinted: false }) }),
  ...rest('/api/admin/designs', (s) => s.fx.designId, { throwaway: (s) => s.throwaway.design(), create: () => ({ name: 'new design' }), update: () => ({ name: 'renamed design' }) }),
  // Stores: one per site (the id is the site's); changes go to a throwaway site's store.
  'GET /api/admin/stores': { query: { range: '[0,9]' } },
  'GET /api/admin/stores/:id': (c) => ({ params: { id: String(c.world.fx.siteA) } }),
  'PUT /api/admin/stores/:id': async (c) => ({ params: { id: String(await c.world.throwaway.site()) }, body: { shopDomain: `${c.world.unique('shop').toLowerCase()}.myshopify.com` } }),
  'DELETE /api/admin/stores/:id': async (c) => ({ params: { id: String(await c.world.throwaway.site()) } }),
};

interface Cell {
  status: number;
  problems: string[];
  /** The answer carries site A's marker. */
  marked: boolean;
}

/**
 * Answers that must show site A's user the marker: proof that the fixtures carry it, so "site B's
 * user never sees the marker" is a real check and not a vacuous one.
 */
const MARKED_FOR_USER_A = [
  'GET /api/users/:id',
  'GET /api/sites/:id',
  'GET /api/general-data/:type',
  'GET /api/general-data/:type/:id',
  'GET /api/print-jobs',
  'GET /api/print-jobs/:id',
  'GET /api/print-jobs/from-shopify-order/:orderId',
  'GET /api/search',
  'GET /api/attention',
  'GET /api/designs',
  'GET /api/designs/:id',
  'GET /api/hp-data/order/:orderId',
  'POST /api/online-stores/check-order',
  'GET /api/admin/hp-logs/:id',
  'GET /api/admin/orders',
  'GET /api/admin/orders/:id',
  'GET /api/admin/products/:id',
  'GET /api/admin/resellers',
  'GET /api/admin/resellers/:id',
  'GET /api/admin/instances/:id',
  'GET /api/admin/general-data/:id',
  'GET /api/admin/print-jobs/:id',
  'GET /api/admin/designs/:id',
  'GET /api/sites/:site/raiser-edge-sync/list',
  'GET /api/sites/:site/raiser-edge-sync/:id',
  'GET /api/sites/:site/download-export/:name',
];

/** What the declaration implies for one actor's answer. */
function expectations(decl: AccessHandler, actor: ActorName, status: number, text: string, marker: string): string[] {
  const p: string[] = [];
  const denied = status === 401 || status === 403;
  const leaks = text.includes(marker);
  switch (decl.access) {
    case 'public':
      if (denied) p.push(`public route answered ${status}`);
      break;
    case 'credential':
      if (!denied) p.push(`needs ${decl.why ?? 'a credential'}, but answered ${status} without it`);
      break;
    case 'signedIn':
      if (actor === 'anonymous' && status !== 401) p.push(`anonymous: expected 401, got ${status}`);
      if (actor !== 'anonymous' && status === 401) p.push('a signed-in user got 401');
      break;
    case 'ownSite':
      if (actor === 'anonymous' && status !== 401) p.push(`anonymous: expected 401, got ${status}`);
      if (actor !== 'anonymous' && denied) p.push(`signed in: expected to be let in, got ${status}`);
      if (actor === 'userB' && leaks) p.push("site B's user sees site A's data (marker in the answer)");
      break;
    case 'site':
      if (actor === 'anonymous' && status !== 401) p.push(`anonymous: expected 401, got ${status}`);
      if ((actor === 'userA' || actor === 'admin') && (denied || status === 404)) p.push(`expected to be let in, got ${status}`);
      if (actor === 'userB' && status !== 403 && status !== 404) p.push(`site B's user: expected 403 or 404, got ${status}`);
      if (actor === 'userB' && leaks) p.push("site B's user sees site A's data (marker in the answer)");
      break;
    case 'admin':
      if (actor === 'anonymous' && status !== 401) p.push(`anonymous: expected 401, got ${status}`);
      if ((actor === 'userA' || actor === 'userB') && status !== 403) p.push(`non-admin: expected 403, got ${status}`);
      if (actor === 'admin' && (denied || status === 404)) p.push(`admin: expected to be let in, got ${status}`);
      break;
  }
  return p;
}

function printMatrix(rows: Array<{ route: string; access: string; cells: Record<ActorName, Cell> }>): string {
  const w = Math.max(...rows.map((r) => r.route.length));
  const head = `(* the answer holds site A's marker, ! a problem)\n${'route'.padEnd(w)}  ${'access'.padEnd(10)}  ${ACTORS.map((a) => a.padEnd(9)).join(' ')}`;
  const lines = rows.map((r) => `${r.route.padEnd(w)}  ${r.access.padEnd(10)}  ${ACTORS.map((a) => `${r.cells[a].status}${r.cells[a].marked ? '*' : ''}${r.cells[a].problems.length ? '!' : ''}`.padEnd(9)).join(' ')}`);
  return [head, ...lines].join('\n');
}

describe('authorization matrix (generated from the route table)', () => {
  it('every route declares who may call it, exactly once', () => {
    const missing = routes.filter((r) => !accessOf(r.handlers)).map(key);
    expect(missing, `routes without an allow.* declaration beside their definition:\n${missing.join('\n')}`).toEqual([]);
    const twice = routes.filter((r) => r.handlers.filter((h) => typeof (h as Partial<AccessHandler>).access === 'string').length > 1).map(key);
    expect(twice, `routes with more than one allow.* declaration:\n${twice.join('\n')}`).toEqual([]);
  });

  it('every route has an example request in this file', () => {
    const missing = routes.filter((r) => !(key(r) in EXAMPLES)).map(key);
    expect(missing, `routes without an example in security/matrix.security.ts EXAMPLES (add one):\n${missing.join('\n')}`).toEqual([]);
    const stale = Object.keys(EXAMPLES).filter((k) => !routes.some((r) => key(r) === k));
    expect(stale, `examples of routes that no longer exist:\n${stale.join('\n')}`).toEqual([]);
  });

  it('every route × {anonymous, user of site A, user of site B, admin} answers as declared', async () => {
    const uiBuilt = fs.existsSync(path.join(adminDist, 'index.html'));
    const params = PARAMS(world);
    const rows: Array<{ route: string; access: string; cells: Record<ActorName, Cell> }> = [];
    const jobs: Array<() => Promise<void>> = [];
    for (const r of routes) {
      const decl = accessOf(r.handlers);
      const example = EXAMPLES[key(r)];
      if (!decl || !example) continue; // reported by the two tests above
      const row = { route: key(r), access: decl.access, cells: {} as Record<ActorName, Cell> };
      rows.push(row);
      for (const actor of ACTORS) {
        jobs.push(async () => {
          const ex = typeof example === 'function' ? await example({ world, actor }) : example;
          // The UI's pages need a build (npm run build); without one they answer 503 by design.
          const headers = !uiBuilt && (r.path === '/' || r.path === '/*path') ? { Accept: 'application/json' } : ex.headers;
          const res = await send(world, r, { ...ex, headers, params: { ...params, ...ex.params } }, actor);
          const problems = [...checkBody(res), ...expectations(decl, actor, res.status, res.text, world.marker)];
          row.cells[actor] = { status: res.status, problems, marked: res.text.includes(world.marker) };
        });
      }
    }
    // A few requests at a time: records each call changes are its own throwaways, so order does not matter.
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < jobs.length) await jobs[next++]();
      }),
    );
    const failures = rows.flatMap((r) => ACTORS.flatMap((a) => r.cells[a].problems.map((p) => `${r.route} as ${a} (${r.access}): ${p}`)));
    for (const route of MARKED_FOR_USER_A) {
      const row = rows.find((r) => r.route === route);
      if (!row) failures.push(`${route}: listed in MARKED_FOR_USER_A but not in the route table`);
      else if (!row.cells.userA.marked) failures.push(`${route} as userA: site A's fixture marker is missing from the answer (the leak check would prove nothing)`);
    }
    if (failures.length) console.log(`\n${printMatrix(rows)}\n`);
    expect(failures, failures.join('\n')).toEqual([]);
    // The matrix covered every route and actor.
    expect(rows.length).toBe(routes.length);
  });
});
