// The security suite's world: one in-process Presswork (SQLite in memory) with sites A and B, the
// CRM and email-platform simulators wired to site A, and fixture records of site A for every kind
// of record a route can name — each carrying MARKER in its text, so a response that leaks site A's
// data to another site's user can be spotted. Built on server/test's harness (createWorld: sites a/b,
// users adminA, userA, userA2, adminB, userB; an `admin` may act on every site).
//
// Exports kept stable for the other security files: buildSecurityWorld, ACTORS, ActorName,
// SecurityWorld, Fixtures, tokenOf, bodyText.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import supertest from 'supertest';
import { bearer, type TestWorld } from '../../server/test/harness';
import { connectStores, deliver, order, orderRows, setSiteEnv } from '../../server/test/ordersKit';
import { createSyncWorld, person, type SyncWorld } from '../../server/test/sync-world';

/** The four callers of the matrix. `admin` is site B's admin: roles are global, so it acts on site A's records too. */
export const ACTORS = ['anonymous', 'userA', 'userB', 'admin'] as const;
export type ActorName = (typeof ACTORS)[number];

export interface Fixtures {
  siteA: number;
  siteB: number;
  siteASlug: string;
  userA: number;
  userB: number;
  admin: number;
  designId: number;
  jobId: number;
  /** A general-data record of type `note`, created by user A. */
  recordType: string;
  recordId: number;
  /** The store order (Shopify id), one of its line ids, and its general-data record id. */
  orderId: string;
  lineId: string;
  orderRecordId: number;
  hpLogId: number;
  productId: number;
  resellerId: number;
  instanceId: number;
  syncRunId: number;
  /** Drop-folder files of site A (download-export, process). */
  files: { unsubscribe: string; export80: string; export92: string };
  /** An export file whose content carries the marker (download-export). */
  markedExport: string;
  /** An uploaded file's key under /files/. */
  fileKey: string;
  hpPostbackToken: string;
}

export interface SecurityWorld {
  sw: SyncWorld;
  w: TestWorld;
  /** The app under test (the harness app with the simulators' sync service). */
  app: SyncWorld['app'];
  /** Text that appears in every fixture record of site A. */
  marker: string;
  fx: Fixtures;
  request: () => supertest.Agent;
  /** A fresh token (own jti) for an actor, or undefined for the anonymous caller. */
  tokenOf(actor: ActorName): string | undefined;
  userIdOf(actor: ActorName): number | undefined;
  /** Throwaway records of site A (created by user A unless said), for calls that change or delete. */
  throwaway: {
    design(): Promise<number>;
    job(): Promise<number>;
    record(type?: string): Promise<number>;
    product(): Promise<number>;
    reseller(): Promise<number>;
    instance(): Promise<number>;
    /** A site of its own (admin calls that rename or delete a site or its store). */
    site(): Promise<number>;
    /** A user of site A. */
    user(): Promise<number>;
  };
  unique(prefix: string): string;
}

/** A response body as text (JSON, HTML, or binary read as latin1). */
export function bodyText(res: { body: unknown; text?: string }): string {
  if (Buffer.isBuffer(res.body)) return res.body.toString('latin1');
  if (typeof res.text === 'string') return res.text;
  return res.body === undefined ? '' : JSON.stringify(res.body);
}

export function tokenOf(world: Pick<SecurityWorld, 'tokenOf'>, actor: ActorName) {
  return world.tokenOf(actor);
}

export async function buildSecurityWorld(): Promise<SecurityWorld> {
  const marker = `MARKA${crypto.randomBytes(5).toString('hex')}`;
  const sw = await createSyncWorld({ constituents: [person('1001')] });
  const { w, app } = sw;
  const request = () => supertest.agent(app);
  let n = 0;
  const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++n}`;

  const ids = { anonymous: undefined, userA: w.users.userA, userB: w.users.userB, admin: w.users.adminB } as const;
  const userIdOf = (actor: ActorName) => ids[actor];
  const tokenOf = (actor: ActorName) => (ids[actor] === undefined ? undefined : w.tokenFor(ids[actor]!));

  async function call(method: 'get' | 'post' | 'put', url: string, actor: ActorName | 'adminA', body?: unknown) {
    const token = actor === 'adminA' ? w.tokenFor(w.users.adminA) : tokenOf(actor)!;
    const res = await request()[method](url).set(bearer(token)).send(body as object);
    if (res.status >= 300) throw new Error(`fixture ${method.toUpperCase()} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  // Site A's own text carries the marker; it is a store, a provider customer and a CRM client.
  await w.db('sites').where({ id: w.sites.a }).update({ name: `Site A ${marker}` });
  await w.db('users').where({ id: w.users.userA }).update({ last_name: `Tester ${marker}` });
  await connectStores(w);
  const hpPostbackToken = 'postback-token-site-a-0123456789';
  await setSiteEnv(w, w.sites.a, { HP_POSTBACK_TOKEN: hpPostbackToken });

  // An uploaded PNG (its key is the capability of GET /files/…).
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#ffffff' } }).png().toBuffer();
  const grant = await call('post', '/api/users/me/get-upload-url', 'userA', { serverSidePath: 'security/a.png', contentType: 'image/png' });
  const put = await request().put(new URL(grant.data).pathname + new URL(grant.data).search).set('Content-Type', 'image/png').send(png);
  if (put.status !== 200) throw new Error(`fixture upload: ${put.status} ${JSON.stringify(put.body)}`);
  const fileKey = decodeURIComponent(new URL(put.body.data.url, 'http://x').pathname.replace(/^\/files\//, ''));

  const newDesign = async () => (await call('post', '/api/designs', 'userA', { name: `Design ${marker}`, sku: unique('SKU'), productType: 'Card' })).data.id as number;
  const newJob = async () => (await call('post', '/api/print-jobs', 'userA', { productName: `Job ${marker}`, quantity: 1 })).data.id as number;
  const newRecord = async (type = 'note') => (await call('post', `/api/general-data/${type}`, 'userA', { name: `Note ${marker}`, field1: marker, data: { text: marker } })).data.id as number;
  const designId = await newDesign();
  const newProduct = async () => (await call('post', '/api/admin/products', 'userA', { storeSku: unique('STORE-SKU'), designId, productName: `Product ${marker}` })).id as number;
  const newPlain = (resource: 'resellers' | 'instances') => async () => (await call('post', `/api/admin/${resource}`, 'userA', { name: `${resource} ${marker}`, field1: unique('code') })).id as number;
  const newSite = async () => (await call('post', '/api/admin/sites', 'adminA', { name: `Throwaway ${marker}`, slug: unique('tmp').toLowerCase() })).id as number;
  const newUser = async () =>
    (await call('post', '/api/admin/users', 'adminA', { firstName: 'Throwaway', lastName: marker, email: `${unique('tmp')}@example.com`, password: 'correct horse battery', role: 'user', siteId: w.sites.a })).id as number;

  // An order of site A from its store (the customer's name carries the marker), and a provider log.
  const o = order({ first: `Ada${marker}`, skus: ['SKU-CARD'] });
  const delivered = await deliver(w, o);
  if (delivered.status !== 200) throw new Error(`fixture order webhook: ${delivered.status} ${JSON.stringify(delivered.body)}`);
  const [orderRow] = await orderRows(w, String(o.id));
  if (!orderRow) throw new Error('fixture order: not stored');
  const hpLog = await call('post', '/api/general-data/hp-log', 'adminA', { field1: String(o.id), name: `HP ${marker}`, siteId: w.sites.a, data: { status: 'printed', note: marker } });

  // CRM ↔ email-platform: a run record and one drop file of each kind.
  const run = await sw.sync.records.createRun(w.sites.a, 'unsubscribe', `run ${marker}`, 'manual', null);
  fs.mkdirSync(sw.dropDir, { recursive: true });
  const files = { unsubscribe: 'unsubscribe_20260101.csv', export80: 'export_80_20260101.csv', export92: 'export_92_20260101.csv' };
  for (const f of Object.values(files)) fs.writeFileSync(path.join(sw.dropDir, f), `Email,Note\n`);
  fs.writeFileSync(path.join(sw.dropDir, 'export_80_20251231.csv'), `Email,Note\nnobody@example.org,${marker}\n`);

  // The demo's caught e-mails: one message held in memory (no SMTP needed to read the list).
  const caught = {
    id: 1,
    receivedAt: new Date().toISOString(),
    envelope: { from: 'cards@site-a.example.org', to: ['ann@example.net'] },
    messageId: '<caught.1@presswork>',
    from: 'cards@site-a.example.org',
    to: 'ann@example.net',
    subject: 'A card',
    text: 'Hello',
    html: '<p>Hello</p><img src="cid:front">',
    attachments: [{ filename: 'front.png', contentType: 'image/png', cid: 'front', size: png.length }],
    raw: 'Subject: A card\r\n\r\nHello',
  };
  w.services.mailCatcher.attach({
    messages: () => [caught],
    message: (id) => (id === caught.id ? caught : undefined),
    attachment: (id, index) => (id === caught.id && index === 0 ? { contentType: 'image/png', content: png } : undefined),
  });

  // The demo store (outside production): site A's, its cancel answered without a webhook.
  w.services.demoStore.attach({ siteSlug: 'site-a', cancel: async () => ({ status: 200 }) });

  const fx: Fixtures = {
    siteA: w.sites.a,
    siteB: w.sites.b,
    siteASlug: 'site-a',
    userA: w.users.userA,
    userB: w.users.userB,
    admin: w.users.adminB,
    designId,
    jobId: (await call('post', '/api/print-jobs', 'userA', { productName: `Job ${marker}`, quantity: 1, shopifyOrderId: String(o.id), lineItemId: String(orderRow.data.line_items[0].id) })).data.id,
    recordType: 'note',
    recordId: await newRecord(),
    orderId: String(o.id),
    lineId: String(orderRow.data.line_items[0].id),
    orderRecordId: orderRow.id,
    hpLogId: hpLog.data.id,
    productId: await newProduct(),
    resellerId: await newPlain('resellers')(),
    instanceId: await newPlain('instances')(),
    syncRunId: run.id,
    files,
    markedExport: 'export_80_20251231.csv',
    fileKey,
    hpPostbackToken,
  };
  return {
    sw,
    w,
    app,
    marker,
    fx,
    request,
    tokenOf,
    userIdOf,
    throwaway: {
      design: newDesign,
      job: newJob,
      record: newRecord,
      product: newProduct,
      reseller: newPlain('resellers'),
      instance: newPlain('instances'),
      site: newSite,
      user: newUser,
    },
    unique,
  };
}
