// Reprint with a reason: the reason and who is responsible are required (one job and bulk, 400
// naming the field), the reprint row is written with the flip and never without it, the job shows
// its last reprint; the reports count reprints by reason, responsibility and product, and the
// average order-to-ship time and on-time rate of the lines shipped.
import { describe, expect, it } from 'vitest';
import { REPRINT_REASONS, REPRINT_RESPONSIBLES } from '../../common/api/reprints';
import { storeFulfilmentRepo } from '../src/modules/fulfilment/storeFulfilmentRepo';
import { orderTablesRepo } from '../src/modules/orders/tablesRepo';
import type { NewPrintJob } from '../src/modules/print-jobs/repo';
import { averageOrderToShipHours, onTimeRate } from '../src/modules/print-jobs/shippingFigures';
import type { Actor } from '../src/http/types';
import { bearer, createWorld, type TestWorld } from './harness';

const REPRINT = { isPDFDownloaded: false, isPrinted: false, isRePrinted: true };

function kit(w: TestWorld) {
  const post = (path: string, token: string, body: unknown) => w.request().post(path).set(bearer(token)).send(body as object);
  /** A printed job straight into the table (the reprint rules are under test, not printing). */
  const printedJob = async (siteId: number, over: Partial<NewPrintJob> = {}) => {
    const now = w.clock.now().toISOString();
    return w.services.printJobs.repo.insert({
      preflight: [], held: false, preflightCheckedAt: now, clientId: siteId, designId: null, productName: 'Card', previewUrl: null, quantity: 1,
      productId: null, shopifyOrderId: null, lineItemId: null, isPrinted: true, isPDFDownloaded: true, isRePrinted: false, readyForPrint: true,
      artworkUrls: [], data: {}, downloadedAt: now, downloadedByUserId: w.users.userA2, printedAt: now, printedByUserId: w.users.userA2,
      printedByName: 'user-a2 Tester', reprintCount: 0, madeBy: 'inHouse', packedAt: null, packedByUserId: null, packedByName: null, createdAt: now, updatedAt: now, ...over,
    });
  };
  const row = (id: number) => w.services.printJobs.repo.byId(id);
  const reprintRows = (ids: number[]) => w.db('print_job_reprints').whereIn('job_id', ids).orderBy('id');
  return { post, printedJob, row, reprintRows };
}

describe('reprint with a reason', async () => {
  const w = await createWorld();
  const { post, printedJob, row, reprintRows } = kit(w);

  it.each([
    ['no reason', { reprintResponsible: 'shop' }, 'reprintReason', `reprintReason is required: one of ${REPRINT_REASONS.join(', ')}.`],
    ['no responsible', { reprintReason: 'printDefect' }, 'reprintResponsible', `reprintResponsible is required: one of ${REPRINT_RESPONSIBLES.join(', ')}.`],
    ['an unknown reason', { reprintReason: 'gremlins', reprintResponsible: 'shop' }, 'reprintReason', `reprintReason must be one of ${REPRINT_REASONS.join(', ')}.`],
    ['other without text', { reprintReason: 'other', reprintResponsible: 'shop', reprintNote: '  ' }, 'reprintNote', 'reprintNote is required when reprintReason is other: say what happened.'],
    ['a note over 500 characters', { reprintReason: 'printDefect', reprintResponsible: 'shop', reprintNote: 'x'.repeat(501) }, 'reprintNote', 'reprintNote must be at most 500 characters.'],
  ])('one job, %s → 400 naming the field; the job stays printed, nothing recorded', async (_name, why, field, error) => {
    const id = await printedJob(w.sites.a);
    const res = await post('/api/print-jobs', w.tokens.userA, { id, ...REPRINT, ...why });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error, field });
    expect(await row(id)).toMatchObject({ isPrinted: true, reprintCount: 0, lastReprint: null });
    expect(await reprintRows([id])).toEqual([]);
    expect(await w.db('print_job_events').where({ job_id: id })).toEqual([]);
  });

  it('the admin REST update refuses a reprint without a reason the same way', async () => {
    const id = await printedJob(w.sites.a);
    const res = await w.request().put(`/api/admin/print-jobs/${id}`).set(bearer(w.tokens.userA)).send(REPRINT);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('reprintReason');
    expect(await row(id)).toMatchObject({ isPrinted: true });
  });

  it('a reprint with its reason: back in the queue, a row linked to the print it replaces, the job shows it', async () => {
    const printedAt = w.clock.now().toISOString();
    const id = await printedJob(w.sites.a);
    w.clock.advance(3_600_000);
    const res = await post('/api/print-jobs', w.tokens.userA, { id, ...REPRINT, reprintReason: 'other', reprintResponsible: 'provider', reprintNote: ' Smudged logo ' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const lastReprint = {
      reason: 'other',
      responsible: 'provider',
      note: 'Smudged logo',
      at: w.clock.now().toISOString(),
      byUserId: w.users.userA,
      byName: 'user-a Tester',
      originalPrintedAt: printedAt,
      originalPrintedByName: 'user-a2 Tester',
    };
    expect(res.body.data).toMatchObject({ isPrinted: false, isRePrinted: true, reprintCount: 1, lastReprint });
    const [stored] = await reprintRows([id]);
    expect(stored).toMatchObject({ site_id: w.sites.a, reason: 'other', responsible: 'provider', original_printed_by_user_id: w.users.userA2 });
    // The queue lists it with why it is back.
    const queue = await w.request().get('/api/print-jobs?isPrinted=0&readyForPrint=1&pageSize=100').set(bearer(w.tokens.userA));
    expect(queue.body.data.list.find((j: { id: number }) => j.id === id)).toMatchObject({ lastReprint });

    // Printed again and reprinted again: the newest reason shows, both rows are kept.
    await post('/api/print-jobs', w.tokens.userA, { id, isPDFDownloaded: true });
    await post('/api/print-jobs', w.tokens.userA, { id, isPrinted: true });
    w.clock.advance(60_000);
    const again = await post('/api/print-jobs', w.tokens.userA2, { id, ...REPRINT, reprintReason: 'lostInPost', reprintResponsible: 'carrier' });
    expect(again.body.data).toMatchObject({ reprintCount: 2, lastReprint: { reason: 'lostInPost', responsible: 'carrier', note: null, byName: 'user-a2 Tester', originalPrintedByName: 'user-a Tester' } });
    expect((await reprintRows([id])).map((r) => r.reason)).toEqual(['other', 'lostInPost']);
  });

  it('a refused flip (the job is not printed) writes no reprint row', async () => {
    const id = await printedJob(w.sites.a, { isPrinted: false, printedAt: null, printedByUserId: null, printedByName: null });
    const res = await post('/api/print-jobs', w.tokens.userA, { id, ...REPRINT, reprintReason: 'printDefect', reprintResponsible: 'shop' });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('Only a printed job can be reprinted');
    expect(await reprintRows([id])).toEqual([]);
  });

  it('the row and the flip are one transaction: a row that cannot be written leaves the job printed', async () => {
    const id = await printedJob(w.sites.a);
    const actor: Actor = { id: w.users.userA, siteId: w.sites.a, role: 'user', email: 'user-a@test', firstName: 'user-a', lastName: 'Tester' };
    // Past the schema (a caller inside the server), a reason the table refuses (NOT NULL).
    const broken = { reprintReason: null, reprintResponsible: 'shop' } as unknown as Parameters<typeof w.services.printJobs.reprint>[2];
    await expect(w.services.printJobs.reprint(actor, id, broken)).rejects.toThrow();
    expect(await row(id)).toMatchObject({ isPrinted: true, isRePrinted: false, reprintCount: 0, lastReprint: null });
    expect(await w.db('print_job_events').where({ job_id: id })).toEqual([]);
    expect(await reprintRows([id])).toEqual([]);
  });

  it('bulk reprint without reason or responsible → 400 naming the field before any job changes', async () => {
    const ids = [await printedJob(w.sites.a), await printedJob(w.sites.a)];
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{}, 'reprintReason', /^reprintReason is required: one of printDefect, transitDamage/],
      [{ reprintReason: 'printDefect' }, 'reprintResponsible', /^reprintResponsible is required: one of shop, customer, carrier, provider/],
      [{ reprintReason: 'other', reprintResponsible: 'shop' }, 'reprintNote', /^reprintNote is required when reprintReason is other/],
    ];
    for (const [why, field, error] of cases) {
      const res = await post('/api/print-jobs/bulk', w.tokens.userA, { ids, action: 'reprint', ...why });
      expect(res.status, JSON.stringify(why)).toBe(400);
      expect(res.body.field).toBe(field);
      expect(res.body.error).toMatch(error);
    }
    for (const id of ids) expect(await row(id)).toMatchObject({ isPrinted: true, reprintCount: 0 });
    expect(await reprintRows(ids)).toEqual([]);
    // The other actions need no reason.
    expect((await post('/api/print-jobs/bulk', w.tokens.userA, { ids: [ids[0]], action: 'delete' })).body.data).toEqual({ done: [ids[0]], refused: [] });
  });

  it('bulk reprint with a reason: a row for each job done, none for the one refused', async () => {
    const printed = [await printedJob(w.sites.a), await printedJob(w.sites.a)];
    const unprinted = await printedJob(w.sites.a, { isPrinted: false });
    const res = await post('/api/print-jobs/bulk', w.tokens.userA, { ids: [...printed, unprinted], action: 'reprint', reprintReason: 'addressError', reprintResponsible: 'customer', reprintNote: 'Wrong house number' });
    expect(res.body.data).toEqual({ done: printed, refused: [{ id: unprinted, error: 'Only a printed job can be reprinted' }] });
    const rows = await reprintRows([...printed, unprinted]);
    expect(rows.map((r) => [r.job_id, r.reason, r.responsible, r.note, r.by_user_id])).toEqual(printed.map((id) => [id, 'addressError', 'customer', 'Wrong house number', w.users.userA]));
  });
});

describe('reports: reprints by reason, responsibility and product; order-to-ship; on-time', async () => {
  const w = await createWorld({ JWT_EXPIRES_IN: '5000d' });
  const { post, printedJob } = kit(w);
  const at = (iso: string) => w.clock.set(new Date(iso));
  const print = async (id: number) => {
    await post('/api/print-jobs', w.tokens.userA, { id, isPDFDownloaded: true });
    expect((await post('/api/print-jobs', w.tokens.userA, { id, isPrinted: true })).status).toBe(200);
  };
  const reprint = async (id: number, reprintReason: string, reprintResponsible: string) => {
    expect((await post('/api/print-jobs', w.tokens.userA, { id, ...REPRINT, reprintReason, reprintResponsible })).status).toBe(200);
  };

  it('reprint rates = reprints / prints of the period, by reason, responsibility and product (a product: of its own prints)', async () => {
    at('2031-05-01T08:00:00.000Z');
    const unprinted = { isPrinted: false, isPDFDownloaded: false, printedAt: null, printedByUserId: null, printedByName: null };
    const cards = [await printedJob(w.sites.a, unprinted), await printedJob(w.sites.a, unprinted), await printedJob(w.sites.a, unprinted)];
    const mug = await printedJob(w.sites.a, { ...unprinted, productName: 'Mug' });
    const theirs = await printedJob(w.sites.b, { ...unprinted, productName: 'Mug' });
    for (const id of [...cards, mug]) await print(id);
    // Site B's reprint never counts in site A's report.
    await w.request().post('/api/print-jobs').set(bearer(w.tokens.userB)).send({ id: theirs, isPDFDownloaded: true });
    await w.request().post('/api/print-jobs').set(bearer(w.tokens.userB)).send({ id: theirs, isPrinted: true });
    await w.request().post('/api/print-jobs').set(bearer(w.tokens.userB)).send({ id: theirs, ...REPRINT, reprintReason: 'fileDefect', reprintResponsible: 'customer' });
    at('2031-05-02T08:00:00.000Z');
    await reprint(cards[0], 'printDefect', 'shop');
    await reprint(mug, 'transitDamage', 'carrier');
    await print(cards[0]);
    await reprint(cards[0], 'printDefect', 'shop');
    // Outside the period: not counted.
    at('2031-06-10T08:00:00.000Z');
    await reprint(cards[1], 'lostInPost', 'carrier');

    const res = await w.request().get('/api/print-jobs/reports?from=2031-05-01&to=2031-05-31').set(bearer(w.tokens.userA));
    expect(res.status).toBe(200);
    const { reprints } = res.body.data;
    // 5 prints (4 + the card printed again), 3 reprints.
    expect(reprints).toMatchObject({ printed: 5, reprinted: 3, rate: 0.6 });
    expect(reprints.byReason).toEqual(
      REPRINT_REASONS.map((reason) => ({ reason, ...({ printDefect: { reprints: 2, rate: 0.4 }, transitDamage: { reprints: 1, rate: 0.2 } } as Record<string, object>)[reason] ?? { reprints: 0, rate: 0 } })),
    );
    expect(reprints.byResponsible).toEqual([
      { responsible: 'shop', reprints: 2, rate: 0.4 },
      { responsible: 'customer', reprints: 0, rate: 0 },
      { responsible: 'carrier', reprints: 1, rate: 0.2 },
      { responsible: 'provider', reprints: 0, rate: 0 },
    ]);
    expect(reprints.byProduct).toEqual([
      { productName: 'Card', printed: 4, reprints: 2, rate: 0.5 },
      { productName: 'Mug', printed: 1, reprints: 1, rate: 1 },
    ]);
    // The admin over every site sees site B's too.
    const all = (await w.request().get('/api/print-jobs/reports?from=2031-05-01&to=2031-05-31').set(bearer(w.tokens.adminA))).body.data;
    expect(all.reprints.byReason.find((r: { reason: string }) => r.reason === 'fileDefect').reprints).toBe(1);
  });

  it('average order-to-ship time and on-time rate over the lines shipped in the period', async () => {
    const orders = orderTablesRepo(w.db);
    const shipments = storeFulfilmentRepo(w.db);
    const order = async (siteId: number, orderId: string, createdAt: string) =>
      orders.insertOrders([{ siteId, orderId, name: `#${orderId}`, status: 'received', searchText: null, data: { id: orderId, line_items: [{ id: 1 }, { id: 2 }] }, createdAt, updatedAt: createdAt }]);
    const ship = (siteId: number, orderId: string, lineIds: string[], at: string) =>
      shipments.enqueue({ siteId, orderId, lineId: null, actorId: null, lineIds, tracking: { number: `T-${orderId}-${lineIds.join('')}`, url: null, company: null }, source: 'in-house' }, at);
    await order(w.sites.a, '7001', '2032-01-03T10:00:00.000Z');
    await order(w.sites.a, '7002', '2032-01-04T00:00:00.000Z');
    await order(w.sites.b, '7003', '2032-01-04T00:00:00.000Z');
    // 2 lines after 24 h, 1 line after 48 h, 1 line after 12 h: (24 + 24 + 48 + 12) / 4 = 27 h.
    await ship(w.sites.a, '7001', ['1', '2'], '2032-01-04T10:00:00.000Z');
    await ship(w.sites.a, '7002', ['1'], '2032-01-06T00:00:00.000Z');
    await ship(w.sites.a, '7002', ['2'], '2032-01-04T12:00:00.000Z');
    await ship(w.sites.b, '7003', ['1'], '2032-01-10T00:00:00.000Z');
    // Shipped after the period: not counted.
    await ship(w.sites.a, '7001', ['1'], '2032-02-04T10:00:00.000Z');

    const mine = (await w.request().get('/api/print-jobs/reports?from=2032-01-01&to=2032-01-31').set(bearer(w.tokens.userA))).body.data;
    // Both orders came on a weekend: with the default rule (2 working days, 14:00 cut-off) each ships
    // by Tuesday 06/01 14:00, so site A's 4 lines were on time and site B's (10/01) was late.
    expect(mine.shipping).toEqual({ shippedLines: 4, averageOrderToShipHours: 27, onTime: { onTime: 4, counted: 4, rate: 1 } });
    const all = (await w.request().get('/api/print-jobs/reports?from=2032-01-01&to=2032-01-31').set(bearer(w.tokens.adminA))).body.data;
    expect(all.shipping).toEqual({ shippedLines: 5, averageOrderToShipHours: Math.round(((27 * 4 + 144) / 5) * 10) / 10, onTime: { onTime: 4, counted: 5, rate: 0.8 } });
    const none = (await w.request().get('/api/print-jobs/reports?from=2033-01-01&to=2033-01-31').set(bearer(w.tokens.userA))).body.data;
    expect(none.shipping).toEqual({ shippedLines: 0, averageOrderToShipHours: null, onTime: null });
  });
});

describe('shipping figures', () => {
  it('on-time rate: lines shipped by their ship-by among the shipped lines that have one', () => {
    const lines = [
      { shippedAt: '2032-01-04T10:00:00.000Z', orderCreatedAt: null, shipBy: '2032-01-04T17:00:00.000Z' },
      { shippedAt: '2032-01-04T17:00:00.000Z', orderCreatedAt: null, shipBy: '2032-01-04T17:00:00.000Z' },
      { shippedAt: '2032-01-05T09:00:00.000Z', orderCreatedAt: null, shipBy: '2032-01-04T17:00:00.000Z' },
      { shippedAt: '2032-01-05T09:00:00.000Z', orderCreatedAt: null, shipBy: null },
      { shippedAt: '2032-01-05T09:00:00.000Z', orderCreatedAt: null },
    ];
    expect(onTimeRate(lines)).toEqual({ onTime: 2, counted: 3, rate: 0.6667 });
    expect(onTimeRate(lines.slice(3))).toBeNull();
    expect(onTimeRate([])).toBeNull();
  });

  it('average order-to-ship hours skips lines whose order is unknown', () => {
    expect(averageOrderToShipHours([
      { shippedAt: '2032-01-02T00:00:00.000Z', orderCreatedAt: '2032-01-01T00:00:00.000Z' },
      { shippedAt: '2032-01-01T06:30:00.000Z', orderCreatedAt: '2032-01-01T00:00:00.000Z' },
      { shippedAt: '2032-01-09T00:00:00.000Z', orderCreatedAt: null },
    ])).toBe(15.3);
    expect(averageOrderToShipHours([])).toBeNull();
  });
});
