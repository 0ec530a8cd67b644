// What the Batches screens read: the press sheets a site imposes on (Create batch's choice), a
// batch's items (product and size) and site name, and its jobs with their place in their order.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DEFAULT_IMPOSE_SETTINGS } from '../src/modules/batches/sheets';
import { orderTablesRepo } from '../src/modules/orders/tablesRepo';
import { bearer, createWorld } from './harness';

describe('batches: what the screens read', async () => {
  const w = await createWorld({ PUBLIC_URL: 'http://presswork.test' });
  const post = (path: string, body: unknown, token = w.tokens.userA) => w.request().post(path).set(bearer(token)).send(body as object);
  const get = (path: string, token = w.tokens.userA) => w.request().get(path).set(bearer(token));

  const upload = async (colour: string, name: string) => {
    const bytes = await sharp({ create: { width: 1819, height: 2551, channels: 3, background: colour } }).png().toBuffer();
    const grant = await post('/api/users/me/get-upload-url', { serverSidePath: `artwork/${name}`, contentType: 'image/png' });
    const url = new URL(grant.body.data);
    const put = await w.request().put(`${url.pathname}${url.search}`).set('Content-Type', 'image/png').send(bytes);
    expect(put.status).toBe(200);
    return put.body.data.url as string;
  };
  const pages: string[] = [];
  for (const [i, colour] of ['#ff0000', '#00ff00', '#0000ff', '#ffff00'].entries()) pages.push(await upload(colour, `screens-page-${i + 1}.png`));

  await orderTablesRepo(w.db).insertOrders([
    {
      siteId: w.sites.a,
      orderId: '7001',
      name: '#2001',
      status: 'received',
      searchText: '#2001',
      data: { id: '7001', name: '#2001', created_at: '2026-11-20T10:00:00.000Z', line_items: ['a', 'b', 'c'].map((l) => ({ id: `7001-${l}`, sku: 'X', quantity: 1 })) },
      createdAt: '2026-11-20T10:00:00.000Z',
      updatedAt: '2026-11-20T10:00:00.000Z',
    },
  ]);

  const job = async (body: Record<string, unknown> = {}, token = w.tokens.userA): Promise<{ id: number }> => {
    const res = await post('/api/print-jobs', { productName: 'Robin card', artworkUrls: pages, ...body }, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };

  it("answers the press sheets of the caller's site with their gaps and duplex turn, as batches are imposed", async () => {
    const expected = {
      sheets: DEFAULT_IMPOSE_SETTINGS.sheets.map((s) => ({ name: s.name, widthMm: s.widthMm, heightMm: s.heightMm, marginMm: s.marginMm })),
      gapMm: DEFAULT_IMPOSE_SETTINGS.gapMm,
      slugMm: DEFAULT_IMPOSE_SETTINGS.slugMm,
      duplex: DEFAULT_IMPOSE_SETTINGS.duplex,
    };
    const res = await get('/api/batches/sheets');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual(expected);
    expect(res.body.data.sheets.map((s: { name: string }) => s.name)).toEqual(['SRA3', 'SRA4', 'A4', 'A3']);
    // An admin may ask for one site's; staff only for their own.
    expect((await get(`/api/batches/sheets?clientId=${w.sites.b}`, w.tokens.adminA)).body.data).toEqual(expected);
    expect((await get(`/api/batches/sheets?clientId=${w.sites.b}`)).status).toBe(404);
    const bad = await get('/api/batches/sheets?clientId=abc');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Client must be a whole number.');
    expect((await w.request().get('/api/batches/sheets')).status).toBe(401);
    // A sheet it names is one a batch can be made on.
    const made = await post('/api/batches', { jobIds: [(await job()).id], sheet: 'A4' });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.data.sheet).toBe('A4');
  });

  it("reads and lists a batch with its items' product and size and its site's name", async () => {
    const made = await post('/api/batches', { jobIds: [(await job()).id, (await job()).id] });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const item = { productType: 'Card', trimWidthMm: 148, trimHeightMm: 210, bleedMm: 3 };
    expect(made.body.data).toMatchObject({ item, siteName: 'Site A' });
    expect((await get(`/api/batches/${made.body.data.id}`)).body.data).toMatchObject({ item, siteName: 'Site A', sheet: 'SRA3' });
    const listed = (await get('/api/batches?state=open')).body.data.list.find((b: { id: number }) => b.id === made.body.data.id);
    expect(listed).toMatchObject({ item, siteName: 'Site A' });
    const moved = await post(`/api/batches/${made.body.data.id}/state`, { state: 'printed' });
    expect(moved.body.data).toMatchObject({ state: 'printed', item, siteName: 'Site A' });
  });

  it('lists the jobs of a batch in imposed order with their place in their order; another site gets 404', async () => {
    const c = await job({ shopifyOrderId: '7001', lineItemId: '7001-c', productName: 'Wren card' });
    const a = await job({ shopifyOrderId: '7001', lineItemId: '7001-a' });
    const b = await job({ shopifyOrderId: '7001', lineItemId: '7001-b' });
    const loose = await job();
    const batch = (await post('/api/batches', { jobIds: [c.id, loose.id, a.id] })).body.data;
    const res = await get(`/api/batches/${batch.id}/jobs`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.map((e: { jobId: number }) => e.jobId)).toEqual([c.id, loose.id, a.id]);
    expect(res.body.data[0]).toMatchObject({ jobId: c.id, itemNumber: 3, itemCount: 3, job: { id: c.id, productName: 'Wren card', orderName: '#2001', isPrinted: false } });
    expect(res.body.data[1]).toMatchObject({ jobId: loose.id, itemNumber: null, itemCount: null, job: { id: loose.id, orderName: null } });
    expect(res.body.data[2]).toMatchObject({ jobId: a.id, itemNumber: 1, itemCount: 3 });
    expect(b.id).toBeGreaterThan(a.id);

    expect((await get(`/api/batches/${batch.id}/jobs`, w.tokens.userB)).status).toBe(404);
    expect((await get(`/api/batches/${batch.id}/jobs`, w.tokens.adminB)).status).toBe(200);
    expect((await get('/api/batches/999999/jobs')).status).toBe(404);
  });
});
