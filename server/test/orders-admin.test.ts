// Admin REST of the orders module (stores, products, resellers, instances, orders) and the orders
// list through general data (status, q, no-lines hidden, all clients).
import { describe, expect, it } from 'vitest';
import { fromJson } from '../src/db';
import type { EnvVar } from '../src/lib/secrets';
import { bearer, createWorld } from './harness';
import { connectStores, deliver, makeDesign, order, SECRET_B, SHOP_B } from './ordersKit';

describe('orders admin', async () => {
  const w = await createWorld({ PUBLIC_URL: 'https://presswork.example.com' });
  const w2 = await createWorld();
  const api = (method: 'get' | 'post' | 'put' | 'delete', path: string, token: string) => w.request()[method](path).set(bearer(token));
  const envOf = async (siteId: number) => fromJson<{ env: EnvVar[] }>((await w.db('sites').where({ id: siteId }).first()).settings, { env: [] }).env;

  describe('/api/admin/stores', () => {
    it('a store per site, secrets masked, the webhook URL to give Shopify', async () => {
      const put = await api('put', `/api/admin/stores/${w.sites.a}`, w.tokens.adminA).send({ shopDomain: 'Shop-A.myshopify.com', webhookSecret: 's3cret', autoSendToHP: true });
      expect(put.status).toBe(200);
      expect(put.body).toEqual({
        id: w.sites.a,
        siteId: w.sites.a,
        siteName: 'Site A',
        siteSlug: 'site-a',
        shopDomain: 'shop-a.myshopify.com',
        webhookSecret: '********',
        previousSecret: '',
        webhookUrl: 'https://presswork.example.com/api/online-stores/shopify-webhook?site=site-a',
        autoSendToHP: true,
        sendWhen: 'paid',
        lastReconciledAt: null,
        lastReconcileFound: null,
        lastReconcileError: null,
        adminToken: '',
        apiVersion: '',
        adminUrl: '',
        disconnectedAt: null,
        auth: 'static_token',
        clientId: '',
        clientSecret: '',
        previousClientSecretUntil: null,
      });
      expect(await envOf(w.sites.a)).toEqual(
        expect.arrayContaining([
          { key: 'SHOPIFY_SHOP_DOMAIN', value: 'shop-a.myshopify.com' },
          { key: 'SHOPIFY_WEBHOOK_SECRET', value: 's3cret' },
          { key: 'HP_AUTO_SEND', value: '1' },
        ]),
      );
      const list = await api('get', '/api/admin/stores', w.tokens.adminA);
      expect(list.status).toBe(200);
      expect(list.headers['content-range']).toBe('stores 0-1/2');
      expect(list.body.map((s: { siteSlug: string }) => s.siteSlug)).toEqual(['site-a', 'site-b']);
      expect(JSON.stringify(list.body)).not.toContain('s3cret');
    });

    it('sent back masked, the secret is kept; a new one moves the old one to previous; empty removes', async () => {
      const back = await api('put', `/api/admin/stores/${w.sites.a}`, w.tokens.adminA).send({ shopDomain: 'shop-a.myshopify.com', webhookSecret: '********', previousSecret: '', autoSendToHP: false });
      expect(back.body).toMatchObject({ webhookSecret: '********', autoSendToHP: false });
      expect((await envOf(w.sites.a)).find((v) => v.key === 'SHOPIFY_WEBHOOK_SECRET')?.value).toBe('s3cret');
      expect((await envOf(w.sites.a)).some((v) => v.key === 'HP_AUTO_SEND')).toBe(false);
      const rotated = await api('put', `/api/admin/stores/${w.sites.a}`, w.tokens.adminA).send({ webhookSecret: 'n3w' });
      expect(rotated.body).toMatchObject({ webhookSecret: '********', previousSecret: '********' });
      const env = await envOf(w.sites.a);
      expect(env.find((v) => v.key === 'SHOPIFY_WEBHOOK_SECRET')?.value).toBe('n3w');
      expect(env.find((v) => v.key === 'SHOPIFY_WEBHOOK_SECRET_PREVIOUS')?.value).toBe('s3cret');
      // The site editor's view masks them too.
      const site = await api('get', `/api/admin/sites/${w.sites.a}`, w.tokens.adminA);
      expect(JSON.stringify(site.body)).not.toContain('n3w');
    });

    it('SHOPIFY_SEND_WHEN from the store screen: created is written down, paid (the default) removes it; anything else is refused', async () => {
      const created = await api('put', `/api/admin/stores/${w.sites.a}`, w.tokens.adminA).send({ sendWhen: 'created' });
      expect(created.body).toMatchObject({ sendWhen: 'created' });
      expect((await envOf(w.sites.a)).find((v) => v.key === 'SHOPIFY_SEND_WHEN')?.value).toBe('created');
      const paid = await api('put', `/api/admin/stores/${w.sites.a}`, w.tokens.adminA).send({ sendWhen: 'paid' });
      expect(paid.body).toMatchObject({ sendWhen: 'paid' });
      expect((await envOf(w.sites.a)).some((v) => v.key === 'SHOPIFY_SEND_WHEN')).toBe(false);
      const bad = await api('put', `/api/admin/stores/${w.sites.a}`, w.tokens.adminA).send({ sendWhen: 'shipped' });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ field: 'sendWhen', error: 'Send when must be paid or created.' });
    });

    it('the webhook URL follows the request origin when PUBLIC_URL is not set', async () => {
      const res = await w2.request().get(`/api/admin/stores/${w2.sites.b}`).set(bearer(w2.tokens.adminA)).set('Host', 'orders.local:9000');
      expect(res.body.webhookUrl).toBe('http://orders.local:9000/api/online-stores/shopify-webhook?site=site-b');
    });

    it('one shop per site (409), a bad domain (400), admins only (403), unknown site (404)', async () => {
      expect((await api('put', `/api/admin/stores/${w.sites.b}`, w.tokens.adminA).send({ shopDomain: 'SHOP-A.myshopify.com' })).status).toBe(409);
      expect((await api('put', `/api/admin/stores/${w.sites.b}`, w.tokens.adminA).send({ shopDomain: 'not a domain' })).status).toBe(400);
      expect((await api('get', '/api/admin/stores', w.tokens.userA)).status).toBe(403);
      expect((await api('put', `/api/admin/stores/${w.sites.a}`, w.tokens.userA).send({ shopDomain: 'x.myshopify.com' })).status).toBe(403);
      expect((await api('get', '/api/admin/stores/999', w.tokens.adminA)).status).toBe(404);
    });

    it('a store saved through the admin is used by the webhook at once', async () => {
      await api('put', `/api/admin/stores/${w.sites.b}`, w.tokens.adminA).send({ shopDomain: SHOP_B, webhookSecret: SECRET_B });
      const o = order();
      expect((await deliver(w, o, { shop: SHOP_B, secret: SECRET_B })).status).toBe(200);
      // Disconnected: refused.
      const del = await api('delete', `/api/admin/stores/${w.sites.b}`, w.tokens.adminA);
      expect(del.status).toBe(200);
      expect((await deliver(w, order(), { shop: SHOP_B, secret: SECRET_B })).status).toBe(401);
      expect((await envOf(w.sites.b)).some((v) => v.key.startsWith('SHOPIFY_'))).toBe(false);
    });
  });

  describe('/api/admin/products', () => {
    it('maps a store SKU to a design of the site; unique per site; site-scoped', async () => {
      const design = await makeDesign(w, w.tokens.adminA, { name: 'Poster', sku: 'PRD-POSTER', productType: 'Poster', hpSKU: 'HP-P' });
      const designB = await makeDesign(w, w.tokens.adminB, { name: 'B', sku: 'PRD-B' });
      const created = await api('post', '/api/admin/products', w.tokens.userA).send({ storeSku: 'SHOP-POSTER-L', designId: design.id, storeProductId: 77 });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ storeSku: 'SHOP-POSTER-L', designId: design.id, productName: 'Poster', productType: 'Poster', storeProductId: '77', siteId: w.sites.a });
      const rec = await w.db('general_data').where({ id: created.body.id }).first();
      expect(rec).toMatchObject({ type: 'product', field1: 'SHOP-POSTER-L', field2: String(design.id), name: 'Poster' });
      expect((await api('post', '/api/admin/products', w.tokens.userA).send({ storeSku: 'SHOP-POSTER-L', designId: design.id })).status).toBe(409);
      expect((await api('post', '/api/admin/products', w.tokens.userA).send({ storeSku: 'X', designId: designB.id })).status).toBe(400);
      expect((await api('post', '/api/admin/products', w.tokens.userA).send({ designId: design.id })).status).toBe(400);
      const updated = await api('put', `/api/admin/products/${created.body.id}`, w.tokens.userA2).send({ storeSku: 'SHOP-POSTER-XL', designId: design.id, productName: 'Poster XL' });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ storeSku: 'SHOP-POSTER-XL', productName: 'Poster XL' });
      const list = await api('get', `/api/admin/products?filter=${encodeURIComponent(JSON.stringify({ designId: design.id }))}`, w.tokens.userA);
      expect(list.body.map((p: { id: number }) => p.id)).toEqual([created.body.id]);
      expect((await api('get', '/api/admin/products', w.tokens.userB)).body).toEqual([]);
      expect((await api('get', `/api/admin/products/${created.body.id}`, w.tokens.userB)).status).toBe(404);
      // The mapping is used by orders.
      const [m] = await w.services.orders.mapLines(w.sites.a, { line_items: [{ id: '1', name: null, title: null, product_id: null, variant_id: null, sku: 'SHOP-POSTER-XL', quantity: 1, properties: [] }] });
      expect(m.design?.id).toBe(design.id);
      expect((await api('delete', `/api/admin/products/${created.body.id}`, w.tokens.adminA)).status).toBe(200);
    });

    it('one SKU per site holds on every route that saves a product (generic records and the admin records resource too)', async () => {
      const design = await makeDesign(w, w.tokens.adminA, { name: 'Mug', sku: 'PRD-MUG', productType: 'Poster', hpSKU: 'HP-M' });
      const first = await api('post', '/api/admin/products', w.tokens.userA).send({ storeSku: 'SHOP-MUG', designId: design.id });
      expect(first.status).toBe(201);
      const product = { field1: 'SHOP-MUG', field2: String(design.id), data: { designId: design.id } };
      const generic = await w.request().post('/api/general-data/product').set(bearer(w.tokens.userA)).send(product);
      expect(generic.status).toBe(409);
      expect(generic.body.error).toBe('This site already maps this SKU.');
      const admin = await api('post', '/api/admin/general-data', w.tokens.adminA).send({ ...product, type: 'product', siteId: w.sites.a });
      expect(admin.status).toBe(409);
      // The products screen names the field as it does; another site may map the same SKU.
      expect((await api('post', '/api/admin/products', w.tokens.userA).send({ storeSku: 'SHOP-MUG', designId: design.id })).body.field).toBe('storeSku');
      expect((await w.request().post('/api/general-data/product').set(bearer(w.tokens.userB)).send({ field1: 'SHOP-MUG' })).status).toBe(200);
      // An update onto a SKU the site maps is refused too; saving a product under its own SKU is not.
      const other = await w.request().post('/api/general-data/product').set(bearer(w.tokens.userA)).send({ field1: 'SHOP-CUP' });
      expect(other.status).toBe(200);
      expect((await w.request().post('/api/general-data/product').set(bearer(w.tokens.userA)).send({ id: other.body.data.id, field1: 'SHOP-MUG' })).status).toBe(409);
      expect((await w.request().post('/api/general-data/product').set(bearer(w.tokens.userA)).send({ id: other.body.data.id, field1: 'SHOP-CUP', name: 'Cup' })).status).toBe(200);
      expect(Number((await w.db('general_data').where({ type: 'product', site_id: w.sites.a, field1: 'SHOP-MUG' }).count({ n: '*' }).first())?.n)).toBe(1);
    });
  });

  describe('/api/admin/resellers and /api/admin/instances', () => {
    it.each(['resellers', 'instances'])('%s: plain records of the site', async (resource) => {
      const created = await api('post', `/api/admin/${resource}`, w.tokens.userA).send({ field1: 'R-1', name: 'North', data: { region: 'north' } });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ type: resource.slice(0, -1), field1: 'R-1', name: 'North', siteId: w.sites.a, data: { region: 'north' } });
      expect((await api('get', `/api/admin/${resource}`, w.tokens.userA)).body.map((r: { id: number }) => r.id)).toEqual([created.body.id]);
      expect((await api('get', `/api/admin/${resource}`, w.tokens.userB)).body).toEqual([]);
      expect((await api('get', `/api/admin/${resource}/${created.body.id}`, w.tokens.userB)).status).toBe(404);
      const put = await api('put', `/api/admin/${resource}/${created.body.id}`, w.tokens.userA).send({ name: 'North East' });
      expect(put.body.name).toBe('North East');
    });
  });

  describe('orders lists', async () => {
    const w3 = await createWorld();
    await connectStores(w3);
    const list = (token: string, query: string) => w3.request().get(`/api/general-data/shopify-order-log${query}`).set(bearer(token));
    const fields1 = (body: { data: { data: Array<{ field1: string }> } }) => body.data.data.map((r) => r.field1);
    const a1 = order({ name: '#3001', first: 'Marie', last: 'Curie', email: 'marie@example.com', createdAt: '2026-11-20T09:00:00Z' });
    const a2 = order({ name: '#3002', first: 'Rosalind', last: 'Franklin', email: 'ros@example.com', createdAt: '2026-11-20T10:00:00Z' });
    const a3 = order({ name: '#3003', skus: [], createdAt: '2026-11-20T11:00:00Z' });
    const b1 = order({ name: '#3001', createdAt: '2026-11-20T12:00:00Z' });
    for (const o of [a1, a2, a3]) await deliver(w3, o);
    await deliver(w3, b1, { shop: SHOP_B, secret: SECRET_B });
    const a2Row = await w3.db('store_orders').where({ store_order_id: a2.id }).first();
    await w3.db('store_orders').where({ id: a2Row.id }).update({ status: 'shipped' });

    it("the spec's call: the site's orders with lines, newest first (field2 empty and userId ignored)", async () => {
      const res = await list(w3.tokens.userA, '?name=order-log&field2=&userId=1&page=1');
      expect(res.status).toBe(200);
      expect(fields1(res.body)).toEqual([a2.id, a1.id]);
      expect(res.body.data).toMatchObject({ hasNext: false, total: 2 });
    });

    it('status and q filters', async () => {
      expect(fields1((await list(w3.tokens.userA, '?status=shipped')).body)).toEqual([a2.id]);
      expect(fields1((await list(w3.tokens.userA, '?q=curie')).body)).toEqual([a1.id]);
      expect(fields1((await list(w3.tokens.userA, '?q=%233002')).body)).toEqual([a2.id]);
      expect(fields1((await list(w3.tokens.userA, '?q=ros%40example')).body)).toEqual([a2.id]);
      expect(fields1((await list(w3.tokens.userA, '?excludeStatus=shipped,no-lines')).body)).toEqual([a1.id]);
    });

    it('all clients: admin only', async () => {
      expect(fields1((await list(w3.tokens.adminA, '?allClients=1&q=%233001')).body)).toEqual([b1.id, a1.id]);
      expect((await list(w3.tokens.userA, '?allClients=1')).status).toBe(403);
    });

    it('/api/admin/orders: q, status, siteId; site-scoped; read only', async () => {
      const admin = (query: string, token = w3.tokens.adminA) => w3.request().get(`/api/admin/orders${query}`).set(bearer(token));
      const f = (filter: object) => `?filter=${encodeURIComponent(JSON.stringify(filter))}`;
      expect((await admin(f({ q: 'franklin' }))).body.map((r: { field1: string }) => r.field1)).toEqual([a2.id]);
      expect((await admin(f({ status: 'no-lines' }))).body.map((r: { field1: string }) => r.field1)).toEqual([a3.id]);
      expect((await admin(f({ siteId: w3.sites.b }))).body.map((r: { field1: string }) => r.field1)).toEqual([b1.id]);
      const mine = await admin('', w3.tokens.userA);
      expect(mine.body.map((r: { siteId: number }) => r.siteId)).toEqual([w3.sites.a, w3.sites.a, w3.sites.a]);
      const id = mine.body[0].id;
      expect((await admin(`/${id}`, w3.tokens.userA)).status).toBe(200);
      expect((await admin(`/${id}`, w3.tokens.userB)).status).toBe(404);
      expect((await w3.request().delete(`/api/admin/orders/${id}`).set(bearer(w3.tokens.adminA))).status).toBe(404);
    });
  });
});
