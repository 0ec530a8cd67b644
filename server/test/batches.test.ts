// Batches through the API: create (and each refusal, naming the jobs), read and list, the imposed
// sheets' PDF, and the floor's moves, where "printed" marks every job printed through the print-job
// rules and reports a job someone else printed meanwhile instead of counting it twice.
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { orderTablesRepo } from '../src/modules/orders/tablesRepo';
import { batchesRepo } from '../src/modules/batches/repo';
import { bearer, binary, createWorld } from './harness';
import { makeDesign } from './ordersKit';

describe('batches', async () => {
  const w = await createWorld({ PUBLIC_URL: 'http://presswork.test' });
  const post = (path: string, body: unknown, token = w.tokens.userA) => w.request().post(path).set(bearer(token)).send(body as object);
  const get = (path: string, token = w.tokens.userA) => w.request().get(path).set(bearer(token));

  const png = (colour: string) => sharp({ create: { width: 1819, height: 2551, channels: 3, background: colour } }).png().toBuffer();
  const upload = async (bytes: Buffer | Uint8Array, name: string, contentType = 'image/png') => {
    const grant = await post('/api/users/me/get-upload-url', { serverSidePath: `artwork/${name}`, contentType });
    const url = new URL(grant.body.data);
    const put = await w.request().put(`${url.pathname}${url.search}`).set('Content-Type', contentType).send(Buffer.from(bytes));
    expect(put.status).toBe(200);
    return put.body.data.url as string;
  };
  const pages: string[] = [];
  for (const [i, colour] of ['#ff0000', '#00ff00', '#0000ff', '#ffff00'].entries()) pages.push(await upload(await png(colour), `batch-page-${i + 1}.png`));

  await orderTablesRepo(w.db).insertOrders([
    {
      siteId: w.sites.a,
      orderId: '9001',
      name: '#1024',
      status: 'received',
      searchText: '#1024',
      data: { id: '9001', name: '#1024', created_at: '2026-11-20T10:00:00.000Z', line_items: ['a', 'b', 'c'].map((l) => ({ id: `9001-${l}`, sku: 'X', quantity: 1 })) },
      createdAt: '2026-11-20T10:00:00.000Z',
      updatedAt: '2026-11-20T10:00:00.000Z',
    },
  ]);

  const job = async (body: Record<string, unknown> = {}, token = w.tokens.userA): Promise<{ id: number }> => {
    const res = await post('/api/print-jobs', { productName: 'Birthday card', artworkUrls: pages, ...body }, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };
  const createBatch = (body: unknown, token = w.tokens.userA) => post('/api/batches', body, token);

  it('creates an open batch of card jobs on SRA3, numbered per site, readable and listed by state', async () => {
    // Made in the order's line order c, a, b: the slug numbers follow the lines, not the jobs.
    const c = await job({ shopifyOrderId: '9001', lineItemId: '9001-c' });
    const a = await job({ shopifyOrderId: '9001', lineItemId: '9001-a' });
    const res = await createBatch({ jobIds: [c.id, a.id] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ number: 1, jobIds: [c.id, a.id], state: 'open', sheet: 'SRA3', siteId: w.sites.a, createdByName: 'user-a Tester' });
    const id = res.body.data.id;
    expect((await get(`/api/batches/${id}`)).body.data).toMatchObject({ id, number: 1, jobIds: [c.id, a.id] });
    expect((await get('/api/batches?state=open')).body.data.list.map((b: { id: number }) => b.id)).toContain(id);
    expect((await get('/api/batches?state=printed')).body.data.list).toEqual([]);
    expect((await get('/api/batches?state=lost')).status).toBe(400);
    // Another site's staff: the batch does not exist for them.
    expect((await get(`/api/batches/${id}`, w.tokens.userB)).status).toBe(404);
    expect((await get('/api/batches', w.tokens.userB)).body.data.list).toEqual([]);

    const numbers = await batchesRepo(w.db).itemNumbers(w.sites.a, ['9001']);
    expect(numbers.get(a.id)).toEqual({ number: 1, count: 2 });
    expect(numbers.get(c.id)).toEqual({ number: 2, count: 2 });

    // A second batch of site A is number 2; site B starts at 1.
    const second = await createBatch({ jobIds: [(await job()).id] });
    expect(second.body.data.number).toBe(2);
    const onB = await createBatch({ jobIds: [(await job({}, w.tokens.userB)).id] }, w.tokens.userB);
    expect(onB.body.data.number).toBe(1);
  });

  it('serves the imposed sheets as batch-<number>.pdf: a cover, then front and back of each sheet', async () => {
    const jobs = [await job(), await job(), await job()];
    const batch = (await createBatch({ jobIds: jobs.map((j) => j.id) })).body.data;
    const res = await get(`/api/batches/${batch.id}/pdf`).buffer(true).parse(binary);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="batch-${batch.number}.pdf"`);
    const doc = await PDFDocument.load(res.body as Buffer);
    // 3 cards × 2 leaves on 4-up sheets: 2 sheets of 2 sides, after the cover and its blank back.
    expect(doc.getPageCount()).toBe(6);
    expect(Math.round(doc.getPage(1).getWidth() / (72 / 25.4))).toBe(320);
    // Serving the sheets changes no job.
    for (const j of jobs) expect((await get(`/api/print-jobs/${j.id}`)).body.data).toMatchObject({ isPDFDownloaded: false, isPrinted: false });
    expect((await get(`/api/batches/${batch.id}/pdf`, w.tokens.userB)).status).toBe(404);
  });

  it("tells how far the sheets asked for with ?progress=<key> are, to the one who asked", async () => {
    const jobs = [await job(), await job(), await job()];
    const batch = (await createBatch({ jobIds: jobs.map((j) => j.id) })).body.data;
    const key = 'sheets-progress-1';
    const progressOf = (k: string, token = w.tokens.userA) => get(`/api/batches/${batch.id}/pdf/progress?key=${k}`, token);
    // Not begun (or another instance's): not known here.
    expect((await progressOf(key)).body).toEqual({ success: true, data: null });
    const seen: unknown[] = [];
    const poll = setInterval(() => void progressOf(key).then((r) => r.body.data && seen.push(r.body.data)), 5);
    const res = await get(`/api/batches/${batch.id}/pdf?progress=${key}`).buffer(true).parse(binary);
    clearInterval(poll);
    expect(res.status).toBe(200);
    expect((await progressOf(key)).body.data).toEqual({ jobsDone: 3, jobs: 3, sheets: 2, finished: true });
    for (const p of seen) expect(p).toMatchObject({ jobs: 3 });
    // Another user's key of the same name is not theirs to read; a key that is no key is refused.
    expect((await progressOf(key, w.tokens.userA2)).body.data).toBeNull();
    expect((await progressOf('x')).status).toBe(400);
    expect((await get(`/api/batches/${batch.id}/pdf?progress=${encodeURIComponent('a b')}`)).status).toBe(400);
    expect((await progressOf(key, w.tokens.userB)).status).toBe(404);
  });

  it('refuses, naming the jobs: unknown or other-site, printed, withdrawn, held, in an open batch, mixed sizes, a sheet too small', async () => {
    const mine = await job();
    const theirs = await job({}, w.tokens.userB);
    let res = await createBatch({ jobIds: [mine.id, theirs.id] });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe(`Print job #${theirs.id} not found`);

    const printed = await job();
    await post('/api/print-jobs', { id: printed.id, isPDFDownloaded: true });
    await post('/api/print-jobs', { id: printed.id, isPrinted: true });
    res = await createBatch({ jobIds: [mine.id, printed.id] });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe(`Job #${printed.id} is already printed: use Reprint to put them back in the queue first`);

    const withdrawn = await job();
    await w.db('print_jobs').where({ id: withdrawn.id }).update({ withdrawn_at: '2026-11-25T10:00:00.000Z', withdrawn_reason: 'The order was cancelled' });
    res = await createBatch({ jobIds: [withdrawn.id] });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(new RegExp(`^Job #${withdrawn.id} is out of the queue`));

    const held1 = await job();
    const held2 = await job();
    await w.db('print_jobs').whereIn('id', [held1.id, held2.id]).update({ held: true });
    res = await createBatch({ jobIds: [mine.id, held1.id, held2.id] });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe(`Jobs #${held1.id} and #${held2.id} are held by preflight: approve or fix them first`);
    expect(res.body.details).toEqual({ jobIds: [held1.id, held2.id] });

    const open = (await createBatch({ jobIds: [mine.id] })).body.data;
    res = await createBatch({ jobIds: [mine.id] });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe(`Job #${mine.id} is already in open batch ${open.number}`);

    const poster = await makeDesign(w, w.tokens.adminA, { name: 'City poster', sku: 'POSTER-1', productType: 'Poster', productPdf: '/files/test/poster.pdf' });
    const card = await job();
    const posterJob = await job({ designId: poster.id, productName: 'City poster', artworkUrls: pages.slice(0, 1) });
    res = await createBatch({ jobIds: [card.id, posterJob.id] });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(`Job #${posterJob.id} is not the same product and size as job #${card.id} (Card 148 × 210 mm): one sheet takes one kind (Card 148 × 210 mm, Poster 297 × 420 mm)`);

    // A poster goes on the poster sheets only (one up): A4 is a card's press sheet.
    res = await createBatch({ jobIds: [posterJob.id], sheet: 'A4' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('There is no "A4" sheet: use one of SRA3, SRA2');
    res = await createBatch({ jobIds: [card.id], sheet: 'B1' });
    expect(res.body.error).toBe('There is no "B1" sheet: use one of SRA3, SRA4, A4, A3');
    expect((await createBatch({ jobIds: [] })).status).toBe(400);
    expect((await createBatch({ jobIds: [card.id, card.id] })).status).toBe(400);
  });

  it('refuses mixing paper stocks, naming the jobs and the stocks; the batch records its stock', async () => {
    const silk = await makeDesign(w, w.tokens.adminA, { name: 'Silk card', sku: 'CARD-SILK', productType: 'Card', stock: '350 gsm silk' });
    const silkToo = await makeDesign(w, w.tokens.adminA, { name: 'Silk card 2', sku: 'CARD-SILK-2', productType: 'Card', stock: ' 350 GSM Silk ' });
    const matt = await makeDesign(w, w.tokens.adminA, { name: 'Matt card', sku: 'CARD-MATT', productType: 'Card', stock: '300 gsm matt' });
    const a = await job({ designId: silk.id });
    const b = await job({ designId: matt.id });
    const c = await job();
    let res = await createBatch({ jobIds: [a.id, b.id, c.id] });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(`Jobs #${b.id} and #${c.id} are on another paper stock than job #${a.id} (350 gsm silk): one sheet takes one stock (350 gsm silk, 300 gsm matt, no stock set)`);
    expect(res.body.details).toEqual({ jobIds: [b.id, c.id] });
    // The same stock written another way is the same paper.
    res = await createBatch({ jobIds: [a.id, (await job({ designId: silkToo.id })).id] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ stock: '350 gsm silk', auto: false, filling: false, closedAt: null, closeReason: null, closesAt: null });
    expect((await createBatch({ jobIds: [c.id] })).body.data.stock).toBeNull();
  });

  it('names the odd ones out: the one poster among many cards, the one matt card among silk ones', async () => {
    const poster = await makeDesign(w, w.tokens.adminA, { name: 'Odd poster', sku: 'POSTER-ODD', productType: 'Poster', productPdf: '/files/test/poster.pdf' });
    const odd = await job({ designId: poster.id, productName: 'Odd poster', artworkUrls: pages.slice(0, 1) });
    const cards = [await job(), await job(), await job(), await job(), await job()];
    // The poster comes first: the batch is still the cards'.
    let res = await createBatch({ jobIds: [odd.id, ...cards.map((c) => c.id)] });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(`Job #${odd.id} is not the same product and size as the other 5 jobs (Card 148 × 210 mm): one sheet takes one kind (Poster 297 × 420 mm, Card 148 × 210 mm)`);
    expect(res.body.details).toEqual({ jobIds: [odd.id] });

    const silk = await makeDesign(w, w.tokens.adminA, { name: 'Odd silk', sku: 'CARD-ODD-SILK', productType: 'Card', stock: '350 gsm silk' });
    const matt = await makeDesign(w, w.tokens.adminA, { name: 'Odd matt', sku: 'CARD-ODD-MATT', productType: 'Card', stock: '300 gsm matt' });
    const mattCard = await job({ designId: matt.id });
    const silkCards = [await job({ designId: silk.id }), await job({ designId: silk.id }), await job({ designId: silk.id })];
    res = await createBatch({ jobIds: [silkCards[0].id, mattCard.id, silkCards[1].id, silkCards[2].id] });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(`Job #${mattCard.id} is on another paper stock than the other 3 jobs (350 gsm silk): one sheet takes one stock (350 gsm silk, 300 gsm matt)`);
    expect(res.body.details).toEqual({ jobIds: [mattCard.id] });
  });

  it('moves only forward; printed marks every job printed by the operator and reports one printed meanwhile by someone else', async () => {
    const jobs = [await job(), await job(), await job()];
    const batch = (await createBatch({ jobIds: jobs.map((j) => j.id) })).body.data;
    // Printed from the Jobs queue by another operator while the sheets were on the press.
    await post('/api/print-jobs', { id: jobs[1].id, isPDFDownloaded: true }, w.tokens.userA2);
    await post('/api/print-jobs', { id: jobs[1].id, isPrinted: true }, w.tokens.userA2);

    let res = await post(`/api/batches/${batch.id}/state`, { state: 'cut' });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe(`Batch ${batch.number} is open: it can only move on to printed`);

    res = await post(`/api/batches/${batch.id}/state`, { state: 'printed' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ state: 'printed', stateChangedByName: 'user-a Tester' });
    expect(res.body.data.printed.done).toEqual([jobs[0].id, jobs[2].id]);
    expect(res.body.data.printed.refused).toEqual([{ id: jobs[1].id, error: expect.stringMatching(/^Already printed by user-a2 Tester/) }]);
    for (const j of [jobs[0], jobs[2]]) expect((await get(`/api/print-jobs/${j.id}`)).body.data).toMatchObject({ isPrinted: true, printedByUserId: w.users.userA, printedByName: 'user-a Tester' });
    // Not counted twice: the other operator's print stands.
    expect((await get(`/api/print-jobs/${jobs[1].id}`)).body.data).toMatchObject({ isPrinted: true, printedByUserId: w.users.userA2 });
    const events = await w.db('print_job_events').where({ job_id: jobs[1].id, kind: 'printed' }).count({ n: '*' });
    expect(Number(events[0].n)).toBe(1);

    // Its jobs are no longer in an open batch: they may be batched again after a reprint.
    expect((await post(`/api/batches/${batch.id}/state`, { state: 'printed' })).status).toBe(409);
    expect((await post(`/api/batches/${batch.id}/state`, { state: 'open' })).status).toBe(409);
    expect((await post(`/api/batches/${batch.id}/state`, { state: 'cut' })).body.data.state).toBe('cut');
    expect((await post(`/api/batches/${batch.id}/state`, { state: 'packed' })).body.data.state).toBe('packed');
    res = await post(`/api/batches/${batch.id}/state`, { state: 'packed' });
    expect(res.body.error).toBe(`Batch ${batch.number} is packed: there is nothing after that`);
    expect((await get('/api/batches?state=packed')).body.data.list.map((b: { id: number }) => b.id)).toContain(batch.id);
    // Another site's staff cannot move it.
    expect((await post(`/api/batches/${batch.id}/state`, { state: 'cut' }, w.tokens.userB)).status).toBe(404);
  });

  it('tells who made each move and when, from the history: not only the last one', async () => {
    const batch = (await createBatch({ jobIds: [(await job()).id] })).body.data;
    expect((await get(`/api/batches/${batch.id}`)).body.data.moves).toEqual([]);
    const printed = await post(`/api/batches/${batch.id}/state`, { state: 'printed' });
    expect(printed.body.data.moves).toEqual([{ state: 'printed', at: expect.any(String), byName: 'user-a Tester' }]);
    expect((await post(`/api/batches/${batch.id}/state`, { state: 'cut' }, w.tokens.userA2)).status).toBe(200);
    expect((await post(`/api/batches/${batch.id}/state`, { state: 'packed' })).status).toBe(200);
    const read = (await get(`/api/batches/${batch.id}`)).body.data;
    expect(read.moves.map((m: { state: string; byName: string }) => [m.state, m.byName])).toEqual([
      ['printed', 'user-a Tester'],
      ['cut', 'user-a2 Tester'],
      ['packed', 'user-a Tester'],
    ]);
    expect(read.moves[0].at).toBe(printed.body.data.stateChangedAt);
    // The batch row keeps only the last move; the history keeps them all.
    expect(read).toMatchObject({ state: 'packed', stateChangedByName: 'user-a Tester' });
  });

  it("refuses the sheets when a job's own PDF is not the batch's size, naming the job", async () => {
    // A pregenerated file is printed as it is: an A6 page among A5 cards cannot be imposed.
    const doc = await PDFDocument.create();
    const mm = 72 / 25.4;
    const page = doc.addPage([111 * mm, 154 * mm]);
    page.setTrimBox(3 * mm, 3 * mm, 105 * mm, 148 * mm);
    const pdfUrl = await upload(await doc.save(), 'a6.pdf', 'application/pdf');
    const card = await job();
    const a6 = await job({ artworkUrls: [], data: { pregeneratedPDF: pdfUrl } });
    // Preflight holds it for its size; an operator approves it anyway.
    expect((await post(`/api/print-jobs/${a6.id}/approve`, {})).status).toBe(200);
    const made = await createBatch({ jobIds: [card.id, a6.id] });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const batch = made.body.data;
    const res = await get(`/api/batches/${batch.id}/pdf`);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe(`Job #${a6.id}'s print file is 105 × 148 mm, not the batch's 148 × 210 mm`);
  });

  it('batches made at the same moment get the next numbers in turn, and only one takes a job', async () => {
    const jobs = await Promise.all(Array.from({ length: 8 }, () => job()));
    const made = await Promise.all(jobs.map((j) => createBatch({ jobIds: [j.id] })));
    for (const r of made) expect(r.status, JSON.stringify(r.body)).toBe(200);
    const numbers = made.map((r) => r.body.data.number as number).sort((x, y) => x - y);
    expect(new Set(numbers).size).toBe(8);
    expect(numbers[7] - numbers[0]).toBe(7);
    // The same job twice at once: one batch takes it, the other is told which batch has it.
    const shared = await job();
    const both = await Promise.all([createBatch({ jobIds: [shared.id] }), createBatch({ jobIds: [shared.id] })]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(both.find((r) => r.status === 409)!.body.error).toMatch(/already in open batch \d+/);
  });

  it('answers a repeated create with the same Idempotency-Key once', async () => {
    const j = await job();
    const first = await w.request().post('/api/batches').set(bearer(w.tokens.userA)).set('Idempotency-Key', 'batch-key-1').send({ jobIds: [j.id] });
    const again = await w.request().post('/api/batches').set(bearer(w.tokens.userA)).set('Idempotency-Key', 'batch-key-1').send({ jobIds: [j.id] });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(first.body.data.id);
  });
});
