// Ship-by dates on the views: jobs (queue, one job, admin REST), List Orders and Check order lines,
// at the server's (fake) clock, with each site's own settings.
import { describe, expect, it } from 'vitest';
import { orderTablesRepo } from '../src/modules/orders/tablesRepo';
import { bearer, createWorld } from './harness';
import { makeDesign, setSiteEnv } from './ordersKit';

interface Line {
  id: string;
  sku: string;
  shipBy?: string | null;
  due?: string;
}
interface OrderView {
  field1: string;
  siteId: number;
  data: { line_items: Line[] };
}
interface JobView {
  id: number;
  shipBy: string | null;
  due: string;
  lineItemId: string | null;
}

const ART = ['/files/art/p1.png', '/files/art/p2.png', '/files/art/p3.png', '/files/art/p4.png'];
// March 2026: Friday 6, the weekend, Monday 9, Tuesday 10. London is on GMT (= UTC) until the 29th.
const FRIDAY_AFTER_CUTOFF = '2026-03-06T15:30:00.000Z';
const MONDAY_CUTOFF = '2026-03-09T14:00:00.000Z';
const TUESDAY_CUTOFF = '2026-03-10T14:00:00.000Z';

describe('ship-by dates on jobs and order lines', async () => {
  const w = await createWorld({ SYNC_TIMEZONE: 'Europe/London' });
  const post = (path: string, body: unknown, token = w.tokens.userA) => w.request().post(path).set(bearer(token)).send(body as object);
  const get = (path: string, token = w.tokens.userA) => w.request().get(path).set(bearer(token));
  const at = (iso: string) => w.clock.set(new Date(iso));

  // Site A: cards 2 working days (the default), mugs 1. Site B: cards 5.
  await setSiteEnv(w, w.sites.a, { SHIP_BY_DAYS_MUG: '1' });
  await setSiteEnv(w, w.sites.b, { SHIP_BY_DAYS_CARD: '5' });
  const card = await makeDesign(w, w.tokens.adminA, { name: 'Robin card', sku: 'SB-CARD', productType: 'Card' });
  await makeDesign(w, w.tokens.adminA, { name: 'Robin mug', sku: 'SB-MUG', productType: 'Mug' });
  await makeDesign(w, w.tokens.adminA, { name: 'Greetings e-card', sku: 'SB-ECARD', productType: 'E-card' });
  await makeDesign(w, w.tokens.adminB, { name: 'Site B card', sku: 'SB-CARD', productType: 'Card' });
  const order = (siteId: number, orderId: string, name: string) => ({
    siteId,
    orderId,
    name,
    status: 'received',
    searchText: name,
    data: {
      id: orderId,
      name,
      created_at: FRIDAY_AFTER_CUTOFF,
      line_items: [
        { id: `${orderId}-1`, sku: 'SB-CARD', quantity: 1 },
        { id: `${orderId}-2`, sku: 'SB-MUG', quantity: 1 },
        { id: `${orderId}-3`, sku: 'SB-ECARD', quantity: 1 },
      ],
    },
    createdAt: FRIDAY_AFTER_CUTOFF,
    updatedAt: FRIDAY_AFTER_CUTOFF,
  });
  // The same store order id in both sites: each is judged by its own site's settings.
  await orderTablesRepo(w.db).insertOrders([order(w.sites.a, '7001', '#7001'), order(w.sites.b, '7001', '#B-7001')]);
  // Made Monday after the cut-off: counted from the order (Friday), not from now, it ships Tuesday.
  at('2026-03-09T15:00:00.000Z');
  const cardJob = (await post('/api/print-jobs', { productName: 'Robin card', designId: card.id, artworkUrls: ART, shopifyOrderId: '7001', lineItemId: '7001-1' })).body.data as JobView;
  at('2026-03-09T08:00:00.000Z');
  const byHand = (await post('/api/print-jobs', { productName: 'Hand card', designId: card.id, artworkUrls: ART })).body.data as JobView;

  const jobIn = async (id: number, query = '?pageSize=100') => ((await get(`/api/print-jobs${query}`)).body.data.list as JobView[]).find((j) => j.id === id)!;
  const listedLines = async (token = w.tokens.userA) => {
    const res = await get('/api/general-data/shopify-order-log?name=order-log&page=1', token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.data.data as OrderView[]).find((o) => o.field1 === '7001')!.data.line_items;
  };
  const checkedLines = async () => {
    const res = await post('/api/online-stores/check-order', { id: '7001' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.data as Array<OrderView & { type: string }>).find((r) => r.type === 'shopify-order-log')!.data.line_items;
  };

  it('Friday after the cut-off counts from Monday: a card (2 days) ships by Tuesday 14:00, a mug (1 day) Monday 14:00, an e-card never', async () => {
    at('2026-03-09T08:00:00.000Z');
    const lines = await listedLines();
    expect(lines.map((l) => [l.id, l.shipBy, l.due])).toEqual([
      ['7001-1', TUESDAY_CUTOFF, 'ok'],
      ['7001-2', MONDAY_CUTOFF, 'today'],
      ['7001-3', null, 'ok'],
    ]);
    expect((await checkedLines()).map((l) => [l.shipBy, l.due])).toEqual(lines.map((l) => [l.shipBy, l.due]));
    expect(await jobIn(cardJob.id)).toMatchObject({ shipBy: TUESDAY_CUTOFF, due: 'ok' });
    expect((await get(`/api/print-jobs/${cardJob.id}`)).body.data).toMatchObject({ shipBy: TUESDAY_CUTOFF, due: 'ok' });
    const admin = await w.request().get(`/api/admin/print-jobs?filter=${encodeURIComponent(JSON.stringify({ id: [cardJob.id] }))}`).set(bearer(w.tokens.userA));
    expect(admin.body).toEqual([expect.objectContaining({ id: cardJob.id, shipBy: TUESDAY_CUTOFF, due: 'ok' })]);
  });

  it('a job made by hand counts from when it was made (Monday 08:00: Tuesday 14:00)', async () => {
    at('2026-03-09T09:00:00.000Z');
    expect(await jobIn(byHand.id)).toMatchObject({ shipBy: TUESDAY_CUTOFF, due: 'ok' });
  });

  it('within the at-risk hours and not printed: at risk; printed: only due today; past the ship-by: late', async () => {
    at('2026-03-09T10:30:00.000Z');
    expect((await listedLines())[1]).toMatchObject({ due: 'atRisk' });
    at('2026-03-10T11:00:00.000Z');
    expect(await jobIn(cardJob.id)).toMatchObject({ due: 'atRisk' });
    await w.db('print_jobs').where({ id: cardJob.id }).update({ held: false });
    expect((await post('/api/print-jobs', { id: cardJob.id, isPDFDownloaded: true })).status).toBe(200);
    expect((await post('/api/print-jobs', { id: cardJob.id, isPrinted: true })).status).toBe(200);
    expect(await jobIn(cardJob.id, '?isPrinted=1')).toMatchObject({ shipBy: TUESDAY_CUTOFF, due: 'today' });
    expect((await listedLines())[0]).toMatchObject({ due: 'today' });
    at('2026-03-10T14:01:00.000Z');
    expect(await jobIn(cardJob.id, '?isPrinted=1')).toMatchObject({ due: 'late' });
    expect((await listedLines()).map((l) => l.due)).toEqual(['late', 'late', 'ok']);
  });

  it('a reprint keeps the ship-by of its order', async () => {
    const reprinted = await post('/api/print-jobs', { id: cardJob.id, isPDFDownloaded: false, isPrinted: false, isRePrinted: true, reprintReason: 'printDefect', reprintResponsible: 'shop' });
    expect(reprinted.status, JSON.stringify(reprinted.body)).toBe(200);
    at('2026-03-12T09:00:00.000Z');
    expect(await jobIn(cardJob.id, '?isPrinted=0')).toMatchObject({ shipBy: TUESDAY_CUTOFF, due: 'late' });
  });

  it("another site's settings never apply: site B's card takes its 5 working days", async () => {
    at('2026-03-09T08:00:00.000Z');
    const res = await get('/api/general-data/shopify-order-log?name=order-log&page=1', w.tokens.userB);
    const lines = (res.body.data.data as OrderView[]).find((o) => o.field1 === '7001')!.data.line_items;
    expect(lines[0]).toMatchObject({ shipBy: '2026-03-13T14:00:00.000Z', due: 'ok' });
    // Its mug SKU has no design in site B: the other-products days (2).
    expect(lines[1]).toMatchObject({ shipBy: TUESDAY_CUTOFF });
    // An admin listing every site sees each order with its own site's dates.
    const all = await get('/api/general-data/shopify-order-log?name=order-log&page=1&allClients=1', w.tokens.adminA);
    const bySite = new Map((all.body.data.data as OrderView[]).filter((o) => o.field1 === '7001').map((o) => [o.siteId, o.data.line_items[0].shipBy]));
    expect(bySite).toEqual(new Map([[w.sites.a, TUESDAY_CUTOFF], [w.sites.b, '2026-03-13T14:00:00.000Z']]));
  });

  it('shipped is never late; the ship-by stays', async () => {
    at('2026-03-12T09:00:00.000Z');
    await w.db('store_orders').where({ site_id: w.sites.a, store_order_id: '7001' }).update({ status: 'shipped' });
    expect((await listedLines()).map((l) => [l.shipBy, l.due])).toEqual([[TUESDAY_CUTOFF, 'ok'], [MONDAY_CUTOFF, 'ok'], [null, 'ok']]);
    expect(await jobIn(cardJob.id)).toMatchObject({ shipBy: TUESDAY_CUTOFF, due: 'ok' });
  });

  it('a site save with unusable ship-by settings is refused with the sentence', async () => {
    const site = (await get(`/api/sites/${w.sites.a}`, w.tokens.adminA)).body.data;
    const env = [...site.settings.env, { key: 'SHIP_BY_CUTOFF', value: '2pm' }];
    const refused = await post('/api/sites', { ...site, settings: { ...site.settings, env } }, w.tokens.adminA);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toContain('SHIP_BY_CUTOFF: "2pm" is not a time of day HH:MM (24-hour, e.g. 14:00).');
  });
});
