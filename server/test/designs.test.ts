// Product designs through the API: defaults, validation, the admin-or-creator rule, tenancy, SKUs,
// import from JSON, a design from a front image, the SKU/product-type list and the admin REST surface.
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import type { Response } from 'supertest';
import { describe, expect, it } from 'vitest';
import { fromJson } from '../src/db';
import { bearer, createWorld } from './harness';

interface Design {
  id: number;
  name: string;
  image: string | null;
  sku: string | null;
  isCustomizable: boolean;
  productPdf: string | null;
  createdByUserId: number | null;
  productId: string | null;
  productType: 'Card' | 'Mug' | 'Poster' | null;
  stock: string | null;
  hpSKU: string | null;
  hpAdditionData: { attributes: Array<{ name: string; value: string }>; stockItems: Array<{ code: string; name: string; quantity: number }> };
  data: { artworkUrls?: string[]; importOriginalData?: unknown; [k: string]: unknown };
  siteId: number;
  createdAt: string;
  updatedAt: string;
}

const binary = (res: Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};

const HP = {
  attributes: [{ name: 'Paper', value: 'Matte 350gsm' }],
  stockItems: [{ code: 'ENV-C5', name: 'C5 envelope', quantity: 1 }],
};

describe('designs', async () => {
  const w = await createWorld();
  const post = (path: string, token: string, body: unknown) => w.request().post(path).set(bearer(token)).send(body as object);
  const get = (path: string, token: string) => w.request().get(path).set(bearer(token));
  const del = (path: string, token: string) => w.request().delete(path).set(bearer(token));
  const save = async (token: string, body: Record<string, unknown>): Promise<Design> => {
    const res = await post('/api/designs', token, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };
  const ids = (l: { list: Design[] }) => l.list.map((d) => d.id);
  const upload = async (bytes: Buffer, name: string, contentType = 'image/png', token = w.tokens.userA) => {
    const grant = await post('/api/users/me/get-upload-url', token, { serverSidePath: `designs/${name}`, contentType });
    const url = new URL(grant.body.data);
    const put = await w.request().put(`${url.pathname}${url.search}`).set('Content-Type', contentType).send(bytes);
    expect(put.status).toBe(200);
    return put.body.data.url as string;
  };

  describe('POST /api/designs (create)', () => {
    it('a new design: "Untitled design", customizable, created by the caller in their site', async () => {
      const res = await post('/api/designs', w.tokens.userA, {});
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      expect(res.body.data).toEqual({
        id: expect.any(Number),
        name: 'Untitled design',
        image: null,
        sku: null,
        isCustomizable: true,
        productPdf: null,
        createdByUserId: w.users.userA,
        productId: null,
        productType: null,
        stock: null,
        hpSKU: null,
        hpAdditionData: { attributes: [], stockItems: [] },
        data: {},
        siteId: w.sites.a,
        createdAt: w.clock.now().toISOString(),
        updatedAt: w.clock.now().toISOString(),
      });
      // GET also carries its site's resolution rule (the editor's live warning).
      expect((await get(`/api/designs/${res.body.data.id}`, w.tokens.userA)).body.data).toEqual({ ...res.body.data, ppiThresholds: { warning: 250, error: 150 } });
    });

    it('every field of the contract is stored and answered', async () => {
      const d = await save(w.tokens.userA, {
        name: '  Winter card ',
        image: '/files/designs/winter.png',
        sku: 'CARD-WINTER',
        isCustomizable: 0,
        productPdf: 'https://cdn.example.com/winter.pdf',
        productId: 12345,
        productType: 'Card',
        hpSKU: 'HP-A5-CARD',
        hpAdditionData: HP,
        data: { artworkUrls: ['/files/a/1.png', '/files/a/2.png', '/files/a/3.png', '/files/a/4.png'], document: { pages: 4 } },
      });
      expect(d).toMatchObject({
        name: 'Winter card',
        image: '/files/designs/winter.png',
        sku: 'CARD-WINTER',
        isCustomizable: false,
        productPdf: 'https://cdn.example.com/winter.pdf',
        productId: '12345',
        productType: 'Card',
        hpSKU: 'HP-A5-CARD',
        hpAdditionData: HP,
        data: { artworkUrls: ['/files/a/1.png', '/files/a/2.png', '/files/a/3.png', '/files/a/4.png'], document: { pages: 4 } },
      });
      const row = await w.db('designs').where({ id: d.id }).first();
      expect(row).toMatchObject({ sku: 'CARD-WINTER', product_type: 'Card', hp_sku: 'HP-A5-CARD', site_id: w.sites.a, created_by_user_id: w.users.userA });
      expect(fromJson(row.hp_addition_data, {})).toEqual(HP);
    });

    it('an optional paper stock (not in the spec payload): trimmed, kept when not sent, cleared by ""', async () => {
      const d = await save(w.tokens.userA, { name: 'Silk card', stock: '  350 gsm silk ' });
      expect(d.stock).toBe('350 gsm silk');
      expect((await w.db('designs').where({ id: d.id }).first()).stock).toBe('350 gsm silk');
      expect((await save(w.tokens.userA, { id: d.id, name: 'Silk card, renamed' })).stock).toBe('350 gsm silk');
      expect((await save(w.tokens.userA, { id: d.id, stock: '' })).stock).toBeNull();
    });

    it("the admin UI's Design Info payload: empty texts are stored as none", async () => {
      const d = await save(w.tokens.userA, { name: 'From the form', isCustomizable: true, sku: '', productPdf: '', productType: null, hpSKU: '', hpAdditionData: { attributes: [], stockItems: [] } });
      expect(d).toMatchObject({ sku: null, productPdf: null, productType: null, hpSKU: null });
      expect((await w.db('designs').where({ id: d.id }).first()).sku).toBeNull();
    });

    it.each([
      [{ productType: 'Sticker' }, 'Product type must be one of Card, Mug, Poster or E-card.'],
      [{ name: '' }, 'Name is required.'],
      [{ name: 'x'.repeat(201) }, 'Name is too long (200 characters at most).'],
      [{ sku: 'x'.repeat(101) }, 'SKU is too long (100 characters at most).'],
      [{ stock: 'x'.repeat(101) }, 'Paper stock is too long (100 characters at most).'],
      [{ productPdf: 'ftp://example.com/x.pdf' }, 'Product PDF must be an http(s) URL or an uploaded /files/… address.'],
      [{ image: 'javascript:alert(1)' }, 'Image must be an http(s) URL or an uploaded /files/… address.'],
      [{ isCustomizable: 'yes' }, 'Customizable must be true or false.'],
      [{ hpAdditionData: { attributes: [{ name: 'Paper', value: 350 }] } }, 'Value of attributes item 1 must be text.'],
      [{ hpAdditionData: { attributes: [{ name: '', value: 'x' }] } }, 'Name of attributes item 1 is required.'],
      [{ hpAdditionData: { stockItems: [{ code: 'A', name: 'B', quantity: -1 }] } }, 'Quantity of stock items item 1 must be 0 or more.'],
      [{ hpAdditionData: { stockItems: [{ code: 'A', name: 'B', quantity: 1.5 }] } }, 'Quantity of stock items item 1 must be a whole number.'],
      [{ hpAdditionData: { stockItems: [{ code: 'A', name: 'B', quantity: '2' }] } }, 'Quantity of stock items item 1 must be a whole number.'],
      [{ hpAdditionData: { stockItems: [{ name: 'B', quantity: 1 }] } }, 'Code of stock items item 1 must be text.'],
      [{ data: { artworkUrls: ['file:///etc/passwd'] } }, 'Artwork URLs item 1 must be an http(s) URL or an uploaded /files/… address.'],
      [{ siteId: 'abc' }, 'Site must be a whole number.'],
    ])('bad input %j → 400 naming the field', async (body, message) => {
      const before = (await w.db('designs')).length;
      const res = await post('/api/designs', w.tokens.userA, body);
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.error).toBe(message);
      expect((await w.db('designs')).length).toBe(before);
    });

    it('a non-admin cannot create a design for another site (403); an admin can', async () => {
      const denied = await post('/api/designs', w.tokens.userA, { name: 'x', siteId: w.sites.b });
      expect(denied.status).toBe(403);
      const d = await save(w.tokens.adminA, { name: 'For B', siteId: w.sites.b });
      expect(d.siteId).toBe(w.sites.b);
      const unknown = await post('/api/designs', w.tokens.adminA, { siteId: 999999 });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error).toBe('Site does not exist.');
    });

    it('a SKU is unique within a site (409); another site may use it; empty SKUs never clash', async () => {
      await save(w.tokens.userA, { name: 'One', sku: 'DUP-1' });
      const clash = await post('/api/designs', w.tokens.userA2, { name: 'Two', sku: 'DUP-1' });
      expect(clash.status).toBe(409);
      expect(clash.body.error).toBe('Another design of this site already uses this SKU.');
      expect((await save(w.tokens.userB, { name: 'On B', sku: 'DUP-1' })).sku).toBe('DUP-1');
      await save(w.tokens.userA, { name: 'No sku 1', sku: '' });
      await save(w.tokens.userA, { name: 'No sku 2' });
    });

    it('without a token → 401', async () => {
      expect((await w.request().post('/api/designs').send({})).status).toBe(401);
      expect((await w.request().get('/api/designs')).status).toBe(401);
    });
  });

  describe('changing a design (POST /api/designs with id)', () => {
    it('the creator changes only the fields sent; data keys not sent are kept; importOriginalData stays as imported', async () => {
      const imported = await post('/api/designs/import-from-json', w.tokens.userA, { json: { name: 'Imported', sku: 'IMP-1', pages: [1, 2] } });
      const d = imported.body.data as Design;
      w.clock.advance(1000);
      const changed = await save(w.tokens.userA, { id: d.id, name: 'Renamed', data: { document: { v: 2 }, importOriginalData: 'tampered' } });
      expect(changed).toMatchObject({ id: d.id, name: 'Renamed', sku: 'IMP-1', isCustomizable: true, createdByUserId: w.users.userA });
      expect(changed.data).toEqual({ importOriginalData: { name: 'Imported', sku: 'IMP-1', pages: [1, 2] }, document: { v: 2 } });
      expect(changed.updatedAt).toBe(w.clock.now().toISOString());
      expect(changed.createdAt).toBe(d.createdAt);
      const cleared = await save(w.tokens.userA, { id: d.id, sku: '' });
      expect(cleared.sku).toBeNull();
    });

    it("another user of the site → 403 \"Only an admin or the design's creator can change this design\"; an admin may", async () => {
      const d = await save(w.tokens.userA, { name: 'Mine', sku: 'MINE-1' });
      const denied = await post('/api/designs', w.tokens.userA2, { id: d.id, name: 'Stolen' });
      expect(denied.status).toBe(403);
      expect(denied.body.error).toBe("Only an admin or the design's creator can change this design");
      expect((await w.db('designs').where({ id: d.id }).first()).name).toBe('Mine');
      const byAdmin = await save(w.tokens.adminA, { id: d.id, name: 'Admin edit' });
      expect(byAdmin).toMatchObject({ name: 'Admin edit', createdByUserId: w.users.userA });
      const otherAdmin = await save(w.tokens.adminB, { id: d.id, productType: 'Mug' });
      expect(otherAdmin.productType).toBe('Mug');
    });

    it("another site's design → 404 for a non-admin; an unknown id → 404", async () => {
      const onB = await save(w.tokens.userB, { name: 'B design' });
      const res = await post('/api/designs', w.tokens.userA, { id: onB.id, name: 'x' });
      expect(res.status).toBe(404);
      expect((await post('/api/designs', w.tokens.userA, { id: 999999, name: 'x' })).status).toBe(404);
    });

    it('a SKU change that clashes → 409; only an admin may move a design to another site', async () => {
      const a1 = await save(w.tokens.userA, { name: 'A1', sku: 'SKU-A1' });
      const a2 = await save(w.tokens.userA, { name: 'A2', sku: 'SKU-A2' });
      const clash = await post('/api/designs', w.tokens.userA, { id: a2.id, sku: 'SKU-A1' });
      expect(clash.status).toBe(409);
      expect((await save(w.tokens.userA, { id: a1.id, sku: 'SKU-A1', name: 'A1 again' })).name).toBe('A1 again');
      const move = await post('/api/designs', w.tokens.userA, { id: a2.id, siteId: w.sites.b });
      expect(move.status).toBe(403);
      expect((await save(w.tokens.adminA, { id: a2.id, siteId: w.sites.b })).siteId).toBe(w.sites.b);
    });
  });

  describe('GET /api/designs and /api/designs/:id', async () => {
    const world = await createWorld();
    const req = (path: string, token: string) => world.request().get(path).set(bearer(token));
    const make = async (token: string, name: string) => (await world.request().post('/api/designs').set(bearer(token)).send({ name })).body.data as Design;

    it('a non-admin lists only their own designs (whatever createdByUserId says); an admin all, or one creator\'s; newest first', async () => {
      const mine: Design[] = [];
      for (let i = 0; i < 22; i++) {
        world.clock.advance(1000);
        mine.push(await make(world.tokens.userA, `A ${i}`));
      }
      const theirs = await make(world.tokens.userA2, 'A2 design');
      const onB = await make(world.tokens.userB, 'B design');
      const page1 = (await req('/api/designs', world.tokens.userA)).body.data;
      expect(page1.total).toBe(22);
      expect(page1.hasNext).toBe(true);
      expect(ids(page1)).toEqual([...mine].reverse().slice(0, 20).map((d) => d.id));
      const page2 = (await req('/api/designs?page=2', world.tokens.userA)).body.data;
      expect(ids(page2)).toEqual([...mine].reverse().slice(20).map((d) => d.id));
      expect(page2.hasNext).toBe(false);
      const sneaky = (await req(`/api/designs?createdByUserId=${world.users.userA2}`, world.tokens.userA)).body.data;
      expect(sneaky.total).toBe(22);
      expect(ids((await req('/api/designs', world.tokens.userA2)).body.data)).toEqual([theirs.id]);

      const all = (await req('/api/designs?pageSize=100', world.tokens.adminA)).body.data;
      expect(all.total).toBe(24);
      expect(ids(all)).toContain(onB.id);
      const byA2 = (await req(`/api/designs?createdByUserId=${world.users.userA2}`, world.tokens.adminA)).body.data;
      expect(ids(byA2)).toEqual([theirs.id]);
    });

    it('by id: a design of the same site is readable; another site\'s → 404 (admin: any)', async () => {
      const [theirs] = (await req('/api/designs', world.tokens.userA2)).body.data.list as Design[];
      expect((await req(`/api/designs/${theirs.id}`, world.tokens.userA)).status).toBe(200);
      const [onB] = (await req('/api/designs', world.tokens.userB)).body.data.list as Design[];
      const foreign = await req(`/api/designs/${onB.id}`, world.tokens.userA);
      expect(foreign.status).toBe(404);
      expect(foreign.body.data).toBeUndefined();
      expect((await req(`/api/designs/${onB.id}`, world.tokens.adminA)).status).toBe(200);
      expect((await req('/api/designs/999999', world.tokens.adminA)).status).toBe(404);
      expect((await req('/api/designs/abc', world.tokens.adminA)).status).toBe(404);
    });

    it.each(['?page=0', '?page=x', '?pageSize=500', '?createdByUserId=abc'])('%s → 400 naming the parameter', async (query) => {
      const res = await req(`/api/designs${query}`, world.tokens.adminA);
      expect(res.status).toBe(400);
      expect(['page', 'pageSize', 'createdByUserId']).toContain(res.body.field);
    });
  });

  describe('DELETE /api/designs/:id', () => {
    it('only an admin or the creator; refused (409) while an unprinted job uses it; then allowed, the printed job keeps its data', async () => {
      const d = await save(w.tokens.userA, { name: 'In use', data: { artworkUrls: ['/files/a/1.png', '/files/a/2.png', '/files/a/3.png', '/files/a/4.png'] } });
      const denied = await del(`/api/designs/${d.id}`, w.tokens.userA2);
      expect(denied.status).toBe(403);
      expect(denied.body.error).toBe("Only an admin or the design's creator can delete this design");
      expect((await del(`/api/designs/${d.id}`, w.tokens.userB)).status).toBe(404);

      const job = (await post('/api/print-jobs', w.tokens.userA, { designId: d.id })).body.data;
      expect(job).toMatchObject({ designId: d.id, productName: 'In use', artworkUrls: d.data.artworkUrls, readyForPrint: true });
      const busy = await del(`/api/designs/${d.id}`, w.tokens.userA);
      expect(busy.status).toBe(409);
      expect(busy.body.error).toBe('This design is used by 1 print job that is not printed yet');
      expect(await w.db('designs').where({ id: d.id }).first()).toBeTruthy();

      await post('/api/print-jobs', w.tokens.userA, { id: job.id, isPDFDownloaded: true });
      await post('/api/print-jobs', w.tokens.userA, { id: job.id, isPrinted: true });
      const gone = await del(`/api/designs/${d.id}`, w.tokens.userA);
      expect(gone.status).toBe(200);
      expect(gone.body.data).toMatchObject({ id: d.id, name: 'In use' });
      expect(await w.db('designs').where({ id: d.id }).first()).toBeUndefined();
      expect((await get(`/api/print-jobs/${job.id}`, w.tokens.userA)).body.data).toMatchObject({ designId: null, productName: 'In use', isPrinted: true });
    });

    it('an admin may delete anyone\'s design', async () => {
      const d = await save(w.tokens.userB, { name: 'B old' });
      expect((await del(`/api/designs/${d.id}`, w.tokens.adminA)).status).toBe(200);
      expect((await get(`/api/designs/${d.id}`, w.tokens.adminA)).status).toBe(404);
    });
  });

  describe('POST /api/designs/import-from-json', () => {
    it('keeps the JSON whole in data.importOriginalData; takes name and SKU from it', async () => {
      const json = { name: 'Imported card', sku: 4242, width: 1748, height: 2480, pages: [{ id: 'p1', children: [] }] };
      const res = await post('/api/designs/import-from-json', w.tokens.userA, { json });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ name: 'Imported card', sku: '4242', isCustomizable: true, createdByUserId: w.users.userA, data: { importOriginalData: json } });
    });

    it('JSON given as text works; without name or SKU → "Untitled design" and no SKU', async () => {
      const res = await post('/api/designs/import-from-json', w.tokens.userA, { json: JSON.stringify({ pages: [] }) });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ name: 'Untitled design', sku: null, data: { importOriginalData: { pages: [] } } });
    });

    it.each([
      [{}, 'Design JSON must be a JSON object.'],
      [{ json: '{not json' }, 'Design JSON must be a JSON object.'],
      [{ json: [1, 2] }, 'Design JSON must be a JSON object.'],
      [{ json: { sku: 'x'.repeat(101) } }, 'SKU must be at most 100 characters.'],
    ])('%j → 400', async (body, message) => {
      const res = await post('/api/designs/import-from-json', w.tokens.userA, body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(message);
    });

    it('an imported SKU already used in the site → 409', async () => {
      await save(w.tokens.userA, { name: 'Has sku', sku: 'IMPORT-DUP' });
      const res = await post('/api/designs/import-from-json', w.tokens.userA, { json: { sku: 'IMPORT-DUP' } });
      expect(res.status).toBe(409);
    });
  });

  describe('POST /api/designs/create-with-front-image', () => {
    it('front page = the image; the 3 other pages are a stored blank white A5 PNG at 300 dpi; a job from it prints', async () => {
      const front = await sharp({ create: { width: 60, height: 84, channels: 3, background: '#e91e63' } }).png().toBuffer();
      const url = await upload(front, 'front.png');
      const res = await post('/api/designs/create-with-front-image', w.tokens.userA, { imageUrl: url, name: 'Pink card', sku: 'PINK-1', productType: 'Card' });
      expect(res.status).toBe(200);
      const d = res.body.data as Design;
      expect(d).toMatchObject({ name: 'Pink card', sku: 'PINK-1', productType: 'Card', image: url, isCustomizable: true, createdByUserId: w.users.userA });
      const pages = d.data.artworkUrls!;
      expect(pages).toHaveLength(4);
      expect(pages[0]).toBe(url);
      expect(pages[1]).toMatch(/^\/files\/\d+\/designs\/\d+-[0-9a-f]{24}-blank-a5\.png$/);
      expect(pages[2]).toBe(pages[1]);
      expect(pages[3]).toBe(pages[1]);
      const blank = await w.request().get(pages[1]).buffer(true).parse(binary);
      expect(blank.status).toBe(200);
      expect(blank.headers['content-type']).toBe('image/png');
      const meta = await sharp(blank.body as Buffer).metadata();
      expect(meta).toMatchObject({ format: 'png', width: 1748, height: 2480, density: 300 });
      const stats = await sharp(blank.body as Buffer).stats();
      expect(stats.channels.slice(0, 3).every((c) => c.min === 255 && c.max === 255)).toBe(true);
      expect(await w.db('uploads').where({ key: pages[1].slice('/files/'.length) }).first()).toMatchObject({ content_type: 'image/png', user_id: w.users.userA, site_id: w.sites.a });

      const job = (await post('/api/print-jobs', w.tokens.userA, { designId: d.id, quantity: 3 })).body.data;
      expect(job).toMatchObject({ artworkUrls: pages, previewUrl: url, productName: 'Pink card', quantity: 3 });
      const pdf = await w.request().post('/api/pdf/from-print-job').set(bearer(w.tokens.userA)).send({ id: job.id }).buffer(true).parse(binary);
      expect(pdf.status).toBe(200);
      expect((await PDFDocument.load(pdf.body as Buffer)).getPageCount()).toBe(4);
    });

    it('an E-card is its front alone (no blank print pages), and no print job is made of it', async () => {
      const front = await sharp({ create: { width: 74, height: 52, channels: 3, background: '#0f2a4a' } }).png().toBuffer();
      const url = await upload(front, 'ecard.png');
      const res = await post('/api/designs/create-with-front-image', w.tokens.userA, { imageUrl: url, name: 'Snow e-card', sku: 'SNOW-ECARD', productType: 'E-card' });
      expect(res.status).toBe(200);
      const d = res.body.data as Design;
      expect(d).toMatchObject({ productType: 'E-card', image: url, data: { artworkUrls: [url] } });
      const job = await post('/api/print-jobs', w.tokens.userA, { designId: d.id, quantity: 1 });
      expect(job.status).toBe(400);
      expect(job.body.field).toBe('designId');
    });

    it('defaults: "Untitled design"; a JPEG front works', async () => {
      const jpeg = await sharp({ create: { width: 40, height: 56, channels: 3, background: '#1e88e5' } }).jpeg().toBuffer();
      const url = await upload(jpeg, 'front.jpg', 'image/jpeg');
      const res = await post('/api/designs/create-with-front-image', w.tokens.userA, { imageUrl: url });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ name: 'Untitled design', productType: null, sku: null });
    });

    it('the image must be a real PNG or JPEG from our storage or an allowed host → else 400 naming imageUrl', async () => {
      const csv = await upload(Buffer.from('a,b\n'), 'list.csv', 'text/csv');
      const notImage = await post('/api/designs/create-with-front-image', w.tokens.userA, { imageUrl: csv });
      expect(notImage.status).toBe(400);
      expect(notImage.body.error).toBe('Image URL must be a PNG or JPEG image.');
      const gif = await upload(Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'), 'x.gif', 'image/gif');
      expect((await post('/api/designs/create-with-front-image', w.tokens.userA, { imageUrl: gif })).body.error).toBe('Image URL must be a PNG or JPEG image.');
      const internal = await post('/api/designs/create-with-front-image', w.tokens.userA, { imageUrl: 'http://127.0.0.1:1/secret.png' });
      expect(internal.status).toBe(400);
      expect(internal.body).toMatchObject({ field: 'imageUrl', error: expect.stringMatching(/^Artwork URL is not allowed/) });
      const missing = await post('/api/designs/create-with-front-image', w.tokens.userA, { imageUrl: '/files/designs/nothing.png' });
      expect(missing.status).toBe(400);
      expect(missing.body.error).toMatch(/^Image URL\b/);
      const none = await post('/api/designs/create-with-front-image', w.tokens.userA, {});
      expect(none.status).toBe(400);
      expect(none.body.error).toMatch(/^Image URL\b/);
      const badType = await post('/api/designs/create-with-front-image', w.tokens.userA, { imageUrl: csv, productType: 'Hat' });
      expect(badType.body.error).toBe('Product type must be one of Card, Mug, Poster or E-card.');
    });
  });

  describe('GET /api/designs/all-with-product-type', async () => {
    const world = await createWorld();
    const make = (token: string, body: Record<string, unknown>) => world.request().post('/api/designs').set(bearer(token)).send(body);

    it('data.data: [{sku, productType}] of designs with a SKU; a non-admin gets their site\'s (anyone\'s), an admin every site\'s', async () => {
      await make(world.tokens.userA, { name: 'a', sku: 'A-CARD', productType: 'Card' });
      await make(world.tokens.userA2, { name: 'b', sku: 'A-MUG', productType: 'Mug' });
      await make(world.tokens.userA, { name: 'c', sku: 'A-NONE' });
      await make(world.tokens.userA, { name: 'no sku', productType: 'Poster' });
      await make(world.tokens.userB, { name: 'd', sku: 'B-POSTER', productType: 'Poster' });
      const res = await world.request().get('/api/designs/all-with-product-type').set(bearer(world.tokens.userA));
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        data: [
          { sku: 'A-CARD', productType: 'Card' },
          { sku: 'A-MUG', productType: 'Mug' },
          { sku: 'A-NONE', productType: null },
        ],
      });
      const admin = await world.request().get('/api/designs/all-with-product-type').set(bearer(world.tokens.adminB));
      expect(admin.body.data.data.map((r: { sku: string }) => r.sku)).toEqual(['A-CARD', 'A-MUG', 'A-NONE', 'B-POSTER']);
      expect((await world.request().get('/api/designs/all-with-product-type')).status).toBe(401);
    });
  });

  describe('admin REST /api/admin/designs', () => {
    const q = (params: Record<string, unknown>) =>
      Object.entries(params)
        .map(([k, v]) => `${k}=${encodeURIComponent(JSON.stringify(v))}`)
        .join('&');

    it('list with q (name or SKU), createdByUserId and Content-Range; a non-admin only their own', async () => {
      const d1 = await save(w.tokens.userA2, { name: 'Searchable Zebra', sku: 'ZEB-1' });
      const d2 = await save(w.tokens.userA2, { name: 'Other', sku: 'zebra-2' });
      const res = await get(`/api/admin/designs?${q({ filter: { q: 'zebra' }, sort: ['id', 'ASC'], range: [0, 9] })}`, w.tokens.adminA);
      expect(res.status).toBe(200);
      expect(res.body.map((d: Design) => d.id)).toEqual([d1.id, d2.id]);
      expect(res.headers['content-range']).toBe('designs 0-1/2');
      const byCreator = await get(`/api/admin/designs?${q({ filter: { createdByUserId: w.users.userA2 }, range: [0, 99] })}`, w.tokens.adminA);
      expect(byCreator.body.every((d: Design) => d.createdByUserId === w.users.userA2)).toBe(true);
      const asUser = await get(`/api/admin/designs?${q({ filter: { q: 'zebra' } })}`, w.tokens.userA);
      expect(asUser.body).toEqual([]);
      const bad = await get(`/api/admin/designs?${q({ filter: { productType: 'Hat' } })}`, w.tokens.adminA);
      expect(bad.status).toBe(400);
      expect(bad.body.field).toBe('filter.productType');
    });

    it('create, update (same admin-or-creator rule), delete', async () => {
      const created = await post('/api/admin/designs', w.tokens.userA, { name: 'REST design' });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ name: 'REST design', createdByUserId: w.users.userA });
      const id = created.body.id;
      const denied = await w.request().put(`/api/admin/designs/${id}`).set(bearer(w.tokens.userA2)).send({ name: 'x' });
      expect(denied.status).toBe(403);
      const ok = await w.request().put(`/api/admin/designs/${id}`).set(bearer(w.tokens.userA)).send({ name: 'REST renamed' });
      expect(ok.body).toMatchObject({ id, name: 'REST renamed' });
      expect((await w.request().delete(`/api/admin/designs/${id}`).set(bearer(w.tokens.userA))).status).toBe(200);
    });
  });
});
