// The floor end to end, as an operator at volume meets it: store orders delivered by signed
// webhooks, their jobs made by order-to-artwork, batched, the sheets downloaded and read back
// (pages rendered, every slug's barcode decoded, the cover's text read), and the decoded codes
// scanned at the packing bench. A job the store cancelled after batching is never on the sheets;
// the file lines up printed duplex; each copy of a job has its own code and the order is complete
// only when every copy is packed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { isPostgres } from '../src/db';
import type { Actor } from '../src/http/types';
import { DEFAULT_IMPOSE_SETTINGS, chooseSheet } from '../src/modules/batches/sheets';
import { printJobsRepo } from '../src/modules/print-jobs/repo';
import { bearer, binary, createWorld } from './harness';
import { connectStores, deliver, makeDesign, order } from './ordersKit';
import { barcodeAt, colourOf, pageText, pixel, render } from './sheetReader';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'floor-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const SRA3 = chooseSheet({ trimWidthMm: 148, trimHeightMm: 210, bleedMm: 3 }, DEFAULT_IMPOSE_SETTINGS, 'SRA3')!;

describe('the floor end to end: store orders → batch → sheets read back → the scan station', async () => {
  const w = await createWorld({ PUBLIC_URL: 'http://presswork.test', SCAN_REPEAT_SECONDS: '5' });
  await connectStores(w);
  const post = (p: string, body: unknown, token = w.tokens.userA) => w.request().post(p).set(bearer(token)).send(body as object);
  const get = (p: string, token = w.tokens.userA) => w.request().get(p).set(bearer(token));
  const scan = (code: string, token = w.tokens.userA) => post('/api/scan', { code }, token);
  const seconds = (n: number) => w.clock.advance(n * 1000);

  const pages: string[] = [];
  for (const [i, colour] of ['#ff0000', '#00ff00', '#0000ff', '#ffff00'].entries()) {
    const png = await sharp({ create: { width: 1819, height: 2551, channels: 3, background: colour } }).png().toBuffer();
    const grant = await post('/api/users/me/get-upload-url', { serverSidePath: `artwork/floor-${i + 1}.png`, contentType: 'image/png' });
    const url = new URL(grant.body.data);
    pages.push((await w.request().put(`${url.pathname}${url.search}`).set('Content-Type', 'image/png').send(png)).body.data.url);
  }
  const SKU = 'CARD-FLOOR';
  await makeDesign(w, w.tokens.adminA, { name: 'Floor card', sku: SKU, productType: 'Card', data: { artworkUrls: pages } });

  /** A paid store order of the card, a line per quantity, delivered signed; its jobs made by order-to-artwork, in line order. */
  async function storeOrder(quantities: number[]) {
    const o = order({ skus: quantities.map(() => SKU) });
    o.line_items.forEach((l, i) => Object.assign(l, { quantity: quantities[i], current_quantity: quantities[i] }));
    expect((await deliver(w, o)).status).toBe(200);
    const made = await post('/api/online-stores/shopify-webhook/order-to-arwork', { id: o.id });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const jobs = (await get(`/api/print-jobs/from-shopify-order/${o.id}`)).body.data.list as Array<{ id: number; lineItemId: string; quantity: number; held: boolean }>;
    const ids = o.line_items.map((l) => jobs.find((j) => j.lineItemId === l.id)!.id);
    expect(jobs.every((j) => !j.held)).toBe(true);
    return { o, ids };
  }

  /** The batch's sheets as downloaded, saved to a file to read back. */
  async function sheets(batchId: number, name: string): Promise<{ file: string; doc: PDFDocument }> {
    const res = await get(`/api/batches/${batchId}/pdf`).buffer(true).parse(binary);
    expect(res.status, res.status === 200 ? '' : String(res.body)).toBe(200);
    const file = path.join(tmp, name);
    fs.writeFileSync(file, res.body as Buffer);
    return { file, doc: await PDFDocument.load(res.body as Buffer) };
  }

  /** Every slug's code on a sheet's front page, slot by slot (null: an empty slot). */
  async function slugCodes(file: string, page: number): Promise<Array<string | null>> {
    return Promise.all(SRA3.slots.map((s) => barcodeAt(file, page, SRA3.heightMm, s.slug)));
  }

  it('a job cancelled in the store after batching is left off the sheets: the page warns, the cover counts what is on them', async () => {
    const kept = await storeOrder([1]);
    const cancelled = await storeOrder([1]);
    const batch = (await post('/api/batches', { jobIds: [cancelled.ids[0], kept.ids[0]] })).body.data;
    // Before the cancel both are on the sheets.
    expect((await get(`/api/batches/${batch.id}`)).body.data).toMatchObject({ leftOut: [], sheetCount: 1 });

    const { o } = cancelled;
    expect((await deliver(w, { ...o, cancelled_at: '2026-11-20T12:00:00Z', cancel_reason: 'customer', updated_at: '2026-11-20T12:00:00Z' }, { topic: 'orders/cancelled' })).status).toBe(200);

    const page = (await get(`/api/batches/${batch.id}`)).body.data;
    expect(page.leftOut).toEqual([{ jobId: cancelled.ids[0], orderName: o.name, productName: expect.any(String), reason: expect.stringMatching(new RegExp(`^This job left the queue unprinted \\(job #${cancelled.ids[0]}\\): .*cancel`, 'i')) }]);
    expect(page.sheetCount).toBe(1);

    const { file, doc } = await sheets(batch.id, 'cancelled.pdf');
    // The cover and its blank back, then one sheet's front and back.
    expect(doc.getPageCount()).toBe(4);
    expect(await slugCodes(file, 3)).toEqual([`PJ-${kept.ids[0]}-1`, `PJ-${kept.ids[0]}-1`, null, null]);
    const text = [1, 2, 3, 4].map((p) => pageText(file, p)).join('\n');
    expect(text).not.toContain(`PJ-${cancelled.ids[0]}`);
    const cover = pageText(file, 1);
    expect(cover).toMatch(/1 sheet\b/);
    expect(cover).toMatch(/1 job · 1 item/);
    expect(cover).toMatch(/Not on these sheets \(1\)/);
    expect(cover).toContain(`#${cancelled.ids[0]} (${o.name}): This job left the queue unprinted`);

    // Marking the batch printed prints only what is on the sheets.
    const moved = (await post(`/api/batches/${batch.id}/state`, { state: 'printed' })).body.data;
    expect(moved.printed.done).toEqual([kept.ids[0]]);
    expect(moved.printed.refused.map((r: { id: number }) => r.id)).toEqual([cancelled.ids[0]]);
    expect((await get(`/api/print-jobs/${cancelled.ids[0]}`)).body.data).toMatchObject({ isPrinted: false });
  });

  it('held, moved to HP or printed by itself since: left off too; nothing left to print refuses the download naming each job', async () => {
    const a = await storeOrder([1]);
    const b = await storeOrder([1]);
    const c = await storeOrder([1]);
    const batch = (await post('/api/batches', { jobIds: [a.ids[0], b.ids[0], c.ids[0]] })).body.data;
    await w.db('print_jobs').where({ id: a.ids[0] }).update({ held: true });
    await w.db('print_jobs').where({ id: b.ids[0] }).update({ made_by: 'provider' });
    await post('/api/print-jobs', { id: c.ids[0], isPDFDownloaded: true });
    await post('/api/print-jobs', { id: c.ids[0], isPrinted: true });
    const page = (await get(`/api/batches/${batch.id}`)).body.data;
    expect(page.leftOut.map((j: { jobId: number; reason: string }) => [j.jobId, j.reason])).toEqual([
      [a.ids[0], expect.stringMatching(new RegExp(`^Held by preflight \\(job #${a.ids[0]}\\)`))],
      [b.ids[0], `Moved to HP Site Flow (job #${b.ids[0]}): HP makes it, not the floor`],
      [c.ids[0], expect.stringMatching(/^Already printed by user-a Tester at \d\d\/\d\d\/\d{4} \d\d:\d\d$/)],
    ]);
    expect(page.sheetCount).toBeNull();
    const res = await get(`/api/batches/${batch.id}/pdf`);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(new RegExp(`^Batch ${batch.number} has no jobs left to print — #${a.ids[0]}: Held by preflight .*; #${b.ids[0]}: Moved to HP Site Flow .*; #${c.ids[0]}: Already printed by user-a Tester`));
  });

  it('a job printed by itself before the batch is still left off the sheets once the batch is printed', async () => {
    const { ids } = await storeOrder([1, 1]);
    const [a, b] = ids;
    const batch = (await post('/api/batches', { jobIds: [a, b] })).body.data;
    await post('/api/print-jobs', { id: b, isPDFDownloaded: true }, w.tokens.userA2);
    await post('/api/print-jobs', { id: b, isPrinted: true }, w.tokens.userA2);
    seconds(60);
    const moved = (await post(`/api/batches/${batch.id}/state`, { state: 'printed' })).body.data;
    expect(moved.printed).toMatchObject({ done: [a], refused: [{ id: b }] });
    // The sheets again (a jammed sheet run anew): the batch's own print only.
    const page = (await get(`/api/batches/${batch.id}`)).body.data;
    expect(page.leftOut).toEqual([expect.objectContaining({ jobId: b, reason: expect.stringMatching(/^Already printed by user-a2 Tester at /) })]);
    expect(page.sheetCount).toBe(1);
    const { file } = await sheets(batch.id, 'printed-by-itself.pdf');
    expect(await slugCodes(file, 3)).toEqual([`PJ-${a}-1`, `PJ-${a}-1`, null, null]);
  });

  it('printed duplex as it is, every sheet lines up: the cover is padded to an even count, each front on an odd page', async () => {
    const { ids } = await storeOrder([1, 1, 1, 1, 1]);
    const batch = (await post('/api/batches', { jobIds: ids })).body.data;
    expect((await get(`/api/batches/${batch.id}`)).body.data).toMatchObject({ sheetCount: 3, howToPrint: expect.stringMatching(/^Print two-sided \(duplex\), flip on the long edge/) });
    const { file, doc } = await sheets(batch.id, 'duplex.pdf');
    // Cover + blank back, then 3 sheets × (front, back): sheet n's front is page 2n + 1, its back 2n + 2.
    expect(doc.getPageCount()).toBe(8);
    expect(pageText(file, 2).trim()).toBe('');
    expect(colourOf(await pixel(render(file, 2, 50), 50, SRA3.heightMm, [160, 225]))).toBe('111');
    expect(await slugCodes(file, 3)).toEqual([`PJ-${ids[0]}-1`, `PJ-${ids[0]}-1`, `PJ-${ids[1]}-1`, `PJ-${ids[1]}-1`]);
    expect(await slugCodes(file, 5)).toEqual([`PJ-${ids[2]}-1`, `PJ-${ids[2]}-1`, `PJ-${ids[3]}-1`, `PJ-${ids[3]}-1`]);
    expect(await slugCodes(file, 7)).toEqual([`PJ-${ids[4]}-1`, `PJ-${ids[4]}-1`, null, null]);
    // Backs carry no slugs: their pages are the cards' insides (green behind red).
    expect(await slugCodes(file, 4)).toEqual([null, null, null, null]);
    const back = render(file, 8, 50);
    const trim = SRA3.slots[0].trim;
    // Green behind red, not the yellow of the leaf beside it: the sheet's CMYK output intent draws
    // RGB green as a yellowish green (about 194, 223, 19), so green is told from yellow by green
    // clearly above red.
    const [r, g, b] = await pixel(back, 50, SRA3.heightMm, [SRA3.widthMm - trim.x - trim.width / 2, trim.y + trim.height / 2]);
    expect(g - r, `rgb(${r}, ${g}, ${b})`).toBeGreaterThan(15);
    expect(b).toBeLessThan(100);
    // The cover says how, with its dates as everything else writes them.
    expect(pageText(file, 1)).toMatch(/Print two-sided \(duplex\), flip on the long edge/);
    expect(pageText(file, 1)).toMatch(/created \d\d\/\d\d\/\d{4} \d\d:\d\d by user-a Tester/);
  });

  it('a line of 4: each copy its own code on the sheets, the bench counts copies, the order is complete only when every copy is packed', async () => {
    const { o, ids } = await storeOrder([4, 1]);
    const [four, one] = ids;
    const batch = (await post('/api/batches', { jobIds: [four, one] })).body.data;
    expect((await get(`/api/batches/${batch.id}`)).body.data.sheetCount).toBe(3);
    const { file } = await sheets(batch.id, 'copies.pdf');
    const codes = [...(await slugCodes(file, 3)), ...(await slugCodes(file, 5)), ...(await slugCodes(file, 7))];
    expect(codes).toEqual([
      `PJ-${four}-1`, `PJ-${four}-1`, `PJ-${four}-2`, `PJ-${four}-2`,
      `PJ-${four}-3`, `PJ-${four}-3`, `PJ-${four}-4`, `PJ-${four}-4`,
      `PJ-${one}-1`, `PJ-${one}-1`, null, null,
    ]);
    expect(pageText(file, 3)).toContain(`copy 2 of 4 · PJ-${four}-2`);
    // The codes the bench scans are the ones read off the sheets.
    const copy = (n: number) => codes[2 * (n - 1)]!;

    expect((await post(`/api/batches/${batch.id}/state`, { state: 'printed' })).status).toBe(200);
    seconds(6);
    // The job's own code names no copy of a job of four.
    let res = await scan(`PJ-${four}`);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe(`Job #${four} has 4 copies: scan a copy's own barcode (PJ-${four}-1 to PJ-${four}-4), each on its slug`);
    expect(res.body.details.job).toMatchObject({ id: four, copy: null, packedCopies: 0 });
    expect((await scan(`PJ-${four}-5`)).body.error).toBe(`Job #${four} has 4 copies: there is no copy 5`);

    res = await scan(copy(1));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ advancedTo: 'packed', orderComplete: false, job: { id: four, copy: 1, packedCopies: 1, quantity: 4, state: 'printed', packedAt: null } });
    const item = (body: { order: { items: Array<{ jobId: number; packedCopies: number; state: string }> } }, id: number) => body.order.items.find((i) => i.jobId === id);
    expect(item(res.body.data, four)).toMatchObject({ packedCopies: 1, quantity: 4, state: 'printed' });

    // The same copy again at once is the scanner's double read; another copy at once is not.
    res = await scan(copy(1));
    expect(res.status).toBe(409);
    expect(res.body.error).toBe(`Scanned twice: ${o.name} · 1 of 2 · copy 1 of 4 was marked packed 1 s ago; nothing changed.`);
    res = await scan(copy(2), w.tokens.userA2);
    expect(res.body.data).toMatchObject({ advancedTo: 'packed', job: { copy: 2, packedCopies: 2 } });
    // A second packer of the same copy hears who packed it; nothing is counted twice.
    seconds(6);
    res = await scan(copy(2));
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/^Copy 2 of 4 was already packed by user-a2 Tester at \d\d\/\d\d\/\d{4} \d\d:\d\d$/);
    expect(res.body.details).toMatchObject({ code: 'ALREADY_PACKED', job: { packedCopies: 2 } });

    expect((await scan(copy(3))).body.data.job.packedCopies).toBe(3);
    res = await scan(copy(4));
    // Every copy of the line of four is packed, but the order's other line is not: not complete yet.
    expect(res.body.data).toMatchObject({ orderComplete: false, job: { packedCopies: 4, state: 'packed', packedByName: 'user-a Tester' } });
    expect(item(res.body.data, four)).toMatchObject({ packedCopies: 4, state: 'packed' });
    // The job of one copy is scanned by its own code too.
    res = await scan(`PJ-${one}`);
    expect(res.body.data).toMatchObject({ advancedTo: 'packed', orderComplete: true, job: { copy: 1, packedCopies: 1 } });

    // One packed event for the job (the reports count it once), a history entry per copy.
    expect(Number((await w.db('print_job_events').where({ job_id: four, kind: 'packed' }).count({ n: '*' }))[0].n)).toBe(1);
    const history = (await get(`/api/print-jobs/${four}/history`)).body.data.list as Array<{ action: string; reason: string | null; actor: { name: string } }>;
    expect(history.filter((e) => /packed/.test(e.action)).map((e) => [e.action, e.reason, e.actor.name])).toEqual(
      expect.arrayContaining([
        ['copy-packed', 'copy 1 of 4: 1 of 4 packed', 'user-a Tester'],
        ['copy-packed', 'copy 2 of 4: 2 of 4 packed', 'user-a2 Tester'],
        ['copy-packed', 'copy 3 of 4: 3 of 4 packed', 'user-a Tester'],
        ['packed', 'copy 4 of 4: every copy packed', 'user-a Tester'],
      ]),
    );
    // The batch's page counts them too.
    const listed = (await get(`/api/batches/${batch.id}/jobs`)).body.data as Array<{ jobId: number; packedCopies: number }>;
    expect(listed.map((j) => [j.jobId, j.packedCopies])).toEqual([[four, 4], [one, 1]]);

    // A reprint starts the count again: every copy is printed and packed anew.
    expect((await post('/api/print-jobs', { id: four, isPDFDownloaded: false, isPrinted: false, isRePrinted: true, reprintReason: 'printDefect', reprintResponsible: 'shop' })).status).toBe(200);
    seconds(6);
    res = await scan(copy(3));
    expect(res.body.data).toMatchObject({ advancedTo: 'printed', orderComplete: false, job: { packedCopies: 0, state: 'printed' } });
    // Printed by a scan of copy 3: any copy at once is the double read of that print, not a packing.
    res = await scan(copy(1));
    expect(res.status).toBe(409);
    expect(res.body.error).toBe(`Scanned twice: ${o.name} · 1 of 2 was marked printed 1 s ago (all 4 copies); nothing changed. Scan each copy again when it is packed.`);
    seconds(6);
    expect((await scan(copy(3))).body.data.job.packedCopies).toBe(1);
  });

  it('two packers at once: the last two copies packed together pack the job once; one copy scanned by both is packed once', async () => {
    const { ids } = await storeOrder([2, 2]);
    const [first, second] = ids;
    for (const id of ids) {
      await post('/api/print-jobs', { id, isPDFDownloaded: true });
      await post('/api/print-jobs', { id, isPrinted: true });
    }
    seconds(6);
    const [a, b] = await Promise.all([scan(`PJ-${first}-1`), scan(`PJ-${first}-2`, w.tokens.userA2)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((await get(`/api/print-jobs/${first}`)).body.data.packedAt).not.toBeNull();
    expect(Number((await w.db('print_job_events').where({ job_id: first, kind: 'packed' }).count({ n: '*' }))[0].n)).toBe(1);

    const both = await Promise.all([scan(`PJ-${second}-1`), scan(`PJ-${second}-1`, w.tokens.userA2)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(both.find((r) => r.status === 409)!.body.error).toMatch(/^Copy 1 of 2 was already packed by user-a2? Tester at /);
    expect(Number((await w.db('print_job_copies').where({ job_id: second }).count({ n: '*' }))[0].n)).toBe(1);
    expect((await get(`/api/print-jobs/${second}`)).body.data.packedAt).toBeNull();
  });

  // PostgreSQL runs packers' transactions side by side (SQLite one at a time): the job's row lock is
  // what makes the second packer of the last copies count the first's.
  it.runIf(isPostgres(w.db))('PostgreSQL: a packer of the last copy waits for another packing of the job to end, then packs it', async () => {
    const { ids: [job] } = await storeOrder([2]);
    await post('/api/print-jobs', { id: job, isPDFDownloaded: true });
    await post('/api/print-jobs', { id: job, isPrinted: true });
    const round = (await get(`/api/print-jobs/${job}`)).body.data.reprintCount as number;
    let commit: () => void = () => {};
    // Another packer's copy 1 written, its transaction still open (it has not counted yet).
    const other = w.db.transaction(async (trx) => {
      await printJobsRepo(trx).packCopy({ jobId: job, round, copy: 1, at: w.clock.now().toISOString(), userId: w.users.userA2, name: 'user-a2 Tester' });
      await new Promise<void>((r) => (commit = r));
    });
    await new Promise((r) => setTimeout(r, 100));
    const packer: Actor = { id: w.users.userA, role: 'user', siteId: w.sites.a, firstName: 'user-a', lastName: 'Tester', email: 'user-a@example.com' };
    const mine = w.services.printJobs.markCopyPacked(packer, job, 2);
    await new Promise((r) => setTimeout(r, 300));
    commit();
    await other;
    expect(await mine).toMatchObject({ packedCopies: 2, job: { packedByName: 'user-a Tester' } });
  });
});
