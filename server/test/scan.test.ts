// The scan station through the API: an item's barcode moves its job printed → packed through the
// print-job rules, who did it is kept, the answer says where every item of the order is and when
// the order is complete; a scanner's double read, a repeat, a wrong code and another site's job
// are refused with a sentence and change nothing; Reprint clears packed; a batch moved to packed
// packs its jobs.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { orderTablesRepo } from '../src/modules/orders/tablesRepo';
import { bearer, createWorld } from './harness';
import { makeDesign } from './ordersKit';

describe('scan station', async () => {
  const w = await createWorld({ PUBLIC_URL: 'http://presswork.test', SCAN_REPEAT_SECONDS: '5' });
  const post = (path: string, body: unknown, token = w.tokens.userA) => w.request().post(path).set(bearer(token)).send(body as object);
  const get = (path: string, token = w.tokens.userA) => w.request().get(path).set(bearer(token));
  const scan = (code: unknown, token = w.tokens.userA) => post('/api/scan', { code }, token);
  const jobOf = async (id: number) => (await get(`/api/print-jobs/${id}`)).body.data;
  const events = async (id: number, kind: string) => Number((await w.db('print_job_events').where({ job_id: id, kind }).count({ n: '*' }))[0].n);
  const seconds = (n: number) => w.clock.advance(n * 1000);

  const png = await sharp({ create: { width: 1819, height: 2551, channels: 3, background: '#336699' } }).png().toBuffer();
  const grant = await post('/api/users/me/get-upload-url', { serverSidePath: 'artwork/scan-page.png', contentType: 'image/png' });
  const target = new URL(grant.body.data);
  const page = (await w.request().put(`${target.pathname}${target.search}`).set('Content-Type', 'image/png').send(png)).body.data.url as string;
  const pages = [page, page, page, page];

  await makeDesign(w, w.tokens.adminA, { name: 'Thank-you e-card', sku: 'ECARD-THANKS', productType: 'E-card' });
  let orderNumber = 1024;
  /** A store order of site A with these lines (SKUs), named #1024, #1025, … */
  const order = async (skus: string[]) => {
    const id = String(90_000 + orderNumber);
    const name = `#${orderNumber++}`;
    await orderTablesRepo(w.db).insertOrders([
      {
        siteId: w.sites.a,
        orderId: id,
        name,
        status: 'received',
        searchText: name,
        data: { id, name, created_at: '2026-11-20T10:00:00.000Z', line_items: skus.map((sku, i) => ({ id: `${id}-${i + 1}`, sku, title: `${sku} item`, quantity: 1 })) },
        createdAt: '2026-11-20T10:00:00.000Z',
        updatedAt: '2026-11-20T10:00:00.000Z',
      },
    ]);
    return { id, name, line: (n: number) => `${id}-${n}` };
  };
  const job = async (body: Record<string, unknown> = {}, token = w.tokens.userA): Promise<{ id: number }> => {
    const res = await post('/api/print-jobs', { productName: 'Birthday card', artworkUrls: pages, ...body }, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };
  const states = (body: { order: { items: Array<{ lineId: string; state: string }> } }) => Object.fromEntries(body.order.items.map((i) => [i.lineId, i.state]));

  it('scans a 3-item order to complete: each scan prints, the next packs, who and when are kept', async () => {
    const o = await order(['CARD', 'CARD', 'CARD', 'ECARD-THANKS', 'CARD']);
    const [a, b, c] = [await job({ shopifyOrderId: o.id, lineItemId: o.line(1) }), await job({ shopifyOrderId: o.id, lineItemId: o.line(2) }), await job({ shopifyOrderId: o.id, lineItemId: o.line(3) })];
    // Line 5 is made by HP Site Flow: it never holds the order back.
    const hp = await job({ shopifyOrderId: o.id, lineItemId: o.line(5) });
    await w.db('print_jobs').where({ id: hp.id }).update({ made_by: 'provider' });

    let res = await scan(`PJ-${a.id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ advancedTo: 'printed', orderComplete: false });
    expect(res.body.data.job).toMatchObject({ id: a.id, isPrinted: true, printedByUserId: w.users.userA, printedByName: 'user-a Tester', packedAt: null, state: 'printed', itemNumber: 1, itemCount: 3, batchNumber: null, orderName: o.name });
    expect(res.body.data.order).toMatchObject({ id: o.id, siteId: w.sites.a, name: o.name, shipped: false });
    expect(states(res.body.data)).toEqual({ [o.line(1)]: 'printed', [o.line(2)]: 'waiting', [o.line(3)]: 'waiting', [o.line(4)]: 'e-mailed', [o.line(5)]: 'with HP Site Flow' });
    expect(res.body.data.order.items.find((i: { lineId: string }) => i.lineId === o.line(2))).toMatchObject({ jobId: b.id, itemNumber: 2, productName: 'Birthday card' });

    seconds(6);
    // A scanner's Enter and a lower-case reading are the same code.
    res = await scan(` pj-${a.id}\n`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ advancedTo: 'packed', orderComplete: false });
    expect(res.body.data.job).toMatchObject({ packedAt: w.clock.now().toISOString(), packedByUserId: w.users.userA, packedByName: 'user-a Tester', state: 'packed' });
    expect(await events(a.id, 'packed')).toBe(1);
    expect((await w.db('print_job_events').where({ job_id: a.id, kind: 'packed' }).first()).user_id).toBe(w.users.userA);

    // Another packer right after: not a double read (the window is per person).
    expect((await scan(`PJ-${b.id}`)).body.data.advancedTo).toBe('printed');
    res = await scan(`PJ-${b.id}`, w.tokens.userA2);
    expect(res.body.data).toMatchObject({ advancedTo: 'packed', job: { printedByName: 'user-a Tester', packedByName: 'user-a2 Tester' } });

    expect((await scan(`PJ-${c.id}`)).body.data.orderComplete).toBe(false);
    seconds(6);
    res = await scan(`PJ-${c.id}`);
    expect(res.body.data).toMatchObject({ advancedTo: 'packed', orderComplete: true, job: { itemNumber: 3, itemCount: 3, label: `${o.name} · 3 of 3` } });
    expect(states(res.body.data)).toEqual({ [o.line(1)]: 'packed', [o.line(2)]: 'packed', [o.line(3)]: 'packed', [o.line(4)]: 'e-mailed', [o.line(5)]: 'with HP Site Flow' });
    // The job's own view carries it too.
    expect(await jobOf(c.id)).toMatchObject({ packedByName: 'user-a Tester', packedByUserId: w.users.userA });
  });

  it("refuses a scanner's double read within SCAN_REPEAT_SECONDS without a change, and takes the scan after it", async () => {
    const o = await order(['CARD']);
    const j = await job({ shopifyOrderId: o.id, lineItemId: o.line(1) });
    expect((await scan(`PJ-${j.id}`)).body.data.advancedTo).toBe('printed');
    seconds(2);
    let res = await scan(`PJ-${j.id}`);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe(`Scanned twice: ${o.name} · 1 of 1 was marked printed 2 s ago; nothing changed. Scan it again when it is packed.`);
    expect(res.body.details).toMatchObject({ code: 'SCANNED_TWICE', job: { id: j.id, state: 'printed' }, order: { name: o.name }, orderComplete: false });
    expect(await jobOf(j.id)).toMatchObject({ isPrinted: true, packedAt: null });
    expect(await events(j.id, 'packed')).toBe(0);
    expect(await events(j.id, 'printed')).toBe(1);

    seconds(3);
    res = await scan(`PJ-${j.id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ advancedTo: 'packed', orderComplete: true });

    res = await scan(`PJ-${j.id}`);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe(`Scanned twice: ${o.name} · 1 of 1 was marked packed 1 s ago; nothing changed.`);

    // Packed twice, after the window: the rule's refusal, naming who packed it.
    seconds(10);
    res = await scan(`PJ-${j.id}`, w.tokens.userA2);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/^This job was already packed by user-a Tester at \d\d\/\d\d\/\d{4} \d\d:\d\d/);
    expect(res.body.details).toMatchObject({ code: 'ALREADY_PACKED', packedByName: 'user-a Tester', job: { id: j.id, state: 'packed' }, orderComplete: true });
    expect(await jobOf(j.id)).toMatchObject({ packedByUserId: w.users.userA });
    expect(await events(j.id, 'packed')).toBe(1);
  });

  it('refuses a wrong code, a batch cover, an unknown job and another site’s job, changing nothing', async () => {
    let res = await scan('hello');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('“hello” is not a Presswork item barcode (they read PJ-, the job and the copy, e.g. PJ-17-2)');
    res = await scan('PB-7');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("That is the cover of batch 7: scan an item's barcode");
    const mine = await job();
    for (const code of [`PJ-${mine.id} PJ-${mine.id}`, `xPJ-${mine.id}`, `PJ-${mine.id}9x`, `PJ ${mine.id}`]) expect((await scan(code)).status, code).toBe(400);
    for (const body of [{}, { code: '' }, { code: '   ' }, { code: 42 }]) {
      res = await post('/api/scan', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatch(/code/);
    }
    res = await scan('PJ-99999999');
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Print job not found');
    expect((await scan('PJ-99999999999')).status).toBe(404);
    // Site B's staff: site A's job does not exist for them, and it is left as it was.
    res = await scan(`PJ-${mine.id}`, w.tokens.userB);
    expect(res.status).toBe(404);
    expect(res.body.details).toBeUndefined();
    expect(await jobOf(mine.id)).toMatchObject({ isPrinted: false, isPDFDownloaded: false });
    // A job made by hand has no order: it advances, and no order is complete.
    res = await scan(`PJ-${mine.id}`);
    expect(res.body.data).toMatchObject({ advancedTo: 'printed', order: null, orderComplete: false, job: { label: `Job ${mine.id}`, itemNumber: null } });
  });

  it("refuses held, withdrawn and HP's jobs with the rules' sentences, the job and its order attached", async () => {
    const o = await order(['CARD', 'CARD', 'CARD']);
    const held = await job({ shopifyOrderId: o.id, lineItemId: o.line(1) });
    const gone = await job({ shopifyOrderId: o.id, lineItemId: o.line(2) });
    const hp = await job({ shopifyOrderId: o.id, lineItemId: o.line(3) });
    await w.db('print_jobs').where({ id: held.id }).update({ held: true });
    await w.db('print_jobs').where({ id: gone.id }).update({ withdrawn_at: '2026-11-25T10:00:00.000Z', withdrawn_reason: 'The order was cancelled' });
    await w.db('print_jobs').where({ id: hp.id }).update({ made_by: 'provider' });

    let res = await scan(`PJ-${held.id}`);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(new RegExp(`^Held by preflight \\(job #${held.id}\\)`));
    expect(res.body.details).toMatchObject({ code: 'HELD_BY_PREFLIGHT', job: { id: held.id, state: 'held' }, order: { name: o.name } });
    res = await scan(`PJ-${gone.id}`);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe(`This job left the queue unprinted (job #${gone.id}): The order was cancelled`);
    expect(res.body.details.job.state).toBe('withdrawn');
    res = await scan(`PJ-${hp.id}`);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/^This item is made by HP Site Flow/);
    expect(states(res.body.details)).toEqual({ [o.line(1)]: 'held', [o.line(2)]: 'withdrawn', [o.line(3)]: 'with HP Site Flow' });
    for (const j of [held, gone, hp]) expect(await jobOf(j.id)).toMatchObject({ isPrinted: false, isPDFDownloaded: false, packedAt: null });
    // A printed item HP makes now is not packed here either.
    await w.db('print_jobs').where({ id: hp.id }).update({ is_printed: true, printed_at: '2026-11-25T10:00:00.000Z' });
    res = await scan(`PJ-${hp.id}`);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe(`This item is made by HP Site Flow (job #${hp.id}, Birthday card): HP packs and ships it, not this bench`);
    expect((await jobOf(hp.id)).packedAt).toBeNull();
  });

  it('Reprint clears packed: the item is printed and packed again', async () => {
    const j = await job();
    await scan(`PJ-${j.id}`);
    seconds(6);
    expect((await scan(`PJ-${j.id}`)).body.data.advancedTo).toBe('packed');
    const res = await post('/api/print-jobs', { id: j.id, isPDFDownloaded: false, isPrinted: false, isRePrinted: true, reprintReason: 'transitDamage', reprintResponsible: 'carrier' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await jobOf(j.id)).toMatchObject({ isPrinted: false, packedAt: null, packedByUserId: null, packedByName: null, reprintCount: 1 });
    seconds(6);
    expect((await scan(`PJ-${j.id}`)).body.data).toMatchObject({ advancedTo: 'printed', job: { state: 'printed' } });
  });

  it('a batch moved to packed packs each job as the operator and reports one packed meanwhile', async () => {
    const jobs = [await job(), await job()];
    const batch = (await post('/api/batches', { jobIds: jobs.map((j) => j.id) })).body.data;
    expect((await post(`/api/batches/${batch.id}/state`, { state: 'printed' })).body.data.printed.done).toEqual(jobs.map((j) => j.id));
    // The scanned job shows its batch; another packer packs it at the bench meanwhile.
    seconds(6);
    const scanned = await scan(`PJ-${jobs[1].id}`, w.tokens.userA2);
    expect(scanned.body.data).toMatchObject({ advancedTo: 'packed', job: { batchNumber: batch.number } });
    expect((await post(`/api/batches/${batch.id}/state`, { state: 'cut' })).status).toBe(200);
    const res = await post(`/api/batches/${batch.id}/state`, { state: 'packed' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.state).toBe('packed');
    expect(res.body.data.packed.done).toEqual([jobs[0].id]);
    expect(res.body.data.packed.refused).toEqual([{ id: jobs[1].id, error: expect.stringMatching(/^This job was already packed by user-a2 Tester at /) }]);
    expect(await jobOf(jobs[0].id)).toMatchObject({ packedByUserId: w.users.userA, packedByName: 'user-a Tester' });
    expect(await jobOf(jobs[1].id)).toMatchObject({ packedByUserId: w.users.userA2 });
  });
});
