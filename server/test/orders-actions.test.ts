// The order screens' calls: check-order, rerun-order, order-to-arwork, hood-download-pdf, hood-generate-*.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { artworkRgb, pngOf, storeFile } from './imageFixtures';
import { bearer, createWorld } from './harness';
import { connectStores, deliver, makeDesign, order, SECRET_B, SHOP_B, setSiteEnv } from './ordersKit';
import { orderTablesRepo } from '../src/modules/orders/tablesRepo';

describe('order actions', async () => {
  const w = await createWorld();
  await connectStores(w);
  const post = (path: string, token: string, body: unknown) => w.request().post(`/api/online-stores${path}`).set(bearer(token)).send(body as object);
  afterEach(() => vi.restoreAllMocks());

  const png = await pngOf(artworkRgb(60, 85, 3), 60, 85);
  const pages = await Promise.all([1, 2, 3, 4].map((i) => storeFile(w.services.store, `p${i}.png`, png)));
  const card = await makeDesign(w, w.tokens.adminA, { name: 'Birthday card', sku: 'ACT-CARD', hpSKU: 'HP-CARD', productType: 'Card', image: pages[0], data: { artworkUrls: pages } });
  const bare = await makeDesign(w, w.tokens.adminA, { name: 'No art yet', sku: 'ACT-BARE', hpSKU: 'HP-BARE' });
  await makeDesign(w, w.tokens.adminA, { name: 'Two pages', sku: 'ACT-TWO', data: { artworkUrls: pages.slice(0, 2) } });

  const mine = order({ name: '#2001', skus: ['ACT-CARD', 'UNKNOWN-SKU', 'ACT-BARE'] });
  await deliver(w, mine);
  const theirs = order({ name: '#2001', skus: ['X'] });
  await deliver(w, theirs, { shop: SHOP_B, secret: SECRET_B });
  // Provider logs of my order, as the fulfilment side writes them.
  const log = async (type: 'hp-log' | 'shopify-hp-log', field2: string, createdAt: string) =>
    orderTablesRepo(w.db).insertLog(type, { orderId: mine.id, field2, name: type === 'hp-log' ? 'order received' : 'send', status: 'sent', data: {}, siteId: w.sites.a, userId: null, createdAt, updatedAt: createdAt });
  await log('shopify-hp-log', '', '2026-11-21T09:00:00.000Z');
  await log('hp-log', 'HP-1', '2026-11-21T10:00:00.000Z');

  describe('POST /api/online-stores/check-order', () => {
    it('by store order id: the order and its provider logs, newest first', async () => {
      const res = await post('/check-order', w.tokens.userA, { id: mine.id });
      expect(res.status).toBe(200);
      const list = res.body.data as Array<{ type: string; field1: string; createdAt: string }>;
      expect(list.map((r) => r.type)).toEqual(['hp-log', 'shopify-hp-log', 'shopify-order-log']);
      expect(list.every((r) => r.field1 === mine.id)).toBe(true);
      expect(list.map((r) => r.createdAt)).toEqual([...list.map((r) => r.createdAt)].sort().reverse());
    });

    it("says whether the order's store is connected (its Admin API), and when it was uninstalled", async () => {
      const connection = async () => (await post('/check-order', w.tokens.userA, { id: mine.id })).body.data.find((r: { type: string }) => r.type === 'shopify-order-log').data.storeConnection;
      expect(await connection()).toEqual({ connected: false, uninstalledAt: null });
      await setSiteEnv(w, w.sites.a, { SHOPIFY_ADMIN_TOKEN: 'shpat_test' });
      try {
        expect(await connection()).toEqual({ connected: true });
        await setSiteEnv(w, w.sites.a, { SHOPIFY_ADMIN_TOKEN: '', SHOPIFY_UNINSTALLED_AT: '2026-11-21T08:00:00.000Z' });
        expect(await connection()).toEqual({ connected: false, uninstalledAt: '2026-11-21T08:00:00.000Z' });
      } finally {
        await setSiteEnv(w, w.sites.a, { SHOPIFY_ADMIN_TOKEN: '', SHOPIFY_UNINSTALLED_AT: '' });
      }
    });

    it('by name, with or without #; a non-admin only finds their own site', async () => {
      for (const name of ['#2001', '2001']) {
        const res = await post('/check-order', w.tokens.userA, { name });
        expect(res.status).toBe(200);
        expect(res.body.data.find((r: { type: string }) => r.type === 'shopify-order-log').field1).toBe(mine.id);
        expect(res.body.data.some((r: { field1: string }) => r.field1 === theirs.id)).toBe(false);
      }
      // The admin sees the #2001 of both sites, or one site's with siteId.
      const all = await post('/check-order', w.tokens.adminA, { name: '2001' });
      expect(new Set(all.body.data.map((r: { field1: string }) => r.field1))).toEqual(new Set([mine.id, theirs.id]));
      const onlyB = await post('/check-order', w.tokens.adminA, { name: '2001', siteId: w.sites.b });
      expect(onlyB.body.data.map((r: { field1: string }) => r.field1)).toEqual([theirs.id]);
    });

    it("another site's order is not found (404), also when the other site is named", async () => {
      const res = await post('/check-order', w.tokens.userA, { id: theirs.id });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, error: 'Order not found' });
      const named = await post('/check-order', w.tokens.userA, { id: theirs.id, siteId: w.sites.b });
      expect(named.status).toBe(404);
      expect(named.body).toEqual({ success: false, error: 'Order not found' });
      expect((await post('/check-order', w.tokens.userB, { id: theirs.id })).status).toBe(200);
      expect((await post('/check-order', w.tokens.userA, {})).status).toBe(400);
      expect((await w.request().post('/api/online-stores/check-order').send({ id: mine.id })).status).toBe(401);
    });
  });

  describe('POST /api/online-stores/rerun-order', () => {
    it('Send to HP on a shipped order asks first (409 with confirmWith) and does nothing before the yes', async () => {
      const shipped = order({ name: '#2099', skus: ['ACT-CARD'] });
      await deliver(w, shipped);
      await w.db('store_orders').where({ store_order_id: String(shipped.id) }).update({ status: 'shipped' });
      const outboxBefore = (await w.db('outbox').count({ n: '*' }).first())?.n;
      const asked = await post('/rerun-order', w.tokens.userA, { id: String(shipped.id), flags: { sendToHP: true } });
      expect(asked.status).toBe(409);
      expect(asked.body.details).toEqual({ code: 'ORDER_SHIPPED', confirmWith: { sendShipped: true } });
      expect(asked.body.error).toMatch(/has shipped/);
      expect((await w.db('outbox').count({ n: '*' }).first())?.n).toBe(outboxBefore);
      const yes = await post('/rerun-order', w.tokens.userA, { id: String(shipped.id), flags: { sendToHP: true }, sendShipped: true });
      expect(yes.status).toBe(200);
    });

    it('CRM steps are skipped with a reason (the setting names to admins only); sendToHP is skipped while a line cannot go to the provider', async () => {
      const staff = await post('/rerun-order', w.tokens.userA, { id: mine.id, flags: { addToAdestra: true, addToRaisersEdge: 1, sendEcard: true } });
      expect(staff.body.data.skipped.map((s: { reason: string }) => s.reason)).toEqual(Array(3).fill("not set up for this site (an admin sets it up in the site's settings)"));
      const res = await post('/rerun-order', w.tokens.adminA, { id: mine.id, flags: { addToAdestra: true, addToRaisersEdge: 1, sendEcard: true, sendToHP: true } });
      expect(res.status).toBe(200);
      expect(res.body.data.ran).toEqual([]);
      expect(res.body.data.skipped).toEqual([
        { step: 'addToRaisersEdge', reason: 'not configured for this site: set RE_BASE_URL, RE_CLIENT_ID, RE_SUBSCRIPTION_KEY' },
        { step: 'addToAdestra', reason: 'not configured for this site: set ADESTRA_BASE_URL, ADESTRA_TOKEN, ADESTRA_TABLE_ID, ADESTRA_BUYERS_LIST_ID' },
        { step: 'sendEcard', reason: 'not configured for this site: set SMTP_URL, ECARD_FROM' },
        { step: 'sendToHP', reason: expect.stringContaining('No design or product has the SKU UNKNOWN-SKU') },
      ]);
      expect(res.body.data.failed).toEqual([]);
    });

    it('a half-configured step names the settings still missing; a wrong one says what is wrong', async () => {
      await setSiteEnv(w, w.sites.a, { ADESTRA_BASE_URL: 'http://adestra.example', ADESTRA_TOKEN: 't', SMTP_URL: 'http://mail.example', ECARD_FROM: 'cards@example.org' });
      try {
        const res = await post('/rerun-order', w.tokens.adminA, { id: mine.id, flags: { addToAdestra: true, sendEcard: true } });
        expect(res.body.data.skipped).toEqual([
          { step: 'addToAdestra', reason: 'not configured for this site: set ADESTRA_TABLE_ID, ADESTRA_BUYERS_LIST_ID' },
          { step: 'sendEcard', reason: expect.stringMatching(/^SMTP_URL: /) },
        ]);
      } finally {
        await setSiteEnv(w, w.sites.a, { ADESTRA_BASE_URL: '', ADESTRA_TOKEN: '', SMTP_URL: '', ECARD_FROM: '' });
      }
    });

    it('sendToHP queues the provider send (with the actor) when every line maps to a provider SKU', async () => {
      const ok = order({ skus: ['ACT-CARD', 'ACT-BARE'] });
      await deliver(w, ok);
      const calls: unknown[] = [];
      vi.spyOn(w.services.fulfilment, 'enqueueOrderSend').mockImplementation(async (_trx, input, actorId) => (calls.push({ ...input, actorId }), []));
      const res = await post('/rerun-order', w.tokens.userA, { id: ok.id, flags: { sendToHP: true, sendEcard: false } });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ ran: ['sendToHP'], skipped: [], failed: [] });
      expect(calls).toEqual([{ siteId: w.sites.a, orderId: ok.id, actorId: w.users.userA }]);
    });

    it("a site without the charity pipeline: the order's pipeline has no steps (none offered, none to set)", async () => {
      for (const token of [w.tokens.userA, w.tokens.adminA]) {
        const res = await w.request().get(`/api/orders/${mine.id}/pipeline`).set(bearer(token));
        expect(res.status).toBe(200);
        expect(res.body.data.steps).toEqual([]);
      }
    });

    it('failures carry errorMes; no step chosen is a 400; tenancy as check-order', async () => {
      const none = await post('/rerun-order', w.tokens.userA, { id: mine.id, flags: {} });
      expect(none.status).toBe(400);
      expect(none.body).toMatchObject({ success: false, error: 'Choose at least one step to re-run.', errorMes: expect.anything() });
      expect((await post('/rerun-order', w.tokens.userA, { id: theirs.id, flags: { sendToHP: true } })).status).toBe(404);
    });
  });

  describe('POST /api/online-stores/shopify-webhook/order-to-arwork', () => {
    it('a print job per mapped line; unmapped lines and designs without artwork are skipped with a reason; idempotent', async () => {
      const res = await post('/shopify-webhook/order-to-arwork', w.tokens.userA, { id: mine.id });
      expect(res.status).toBe(200);
      const { jobs, skipped } = res.body.data;
      expect(jobs).toHaveLength(1);
      expect(jobs[0]).toMatchObject({
        clientId: w.sites.a,
        designId: card.id,
        shopifyOrderId: mine.id,
        lineItemId: mine.line_items[0].id,
        productName: 'Item 1',
        artworkUrls: pages,
        previewUrl: pages[0],
        quantity: 1,
        readyForPrint: true,
        data: { storeProductId: '7000000000000000001', properties: [{ name: 'Message', value: 'Happy birthday' }] },
      });
      expect(skipped).toEqual([
        { lineId: mine.line_items[1].id, reason: 'No design or product has the SKU UNKNOWN-SKU' },
        { lineId: mine.line_items[2].id, reason: `The design "${bare.name}" has no artwork yet` },
      ]);
      const again = await post('/shopify-webhook/order-to-arwork', w.tokens.adminA, { orderId: mine.id });
      expect(again.status).toBe(200);
      expect(again.body.data.jobs.map((j: { id: number }) => j.id)).toEqual([jobs[0].id]);
      expect(await w.db('print_jobs').where({ shopify_order_id: mine.id })).toHaveLength(1);
      // Concurrent clicks: still one job per line.
      const o2 = order({ skus: ['ACT-CARD'] });
      await deliver(w, o2);
      const many = await Promise.all(Array.from({ length: 4 }, () => post('/shopify-webhook/order-to-arwork', w.tokens.userA, { id: o2.id })));
      expect(many.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      expect(new Set(many.map((r) => r.body.data.jobs[0].id)).size).toBe(1);
    });

    it('another site: 404; no id: 400', async () => {
      expect((await post('/shopify-webhook/order-to-arwork', w.tokens.userA, { id: theirs.id })).status).toBe(404);
      expect((await post('/shopify-webhook/order-to-arwork', w.tokens.userA, {})).status).toBe(400);
    });
  });

  describe('POST /api/online-stores/shopify-webhook/hood-download-pdf', () => {
    it("the line's print file (print-file.pdf) from its job, marking the job downloaded", async () => {
      const res = await post('/shopify-webhook/hood-download-pdf', w.tokens.userA, { id: mine.id, lineId: mine.line_items[0].id }).buffer(true).parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toBe('attachment; filename="print-file.pdf"');
      expect((res.body as Buffer).subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const job = await w.db('print_jobs').where({ shopify_order_id: mine.id, line_item_id: mine.line_items[0].id }).first();
      expect(Boolean(job.is_pdf_downloaded)).toBe(true);
    });

    it('a line without a job gets its design file; errors answer {success:false, data:{error}}', async () => {
      const o = order({ skus: ['ACT-CARD', 'ACT-TWO', 'NOPE'] });
      await deliver(w, o);
      const fine = await post('/shopify-webhook/hood-download-pdf', w.tokens.userA, { id: o.id, lineId: o.line_items[0].id });
      expect(fine.status).toBe(200);
      expect(fine.headers['content-type']).toBe('application/pdf');
      const two = await post('/shopify-webhook/hood-download-pdf', w.tokens.userA, { id: o.id, lineId: o.line_items[1].id });
      expect(two.status).toBe(400);
      expect(two.body).toEqual({ success: false, error: 'Only support 4 pages A5', data: { error: 'Only support 4 pages A5' } });
      const unmapped = await post('/shopify-webhook/hood-download-pdf', w.tokens.userA, { id: o.id, lineId: o.line_items[2].id });
      expect(unmapped.body.data.error).toBe('No design or product has the SKU NOPE');
      const noLine = await post('/shopify-webhook/hood-download-pdf', w.tokens.userA, { id: o.id, lineId: '1' });
      expect(noLine.status).toBe(404);
      expect(noLine.body.data.error).toBe('The order has no such line');
      const foreign = await post('/shopify-webhook/hood-download-pdf', w.tokens.userA, { id: theirs.id, lineId: theirs.line_items[0].id });
      expect(foreign.status).toBe(404);
      expect(foreign.body.data.error).toBe('Order not found');
    });
  });

  // A design without a document answers its artwork (every page, or the one `page`, default 1); render-api.test.ts covers rendered designs.
  describe('hood-generate-image / hood-generate-page-content-image (a design without a document: its artwork)', () => {
    it.each([
      ['hood-generate-image', () => pages],
      ['hood-generate-page-content-image', () => [pages[0]]],
    ] as const)('%s', async (call, expected) => {
      const res = await post(`/shopify-webhook/${call}`, w.tokens.userA, { id: mine.id, lineId: mine.line_items[0].id });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, data: { images: expected(), preview: pages[0], missing: [] } });
      expect((await post(`/shopify-webhook/${call}`, w.tokens.userA, { id: mine.id, lineId: mine.line_items[1].id })).status).toBe(400);
    });
  });
});
