// Stock of blanks: items of a site or shared, Receive and Count with their movements (CSV too),
// and a job's reservation across its life: reserved when it goes in house, used when printed, a
// reprint's use recorded as waste with its reason, freed when the line is withdrawn, cancelled or
// moved to HP Site Flow. A line the stock cannot cover waits, held, until stock is received.
import { describe, expect, it } from 'vitest';
import type { StockItem, StockMovement } from '../../common/api/stock';
import { stockNeeded } from '../../common/api/stock';
import { bearer } from './harness';
import { createHpWorld } from './fulfilmentWorld';
import { connectStores, deliver, makeDesign, order } from './ordersKit';

describe('stock of blanks', async () => {
  const w = await createHpWorld();
  await connectStores(w);
  const post = (path: string, body: unknown, token = w.tokens.userA) => w.request().post(path).set(bearer(token)).send(body as object);
  const get = (path: string, token = w.tokens.userA) => w.request().get(path).set(bearer(token));
  const makeItem = async (body: Record<string, unknown>, token = w.tokens.userA) => {
    const res = await post('/api/stock-items', body, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as StockItem;
  };
  const item = async (id: number) => (await get(`/api/stock-items/${id}`)).body.data as StockItem;
  const movements = async (id: number) => ((await get(`/api/stock-items/${id}/movements`)).body.data.list as StockMovement[]).reverse();
  const job = async (id: number) => (await get(`/api/print-jobs/${id}`)).body.data as { id: number; held: boolean; stockHold: string | null; withdrawn: { reason: string } | null };
  const printIt = async (id: number) => {
    expect((await post('/api/print-jobs', { id, isPDFDownloaded: true })).status).toBe(200);
    const res = await post('/api/print-jobs', { id, isPrinted: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };

  it('rounds a fraction per unit up to whole units a job', () => {
    expect(stockNeeded(0.5, 3)).toBe(2);
    expect(stockNeeded(0.5, 2)).toBe(1);
    expect(stockNeeded(1.1, 10)).toBe(11);
    expect(stockNeeded(1, 0)).toBe(0);
  });

  it('staff see their site\'s items and the shared ones; only admins make or change shared ones', async () => {
    const shared = await makeItem({ name: 'Poster tubes', unit: 'tubes', onHand: 40 }, w.tokens.adminA);
    expect(shared).toMatchObject({ siteId: null, onHand: 40, reserved: 0, available: 40 });
    const mine = await makeItem({ name: 'Envelopes A5', unit: 'envelopes', onHand: 100, reorderPoint: 20, reorderQuantity: 500, supplierNote: 'Paperco, 3 days' });
    expect(mine).toMatchObject({ siteId: w.sites.a, name: 'Envelopes A5', onHand: 100, available: 100, reorderPoint: 20, reorderQuantity: 500, supplierNote: 'Paperco, 3 days' });
    const theirs = await makeItem({ name: 'B envelopes', unit: 'envelopes' }, w.tokens.userB);

    const listed = (await get('/api/stock-items?pageSize=500')).body.data.list as StockItem[];
    expect(listed.map((i) => i.id)).toEqual(expect.arrayContaining([shared.id, mine.id]));
    expect(listed.map((i) => i.id)).not.toContain(theirs.id);
    expect((await get(`/api/stock-items/${theirs.id}`)).status).toBe(404);
    expect((await post(`/api/stock-items/${shared.id}/receive`, { quantity: 5 })).status).toBe(403);
    expect((await post('/api/stock-items', { name: 'Shared by staff', unit: 'x', siteId: null })).status).toBe(403);
    const bad = await post(`/api/stock-items/${mine.id}/receive`, { quantity: 0 });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/Quantity must be at least 1/i);
    expect((await post('/api/stock-items', { id: mine.id, onHand: 5 })).body.error).toMatch(/Receive or Count/);
  });

  it('Receive adds with its note, Count sets on hand and records the difference; the CSV has every movement with its kind', async () => {
    const it = await makeItem({ name: 'Card blanks A5', unit: 'cards', onHand: 10 });
    expect((await post(`/api/stock-items/${it.id}/receive`, { quantity: 50, note: 'Delivery 4411, "Paperco", boxed' })).body.data).toMatchObject({ onHand: 60, available: 60 });
    expect((await post(`/api/stock-items/${it.id}/count`, { quantity: 57, note: 'stock-take: 3 creased' })).body.data).toMatchObject({ onHand: 57 });
    expect((await movements(it.id)).map((m) => [m.kind, m.quantity, m.onHandAfter, m.note, m.byName])).toEqual([
      ['count', 10, 10, 'opening count', 'user-a Tester'],
      ['receive', 50, 60, 'Delivery 4411, "Paperco", boxed', 'user-a Tester'],
      ['count', -3, 57, 'stock-take: 3 creased', 'user-a Tester'],
    ]);
    const csv = await get(`/api/stock-items/${it.id}/movements?format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.text.trim().split('\n');
    expect(lines[0]).toBe('at,kind,quantity,onHandAfter,reservedAfter,jobId,by,note');
    expect(lines[1]).toMatch(/,count,-3,57,0,,user-a Tester,stock-take: 3 creased$/);
    expect(lines[2]).toMatch(/,receive,50,60,0,,user-a Tester,"Delivery 4411, ""Paperco"", boxed"$/);
  });

  describe("a line's life", async () => {
    const mugs = await makeItem({ name: 'Mugs', unit: 'mugs', onHand: 5, reorderPoint: 2 });
    const sheets = await makeItem({ name: 'Sublimation sheets', unit: 'sheets', onHand: 100 }, w.tokens.adminA);
    await makeDesign(w, w.tokens.adminA, {
      name: 'Stock mug',
      sku: 'STOCK-MUG',
      hpSKU: 'HP-MUG',
      productPdf: '/files/test/design.pdf',
      siteId: w.sites.a,
      data: { consumes: [{ stockItemId: mugs.id, perUnit: 1 }, { stockItemId: sheets.id, perUnit: 0.5 }] },
    });
    const inHouse = async (units: number) => {
      const o = order({ skus: ['STOCK-MUG'] });
      Object.assign(o.line_items[0], { quantity: units });
      expect((await deliver(w, o)).status).toBe(200);
      const made = await post('/api/online-stores/shopify-webhook/order-to-arwork', { id: o.id });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      return { o, jobId: (made.body.data.jobs as Array<{ id: number }>)[0].id };
    };

    it('reserves when made in house, uses when printed; a reprint is reserved again, held while short, and its use is waste with the reason', async () => {
      const { jobId } = await inHouse(3);
      expect(await item(mugs.id)).toMatchObject({ onHand: 5, reserved: 3, available: 2 });
      expect(await item(sheets.id)).toMatchObject({ onHand: 100, reserved: 2 });
      expect(await job(jobId)).toMatchObject({ held: false, stockHold: null });

      // A double click on printed: used once.
      await printIt(jobId);
      expect((await post('/api/print-jobs', { id: jobId, isPrinted: true })).status).toBe(409);
      expect(await item(mugs.id)).toMatchObject({ onHand: 2, reserved: 0, available: 2 });
      expect(await item(sheets.id)).toMatchObject({ onHand: 98, reserved: 0 });

      // A reprint needs 3 mugs, 2 are left: back in the queue but held, saying what it is short of.
      const reprint = await post('/api/print-jobs', { id: jobId, isPDFDownloaded: false, isPrinted: false, isRePrinted: true, reprintReason: 'printDefect', reprintResponsible: 'shop', reprintNote: 'banding' });
      expect(reprint.status, JSON.stringify(reprint.body)).toBe(200);
      expect(await job(jobId)).toMatchObject({ held: true, stockHold: 'out of stock: Mugs (short by 1)' });
      expect(await item(mugs.id)).toMatchObject({ reserved: 0, available: 2 });
      const refused = await post('/api/print-jobs', { id: jobId, isPrinted: true });
      expect(refused.status).toBe(409);
      const ready = (await get('/api/print-jobs?isPrinted=0&readyForPrint=1&pageSize=100')).body.data.list as Array<{ id: number }>;
      expect(ready.map((j) => j.id)).not.toContain(jobId);
      const attention = (await get('/api/attention')).body.data.items as Array<{ kind: string; jobId?: number; title: string }>;
      expect(attention.find((i) => i.jobId === jobId)).toMatchObject({ kind: 'held', title: expect.stringContaining('out of stock: Mugs (short by 1)') });

      // Received: the job is tried again and reserved.
      expect((await post(`/api/stock-items/${mugs.id}/receive`, { quantity: 10, note: 'delivery' })).status).toBe(200);
      expect(await job(jobId)).toMatchObject({ held: false, stockHold: null });
      expect(await item(mugs.id)).toMatchObject({ onHand: 12, reserved: 3, available: 9 });

      await printIt(jobId);
      expect(await item(mugs.id)).toMatchObject({ onHand: 9, reserved: 0 });
      const moved = (await movements(mugs.id)).filter((m) => m.jobId === jobId).map((m) => [m.kind, m.quantity, m.note]);
      expect(moved).toEqual([
        ['reserve', 3, null],
        ['consume', -3, null],
        ['reserve', 3, expect.stringMatching(/^Reprint: Print defect \(shop\)/)],
        ['waste', -3, expect.stringMatching(/^Reprint: Print defect \(shop\)/)],
      ]);
    });

    it('frees the reservation when the order is cancelled, when the line is withdrawn, and when the job moves to HP Site Flow', async () => {
      const before = (await item(mugs.id)).reserved;
      const cancelled = await inHouse(2);
      expect((await item(mugs.id)).reserved).toBe(before + 2);
      const at = '2026-11-20T12:00:00Z';
      await deliver(w, { ...cancelled.o, updated_at: at, cancelled_at: at, cancel_reason: 'customer' }, { topic: 'orders/cancelled' });
      expect((await job(cancelled.jobId)).withdrawn?.reason).toMatch(/cancelled/);
      expect((await item(mugs.id)).reserved).toBe(before);
      const released = (await movements(mugs.id)).filter((m) => m.jobId === cancelled.jobId).map((m) => [m.kind, m.quantity, m.byName]);
      expect(released).toEqual([
        ['reserve', 2, 'user-a Tester'],
        ['release', -2, 'Presswork'],
      ]);

      const withdrawn = await inHouse(1);
      expect((await item(mugs.id)).reserved).toBe(before + 1);
      Object.assign(withdrawn.o.line_items[0], { current_quantity: 0 });
      await deliver(w, { ...withdrawn.o, updated_at: '2026-11-20T13:00:00Z' }, { topic: 'orders/updated' });
      expect((await job(withdrawn.jobId)).withdrawn).not.toBeNull();
      expect((await item(mugs.id)).reserved).toBe(before);

      const toHp = await inHouse(1);
      expect((await item(mugs.id)).reserved).toBe(before + 1);
      const row = (await w.services.printJobs.repo.byId(toHp.jobId))!;
      await w.db.transaction((trx) => w.services.printJobs.moveJob(trx, row, 'provider', w.users.userA));
      expect((await item(mugs.id)).reserved).toBe(before);
      // Twice (two instances): freed once.
      await w.db.transaction((trx) => w.services.printJobs.moveJob(trx, row, 'provider', w.users.userA));
      expect((await movements(mugs.id)).filter((m) => m.jobId === toHp.jobId).map((m) => m.kind)).toEqual(['reserve', 'release']);
      // Back in house: reserved again.
      await w.db.transaction((trx) => w.services.printJobs.moveJob(trx, row, 'inHouse', w.users.userA));
      expect((await item(mugs.id)).reserved).toBe(before + 1);
    });

    it('a line the stock cannot cover is held with what it is short of; batches do not take it; a count that finds more releases it', async () => {
      const left = (await item(mugs.id)).available;
      const { jobId } = await inHouse(left + 3);
      expect(await job(jobId)).toMatchObject({ held: true, stockHold: 'out of stock: Mugs (short by 3)' });
      // Nothing reserved of any item (all or nothing).
      expect((await movements(sheets.id)).filter((m) => m.jobId === jobId)).toEqual([]);
      const batch = await post('/api/batches', { jobIds: [jobId] });
      expect(batch.status).not.toBe(200);
      expect(JSON.stringify(batch.body)).toMatch(/out of stock|waiting for stock/i);

      const { onHand } = await item(mugs.id);
      expect((await post(`/api/stock-items/${mugs.id}/count`, { quantity: onHand + 3, note: 'found a box' })).status).toBe(200);
      expect(await job(jobId)).toMatchObject({ held: false, stockHold: null });
      expect((await item(mugs.id)).available).toBe(0);
    });
  });

  it("Needs attention lists an item at or under its reorder point with the days it lasts at the last 14 days' use", async () => {
    const blanks = await makeItem({ name: 'Forecast blanks', unit: 'cards', onHand: 30, reorderPoint: 20, reorderQuantity: 200 });
    const design = await makeDesign(w, w.tokens.adminA, { name: 'Forecast card', sku: 'FORECAST-CARD', productPdf: '/files/test/design.pdf', siteId: w.sites.a, data: { consumes: [{ stockItemId: blanks.id, perUnit: 1 }] } });
    const lowOf = async (token = w.tokens.userA) => ((await get('/api/attention', token)).body.data.items as Array<{ kind: string; stockItemId?: number; title: string; link: string }>).find((i) => i.kind === 'lowStock' && i.stockItemId === blanks.id);
    const printed = async (quantity: number) => {
      const made = await post('/api/print-jobs', { designId: design.id, quantity, data: { pregeneratedPDF: '/files/test/design.pdf' } });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      await printIt(made.body.data.id);
    };
    expect(await lowOf()).toBeUndefined();
    await printed(14);
    // 16 left, 14 used in 14 days: 1 a day.
    expect(await lowOf()).toMatchObject({ title: "Forecast blanks: 16 cards available, at or under the reorder point of 20; lasts about 16 days at the last 14 days' use; reorder 200 cards", link: `/stock-items/${blanks.id}/show` });
    // That use fifteen days ago is out of the window: 7 more in 14 days is half a day's.
    await w.db('stock_movements').where({ item_id: blanks.id, kind: 'consume' }).update({ at: new Date(w.clock.now().getTime() - 15 * 24 * 3_600_000).toISOString() });
    await printed(7);
    expect((await lowOf())?.title).toMatch(/^Forecast blanks: 9 cards available, .*lasts about 18 days at the last 14 days' use/);
    // Another site's staff do not see it; its admin does.
    expect(await lowOf(w.tokens.userB)).toBeUndefined();
    expect(await lowOf(w.tokens.adminB)).toBeDefined();
    // Home's list: the same item with the same forecast, and a link to it; not another site's staff's.
    const lowList = async (token = w.tokens.userA) => ((await get('/api/stock-items/low', token)).body.data.list as Array<{ item: StockItem; daysLeft: number | null; usedPerDay: number }>).find((l) => l.item.id === blanks.id);
    expect(await lowList()).toMatchObject({ item: { name: 'Forecast blanks', available: 9, reorderPoint: 20 }, daysLeft: 18, usedPerDay: 0.5 });
    expect(await lowList(w.tokens.userB)).toBeUndefined();
    expect(await lowList(w.tokens.adminA)).toBeDefined();
    expect((await get('/api/stock-items/low?limit=0')).body).toMatchObject({ success: false });
  });
});
