// Print jobs through the API: create, the queue and the history, the state rules, notes, tenancy,
// orders, reports, delete, the admin REST surface, and the print PDF end to end.
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import type { Response } from 'supertest';
import { describe, expect, it } from 'vitest';
import { fromJson } from '../src/db';
import { orderTablesRepo } from '../src/modules/orders/tablesRepo';
import { REPRINT_REASONS, REPRINT_RESPONSIBLES } from '../../common/api/reprints';
import { bearer, createWorld, type TestWorld } from './harness';
import { makeDesign } from './ordersKit';
import { cardDoc } from './renderKit';

interface Job {
  id: number;
  productName: string;
  previewUrl: string | null;
  quantity: number;
  createdAt: string;
  updatedAt: string;
  isPrinted: boolean;
  isPDFDownloaded: boolean;
  isRePrinted: boolean;
  readyForPrint: boolean;
  clientId: number;
  artworkUrls: string[];
  productId: string | null;
  designId: number | null;
  shopifyOrderId: string | null;
  lineItemId: string | null;
  data: Record<string, unknown>;
  downloadedAt: string | null;
  downloadedByUserId: number | null;
  printedAt: string | null;
  printedByUserId: number | null;
  reprintCount: number;
  productionNote: { id: number; note: string } | null;
  orderName?: string | null;
  orderCreatedAt?: string | null;
  printedByName?: string | null;
  clientName?: string | null;
  productType?: string | null;
}

const binary = (res: Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};

const ART = ['/files/art/p1.png', '/files/art/p2.png', '/files/art/p3.png', '/files/art/p4.png'];

function api(w: TestWorld) {
  const post = (path: string, token: string, body: unknown) => w.request().post(path).set(bearer(token)).send(body as object);
  const get = (path: string, token: string) => w.request().get(path).set(bearer(token));
  const del = (path: string, token: string) => w.request().delete(path).set(bearer(token));
  const create = async (token: string, body: Record<string, unknown>): Promise<Job> => {
    const res = await post('/api/print-jobs', token, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };
  const change = (token: string, id: number, flags: Record<string, unknown>) => post('/api/print-jobs', token, { id, ...flags });
  const changed = async (token: string, id: number, flags: Record<string, unknown>): Promise<Job> => {
    const res = await change(token, id, flags);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };
  const list = async (token: string, query = '') => {
    const res = await get(`/api/print-jobs${query}`, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as { list: Job[]; hasNext: boolean; total: number };
  };
  return { post, get, del, create, change, changed, list };
}

describe('print jobs', async () => {
  const w = await createWorld();
  const { post, get, del, create, changed, list } = api(w);
  const ids = (l: { list: Job[] }) => l.list.map((j) => j.id);

  describe('POST /api/print-jobs (create)', () => {
    it("creates a job in the caller's site: every field of the contract, ready because it has artwork", async () => {
      const res = await post('/api/print-jobs', w.tokens.userA, {
        artworkUrls: ART,
        previewUrl: '/files/art/preview.png',
        productId: 9876,
        productName: 'Birthday card',
        quantity: 2,
        data: { product: { physicalWidth: 148, physicalHeight: 210 }, storeProductId: 'sp-1' },
      });
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      const job = res.body.data as Job;
      expect(job).toEqual({
        id: expect.any(Number),
        madeBy: 'inHouse',
        withdrawn: null,
        productName: 'Birthday card',
        previewUrl: '/files/art/preview.png',
        quantity: 2,
        createdAt: w.clock.now().toISOString(),
        updatedAt: w.clock.now().toISOString(),
        isPrinted: false,
        isPDFDownloaded: false,
        isRePrinted: false,
        readyForPrint: true,
        clientId: w.sites.a,
        artworkUrls: ART,
        productId: '9876',
        designId: null,
        shopifyOrderId: null,
        lineItemId: null,
        data: { product: { physicalWidth: 148, physicalHeight: 210 }, storeProductId: 'sp-1', format: 'card-a5' },
        downloadedAt: null,
        downloadedByUserId: null,
        printedAt: null,
        printedByUserId: null,
        printedByName: null,
        packedAt: null,
        packedByUserId: null,
        packedByName: null,
        lastReprint: null,
        reprintCount: 0,
        productionNote: null,
        orderName: null,
        orderCreatedAt: null,
        orderStatus: null,
        stockHold: null,
        clientName: 'Site A',
        productType: null,
        // Counted from when it was made (no order): the cut-off (14:00 in the server's UTC) of a working day; ship-by.test.ts has the rule.
        shipBy: expect.stringMatching(/T14:00:00\.000Z$/),
        due: expect.stringMatching(/^(ok|today|atRisk)$/),
        // Checked when made: its pages are not in storage, which is said (not held: they may come back).
        held: false,
        preflight: ART.map((_, i) => expect.objectContaining({ severity: 'warning', code: 'unreadable', message: expect.stringMatching(new RegExp(`^Page ${i + 1} could not be fetched`)) })),
        preflightApproval: null,
        preflightCheckedAt: w.clock.now().toISOString(),
      });
      const row = await w.db('print_jobs').where({ id: job.id }).first();
      expect(row).toMatchObject({ client_id: w.sites.a, product_name: 'Birthday card', quantity: 2 });
      expect(fromJson(row.artwork_urls, [])).toEqual(ART);
      expect((await get(`/api/print-jobs/${job.id}`, w.tokens.userA)).body.data).toEqual(job);
    });

    it('without artwork or a pregenerated PDF a job is not ready; flags.readyForPrint decides when given; quantity defaults to 1', async () => {
      const bare = await create(w.tokens.userA, { productName: 'Mug' });
      expect(bare).toMatchObject({ readyForPrint: false, quantity: 1, artworkUrls: [] });
      const pdf = await create(w.tokens.userA, { productName: 'Poster', data: { pregeneratedPDF: '/files/x/print.pdf' } });
      expect(pdf.readyForPrint).toBe(true);
      const held = await create(w.tokens.userA, { productName: 'Held', artworkUrls: ART, flags: { readyForPrint: 0 } });
      expect(held.readyForPrint).toBe(false);
      const forced = await create(w.tokens.userA, { productName: 'Forced', flags: { readyForPrint: true } });
      expect(forced.readyForPrint).toBe(true);
    });

    it('the admin UI\'s payload with nulls is accepted (clientId, previewUrl, productId null)', async () => {
      const job = await create(w.tokens.userA, { clientId: null, artworkUrls: ART, previewUrl: null, productId: null, productName: 'From UI', designId: null, quantity: 1 });
      expect(job).toMatchObject({ clientId: w.sites.a, previewUrl: null, productId: null, designId: null });
    });

    it.each([
      [{ productName: 'x', quantity: 0 }, /^Quantity must be at least 1/],
      [{ productName: 'x', quantity: 1.5 }, /^Quantity must be a whole number/],
      [{ productName: 'x', artworkUrls: ['ftp://example.com/a.png'] }, /^Artwork URLs item 1 must be an http\(s\) URL/],
      [{ productName: 'x', artworkUrls: 'not a list' }, /^Artwork URLs\b/],
      [{ productName: 'x', previewUrl: 'javascript:alert(1)' }, /^Preview URL\b/],
      [{ productName: 'x', clientId: 'abc' }, /^Client must be a whole number/],
      [{ productName: '' }, /^Product name is required/],
      [{ quantity: 1 }, /^Product name is required/],
      [{ productName: 'x', designId: 999999 }, /^Design is not one of this site's designs/],
      [{ productName: 'x', flags: { readyForPrint: 'maybe' } }, /^Ready for print must be true or false/],
      [{ productName: 'x', lineItemId: 'L1' }, /^Store order ID is required with a line item ID/],
      [{ productName: 'x', data: { pregeneratedPDF: 'file:///etc/passwd' } }, /^Pregenerated PDF\b/],
    ])('bad input %j → 400 naming the field', async (body, message) => {
      const before = Number((await w.db('print_jobs').count({ n: '*' }).first())?.n);
      const res = await post('/api/print-jobs', w.tokens.userA, body);
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.error).toMatch(message);
      expect(Number((await w.db('print_jobs').count({ n: '*' }).first())?.n)).toBe(before);
    });

    it('a non-admin cannot create a job for another site (403); an admin can, but not for an unknown site (400)', async () => {
      const denied = await post('/api/print-jobs', w.tokens.userA, { clientId: w.sites.b, productName: 'x' });
      expect(denied.status).toBe(403);
      expect(denied.body.error).toBe('You cannot create print jobs for another site');
      expect(await w.db('print_jobs').where({ client_id: w.sites.b, product_name: 'x' }).first()).toBeUndefined();
      const job = await create(w.tokens.adminA, { clientId: w.sites.b, productName: 'For B', artworkUrls: ART });
      expect(job.clientId).toBe(w.sites.b);
      const unknown = await post('/api/print-jobs', w.tokens.adminA, { clientId: 999999, productName: 'x' });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error).toBe('Client does not exist.');
    });

    it('an order line gets one job only: the second → 409 and no second row', async () => {
      const first = await create(w.tokens.userA, { productName: 'Order card', artworkUrls: ART, shopifyOrderId: 5550001, lineItemId: 'L-1' });
      expect(first).toMatchObject({ shopifyOrderId: '5550001', lineItemId: 'L-1' });
      const again = await post('/api/print-jobs', w.tokens.userA, { productName: 'Order card', artworkUrls: ART, shopifyOrderId: '5550001', lineItemId: 'L-1' });
      expect(again.status).toBe(409);
      expect(again.body.error).toBe('This order line already has a print job');
      // Two at once: the database keeps exactly one.
      const racing = await Promise.all([1, 2, 3].map(() => post('/api/print-jobs', w.tokens.userA, { productName: 'Race', shopifyOrderId: '5550002', lineItemId: 'L-9' })));
      expect(racing.map((r) => r.status).sort()).toEqual([200, 409, 409]);
      expect((await w.db('print_jobs').where({ shopify_order_id: '5550002' })).length).toBe(1);
    });

    it('without a token → 401', async () => {
      expect((await w.request().post('/api/print-jobs').send({ productName: 'x' })).status).toBe(401);
      expect((await w.request().get('/api/print-jobs')).status).toBe(401);
    });
  });

  describe('the queue and the history (GET /api/print-jobs)', async () => {
    const world = await createWorld();
    const a = api(world);
    const made: Job[] = [];

    it('queue = readyForPrint=1&isPrinted=0, oldest first, 20 a page; hasNext and total', async () => {
      for (let i = 0; i < 23; i++) {
        world.clock.advance(60_000);
        made.push(await a.create(i % 2 ? world.tokens.userA : world.tokens.userA2, { productName: `Card ${i}`, artworkUrls: ART }));
      }
      await a.create(world.tokens.userA, { productName: 'Not ready' });
      await a.create(world.tokens.userB, { productName: 'On B', artworkUrls: ART });
      const page1 = await a.list(world.tokens.userA, '?readyForPrint=1&isPrinted=0');
      expect(page1.total).toBe(23);
      expect(page1.hasNext).toBe(true);
      expect(ids(page1)).toEqual(made.slice(0, 20).map((j) => j.id));
      const page2 = await a.list(world.tokens.userA, '?readyForPrint=1&isPrinted=0&page=2');
      expect(ids(page2)).toEqual(made.slice(20).map((j) => j.id));
      expect(page2.hasNext).toBe(false);
      const small = await a.list(world.tokens.userA, '?readyForPrint=1&isPrinted=0&pageSize=5&page=2');
      expect(ids(small)).toEqual(made.slice(5, 10).map((j) => j.id));
      const all = await a.list(world.tokens.userA, '?pageSize=100');
      expect(all.total).toBe(24);
    });

    it('download → printed → in the history (most recently printed first) → reprint → back in the queue', async () => {
      const [j1, j2, j3] = made;
      for (const j of [j3, j1, j2]) {
        world.clock.advance(1000);
        const downloaded = await a.changed(world.tokens.userA, j.id, { isPDFDownloaded: true });
        expect(downloaded).toMatchObject({ isPDFDownloaded: true, isPrinted: false, downloadedByUserId: world.users.userA });
        const printed = await a.changed(world.tokens.userA2, j.id, { isPrinted: true });
        expect(printed).toMatchObject({ isPDFDownloaded: true, isPrinted: true, printedAt: world.clock.now().toISOString(), printedByUserId: world.users.userA2 });
      }
      const history = await a.list(world.tokens.userA, '?readyForPrint=1&isPrinted=1');
      expect(ids(history)).toEqual([j2.id, j1.id, j3.id]);
      expect(history.total).toBe(3);
      const queue = await a.list(world.tokens.userA, '?readyForPrint=1&isPrinted=0&pageSize=100');
      expect(ids(queue)).not.toContain(j1.id);
      expect(queue.total).toBe(20);

      const reprinted = await a.changed(world.tokens.userA, j1.id, { isPDFDownloaded: false, isPrinted: false, isRePrinted: true, reprintReason: 'printDefect', reprintResponsible: 'shop' });
      expect(reprinted).toMatchObject({ isPDFDownloaded: false, isPrinted: false, isRePrinted: true, reprintCount: 1 });
      expect(ids(await a.list(world.tokens.userA, '?readyForPrint=1&isPrinted=1'))).toEqual([j2.id, j3.id]);
      const back = await a.list(world.tokens.userA, '?readyForPrint=1&isPrinted=0&pageSize=100');
      expect(ids(back)[0]).toBe(j1.id); // oldest first: it keeps its place
      // Printed a second time, it is the most recent in the history.
      world.clock.advance(1000);
      await a.changed(world.tokens.userA, j1.id, { isPDFDownloaded: true });
      await a.changed(world.tokens.userA, j1.id, { isPrinted: 1 });
      expect(ids(await a.list(world.tokens.userA, '?readyForPrint=1&isPrinted=1'))).toEqual([j1.id, j2.id, j3.id]);

      const events = await world.db('print_job_events').where({ job_id: j1.id }).orderBy('id');
      expect(events.map((e) => e.kind)).toEqual(['downloaded', 'printed', 'reprinted', 'downloaded', 'printed']);
      expect(events.every((e) => e.site_id === world.sites.a)).toBe(true);
      expect(events[1].user_id).toBe(world.users.userA2);
    });

    it('✗ on "Have you printed?" resets both flags; the job stays in the queue', async () => {
      const j = made[5];
      await a.changed(world.tokens.userA, j.id, { isPDFDownloaded: true });
      const reset = await a.changed(world.tokens.userA, j.id, { isPDFDownloaded: false, isPrinted: false });
      expect(reset).toMatchObject({ isPDFDownloaded: false, isPrinted: false, isRePrinted: false });
      expect((await world.db('print_job_events').where({ job_id: j.id }).orderBy('id')).map((e) => e.kind)).toEqual(['downloaded', 'reset']);
    });

    it.each([
      ['printing a job that was not downloaded', (j: Job[]) => j[6], [{ isPrinted: true }], 'Download the PDF before marking the job printed'],
      ['printing twice', (j: Job[]) => j[1], [{ isPrinted: true }], 'This job is already printed'],
      ['downloading a printed job by flag', (j: Job[]) => j[1], [{ isPDFDownloaded: true }], 'This job is already printed'],
      ['✗ on a printed job', (j: Job[]) => j[1], [{ isPDFDownloaded: false, isPrinted: false }], 'This job is already printed; use Reprint to put it back in the queue'],
      ['reprinting a job in the queue', (j: Job[]) => j[6], [{ isPDFDownloaded: false, isPrinted: false, isRePrinted: true, reprintReason: 'printDefect', reprintResponsible: 'shop' }], 'Only a printed job can be reprinted'],
      ['flags that make no change', (j: Job[]) => j[6], [{ isPrinted: true, isRePrinted: true }], /^This change is not possible/],
    ] as const)('%s → 409 with the reason, nothing changes, nothing recorded', async (_name, pick, [flags], message) => {
      const j = pick(made);
      const before = await a.get(`/api/print-jobs/${j.id}`, world.tokens.userA);
      const events = (await world.db('print_job_events').where({ job_id: j.id })).length;
      const res = await a.change(world.tokens.userA, j.id, flags);
      expect(res.status).toBe(409);
      expect(res.body.success).toBe(false);
      if (typeof message === 'string') expect(res.body.error).toBe(message);
      else expect(res.body.error).toMatch(message);
      expect((await a.get(`/api/print-jobs/${j.id}`, world.tokens.userA)).body.data).toEqual(before.body.data);
      expect((await world.db('print_job_events').where({ job_id: j.id })).length).toBe(events);
    });

    it('two operators marking the same job printed at once: exactly one succeeds', async () => {
      const j = made[7];
      await a.changed(world.tokens.userA, j.id, { isPDFDownloaded: true });
      const answers = await Promise.all([a.change(world.tokens.userA, j.id, { isPrinted: true }), a.change(world.tokens.userA2, j.id, { isPrinted: true })]);
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(answers.find((r) => r.status === 409)!.body.error).toBe('This job is already printed');
      expect((await world.db('print_job_events').where({ job_id: j.id, kind: 'printed' })).length).toBe(1);
    });

    it('admin REST sort by printedAt: most recently printed first, never-printed jobs last (both engines)', async () => {
      const res = await a.get(`/api/admin/print-jobs?sort=${encodeURIComponent('["printedAt","DESC"]')}&range=${encodeURIComponent('[0,99]')}`, world.tokens.adminA);
      expect(res.status).toBe(200);
      const printedAt = (res.body as Job[]).map((j) => j.printedAt);
      const firstNull = printedAt.indexOf(null);
      expect(firstNull).toBeGreaterThan(0);
      expect(printedAt.slice(firstNull).every((p) => p === null)).toBe(true);
      expect(printedAt.slice(0, firstNull)).toEqual([...printedAt.slice(0, firstNull)].sort().reverse());
    });

    it('a bad flag value → 400 naming the field; an unknown job → 404', async () => {
      const bad = await a.change(world.tokens.userA, made[8].id, { isPrinted: 'yes' });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatch(/^Printed must be true or false/);
      const unknown = await a.change(world.tokens.userA, 999999, { isPrinted: true });
      expect(unknown.status).toBe(404);
      const badId = await a.post('/api/print-jobs', world.tokens.userA, { id: 'abc', isPrinted: true });
      expect(badId.status).toBe(400);
      expect(badId.body.error).toMatch(/^ID\b/);
    });

    it("tenancy: a user sees and changes only their site's jobs (another site's → 404); an admin sees all, or one site with clientId", async () => {
      const onB = await a.create(world.tokens.userB, { productName: 'B job', artworkUrls: ART });
      const asA = await a.list(world.tokens.userA, '?pageSize=100');
      expect(asA.list.every((j) => j.clientId === world.sites.a)).toBe(true);
      // Naming another site is the same as naming a site that does not exist.
      expect((await a.get(`/api/print-jobs?pageSize=100&clientId=${world.sites.b}`, world.tokens.userA)).status).toBe(404);
      expect((await a.get(`/api/print-jobs/${onB.id}`, world.tokens.userA)).status).toBe(404);
      const change = await a.change(world.tokens.userA, onB.id, { isPDFDownloaded: true });
      expect(change.status).toBe(404);
      expect((await world.db('print_jobs').where({ id: onB.id }).first()).is_pdf_downloaded).toBeFalsy();
      expect((await a.del(`/api/print-jobs/${onB.id}`, world.tokens.userA)).status).toBe(404);
      expect(await world.db('print_jobs').where({ id: onB.id }).first()).toBeTruthy();

      const all = await a.list(world.tokens.adminA, '?pageSize=100');
      expect(all.total).toBe(asA.total + 2);
      const onlyB = await a.list(world.tokens.adminA, `?clientId=${world.sites.b}`);
      expect(onlyB.list.every((j) => j.clientId === world.sites.b)).toBe(true);
      expect(onlyB.total).toBe(2);
      expect((await a.get(`/api/print-jobs/${onB.id}`, world.tokens.adminA)).status).toBe(200);
    });

    it.each(['?page=0', '?page=abc', '?isPrinted=maybe', '?readyForPrint=2', '?pageSize=101', '?clientId=x'])('%s → 400 naming the parameter', async (query) => {
      const res = await a.get(`/api/print-jobs${query}`, world.tokens.userA);
      expect(res.status).toBe(400);
      expect(['page', 'isPrinted', 'readyForPrint', 'pageSize', 'clientId']).toContain(res.body.field);
    });
  });

  describe('production notes', () => {
    it("each job carries its production note (the newest), joined into list and get; another site's note on it is ignored", async () => {
      const j1 = await create(w.tokens.userA, { productName: 'Noted', artworkUrls: ART });
      const j2 = await create(w.tokens.userA, { productName: 'Plain', artworkUrls: ART });
      const first = await post('/api/general-data/production-note', w.tokens.userA, { field1: String(j1.id), data: { note: 'Matte stock' } });
      expect(first.status).toBe(200);
      const intruder = await post('/api/general-data/production-note', w.tokens.userB, { field1: String(j2.id), data: { note: 'Not yours' } });
      expect(intruder.status).toBe(200);
      const got = (await get(`/api/print-jobs/${j1.id}`, w.tokens.userA)).body.data as Job;
      expect(got.productionNote).toEqual({ id: first.body.data.id, note: 'Matte stock' });
      const edited = await post('/api/general-data/production-note', w.tokens.userA2, { id: first.body.data.id, field1: String(j1.id), data: { note: 'Gloss stock' } });
      expect(edited.status).toBe(200);
      const page = await list(w.tokens.userA, '?pageSize=100');
      expect(page.list.find((j) => j.id === j1.id)!.productionNote).toEqual({ id: first.body.data.id, note: 'Gloss stock' });
      expect(page.list.find((j) => j.id === j2.id)!.productionNote).toBeNull();
      // An admin's note (written in the admin's own site) counts for a job of another site.
      const onB = await create(w.tokens.userB, { productName: 'B noted', artworkUrls: ART });
      const adminNote = await post('/api/general-data/production-note', w.tokens.adminA, { field1: String(onB.id), data: { note: 'Rush' } });
      expect((await get(`/api/print-jobs/${onB.id}`, w.tokens.userB)).body.data.productionNote).toEqual({ id: adminNote.body.data.id, note: 'Rush' });
    });

    it('a page of jobs with notes is read in one query for the jobs (no query per job)', async () => {
      const queries: string[] = [];
      const onQuery = (q: { sql: string }) => queries.push(q.sql);
      w.db.on('query', onQuery);
      try {
        await list(w.tokens.adminA, '?pageSize=100');
      } finally {
        w.db.removeListener('query', onQuery);
      }
      const jobQueries = queries.filter((sql) => /from .print_jobs/i.test(sql));
      expect(jobQueries).toHaveLength(2); // the page and its count
      expect(jobQueries.some((sql) => /general_data/.test(sql))).toBe(true);
    });
  });

  describe('DELETE /api/print-jobs/:id', () => {
    it('deletes the job, its production notes and its history; answers the job', async () => {
      const job = await create(w.tokens.userA, { productName: 'To delete', artworkUrls: ART });
      await changed(w.tokens.userA, job.id, { isPDFDownloaded: true });
      const n1 = await post('/api/general-data/production-note', w.tokens.userA, { field1: String(job.id), data: { note: 'a' } });
      const n2 = await post('/api/general-data/production-note', w.tokens.userA2, { field1: String(job.id), data: { note: 'b' } });
      const other = await post('/api/general-data/production-note', w.tokens.userA, { field1: 'not-a-job', data: { note: 'keep' } });
      const res = await del(`/api/print-jobs/${job.id}`, w.tokens.userA);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id: job.id, productName: 'To delete', productionNote: { id: n2.body.data.id, note: 'b' } });
      expect(await w.db('print_jobs').where({ id: job.id }).first()).toBeUndefined();
      expect(await w.db('general_data').whereIn('id', [n1.body.data.id, n2.body.data.id])).toEqual([]);
      expect(await w.db('general_data').where({ id: other.body.data.id }).first()).toBeTruthy();
      expect(await w.db('print_job_events').where({ job_id: job.id })).toEqual([]);
      expect((await get(`/api/print-jobs/${job.id}`, w.tokens.userA)).status).toBe(404);
      expect((await del(`/api/print-jobs/${job.id}`, w.tokens.userA)).status).toBe(404);
      expect((await del('/api/print-jobs/abc', w.tokens.userA)).status).toBe(404);
    });
  });

  describe('GET /api/print-jobs/from-shopify-order/:orderId', () => {
    it("lists that order's jobs (hasNext false), in the caller's site only", async () => {
      const l1 = await create(w.tokens.userA, { productName: 'Line 1', artworkUrls: ART, shopifyOrderId: '880001', lineItemId: '1' });
      const l2 = await create(w.tokens.userA, { productName: 'Line 2', artworkUrls: ART, shopifyOrderId: '880001', lineItemId: '2' });
      await create(w.tokens.userA, { productName: 'Other order', artworkUrls: ART, shopifyOrderId: '880002', lineItemId: '1' });
      const res = await get('/api/print-jobs/from-shopify-order/880001', w.tokens.userA);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ hasNext: false, total: 2 });
      expect(res.body.data.list.map((j: Job) => j.id)).toEqual([l1.id, l2.id]);
      const none = await get('/api/print-jobs/from-shopify-order/880001', w.tokens.userB);
      expect(none.body.data).toEqual({ list: [], hasNext: false, total: 0 });
      expect((await get('/api/print-jobs/from-shopify-order/880001', w.tokens.adminB)).body.data.total).toBe(2);
      expect((await get('/api/print-jobs/from-shopify-order/nothing', w.tokens.userA)).body.data.total).toBe(0);
      const long = await get(`/api/print-jobs/from-shopify-order/${'9'.repeat(65)}`, w.tokens.userA);
      expect(long.status).toBe(400);
    });
  });

  describe('admin REST /api/admin/print-jobs', () => {
    const q = (params: Record<string, unknown>) =>
      Object.entries(params)
        .map(([k, v]) => `${k}=${encodeURIComponent(JSON.stringify(v))}`)
        .join('&');

    it('lists with filters (isPrinted, readyForPrint, clientId, designId) and Content-Range; same tenancy', async () => {
      const res = await get(`/api/admin/print-jobs?${q({ filter: { clientId: w.sites.b }, sort: ['id', 'ASC'], range: [0, 99] })}`, w.tokens.adminA);
      expect(res.status).toBe(200);
      expect(Array.isArray(res.body)).toBe(true);
      expect(res.body.length).toBeGreaterThan(0);
      expect(res.body.every((j: Job) => j.clientId === w.sites.b)).toBe(true);
      expect(res.headers['content-range']).toBe(`print-jobs 0-${res.body.length - 1}/${res.body.length}`);
      const ready = await get(`/api/admin/print-jobs?${q({ filter: { readyForPrint: false }, range: [0, 99] })}`, w.tokens.adminA);
      expect(ready.body.every((j: Job) => !j.readyForPrint)).toBe(true);
      const mine = await get(`/api/admin/print-jobs?${q({ range: [0, 99] })}`, w.tokens.userA);
      expect(mine.body.every((j: Job) => j.clientId === w.sites.a)).toBe(true);
      expect((await get(`/api/admin/print-jobs?${q({ filter: { clientId: w.sites.b }, range: [0, 99] })}`, w.tokens.userA)).status).toBe(404);
      const bad = await get(`/api/admin/print-jobs?${q({ filter: { isPrinted: 'perhaps' } })}`, w.tokens.adminA);
      expect(bad.status).toBe(400);
      expect(bad.body.field).toBe('filter.isPrinted');
    });

    it('getOne, create, update (a state change, same rules), delete', async () => {
      const created = await post('/api/admin/print-jobs', w.tokens.userA, { productName: 'REST job', artworkUrls: ART });
      expect(created.status).toBe(201);
      const id = created.body.id as number;
      expect((await get(`/api/admin/print-jobs/${id}`, w.tokens.userA)).body).toMatchObject({ id, productName: 'REST job' });
      expect((await get(`/api/admin/print-jobs/${id}`, w.tokens.userB)).status).toBe(404);
      const early = await w.request().put(`/api/admin/print-jobs/${id}`).set(bearer(w.tokens.userA)).send({ isPrinted: true });
      expect(early.status).toBe(409);
      expect(early.body.error).toBe('Download the PDF before marking the job printed');
      const dl = await w.request().put(`/api/admin/print-jobs/${id}`).set(bearer(w.tokens.userA)).send({ isPDFDownloaded: true });
      expect(dl.status).toBe(200);
      expect(dl.body).toMatchObject({ id, isPDFDownloaded: true });
      const removed = await w.request().delete(`/api/admin/print-jobs/${id}`).set(bearer(w.tokens.userA));
      expect(removed.status).toBe(200);
      expect(await w.db('print_jobs').where({ id }).first()).toBeUndefined();
    });
  });
});

describe('print jobs and their store order (name, placed at)', async () => {
  const w = await createWorld();
  const { create, get } = api(w);
  const placedAt = '2026-11-01T08:30:00.000Z';
  const storeOrder = (siteId: number, orderId: string, name: string, createdAt: string) => ({
    siteId, orderId, name, status: 'received', searchText: name, data: { id: orderId, name, created_at: createdAt, line_items: [{ id: `${orderId}-1`, sku: 'X', quantity: 1 }] }, createdAt, updatedAt: createdAt,
  });

  it("a job of a store order carries the order's name and when it was placed; a job made by hand has neither", async () => {
    await orderTablesRepo(w.db).insertOrders([
      storeOrder(w.sites.a, '5550001', '#1042', placedAt),
      // The same store order id in another site: never the job's.
      storeOrder(w.sites.b, '5550001', '#B-9', '2020-01-01T00:00:00.000Z'),
    ]);
    const ofOrder = await create(w.tokens.userA, { productName: 'Order card', artworkUrls: ART, shopifyOrderId: '5550001', lineItemId: '5550001-1' });
    const byHand = await create(w.tokens.userA, { productName: 'Hand card', artworkUrls: ART });
    expect(ofOrder).toMatchObject({ orderName: '#1042', orderCreatedAt: placedAt });
    expect(byHand).toMatchObject({ orderName: null, orderCreatedAt: null });
    expect((await get(`/api/print-jobs/${ofOrder.id}`, w.tokens.userA)).body.data).toMatchObject({ orderName: '#1042', orderCreatedAt: placedAt });
    const queue = (await get('/api/print-jobs?readyForPrint=1&isPrinted=0&pageSize=100', w.tokens.userA)).body.data.list as Job[];
    expect(queue.find((j) => j.id === ofOrder.id)).toMatchObject({ orderName: '#1042', orderCreatedAt: placedAt });
    expect(queue.find((j) => j.id === byHand.id)).toMatchObject({ orderName: null, orderCreatedAt: null });
  });

  it('a page of 100 jobs of 100 orders is read in two queries (the page and its count)', async () => {
    const orders = Array.from({ length: 100 }, (_, i) => storeOrder(w.sites.a, `66600${i}`, `#2${String(i).padStart(3, '0')}`, placedAt));
    await orderTablesRepo(w.db).insertOrders(orders);
    for (const o of orders) await create(w.tokens.userA, { productName: 'Bulk card', artworkUrls: ART, shopifyOrderId: o.orderId, lineItemId: `${o.orderId}-1` });
    const queries: string[] = [];
    const onQuery = (q: { sql: string }) => queries.push(q.sql);
    w.db.on('query', onQuery);
    let page: Job[];
    try {
      page = (await get('/api/print-jobs?q=bulk&pageSize=100', w.tokens.userA)).body.data.list;
    } finally {
      w.db.removeListener('query', onQuery);
    }
    expect(page).toHaveLength(100);
    expect(new Set(page.map((j) => j.orderName)).size).toBe(100);
    expect(queries.filter((sql) => /store_orders/.test(sql))).toHaveLength(1);
    expect(queries.filter((sql) => /from .print_jobs/i.test(sql))).toHaveLength(2);
  });
});

describe('print reports (GET /api/print-jobs/reports)', async () => {
  // The report runs on fixed days in 2030: tokens (signed at the real time) must outlive the test clock.
  const w = await createWorld({ JWT_EXPIRES_IN: '5000d' });
  const { create, changed, get } = api(w);
  const at = (iso: string) => w.clock.set(new Date(iso));

  it('figures computed from known data', async () => {
    at('2030-03-01T08:00:00.000Z');
    const card = await create(w.tokens.userA, { productName: 'Card', quantity: 2, artworkUrls: ART });
    const card2 = await create(w.tokens.userA, { productName: 'Card', quantity: 3, artworkUrls: ART });
    const mug = await create(w.tokens.userA, { productName: 'Mug', quantity: 1, artworkUrls: ART });
    const waiting = await create(w.tokens.userA, { productName: 'Poster', quantity: 1, artworkUrls: ART });
    at('2030-03-01T09:00:00.000Z');
    const waiting2 = await create(w.tokens.userA, { productName: 'Poster', quantity: 4, artworkUrls: ART });
    const onB = await create(w.tokens.userB, { productName: 'Card', quantity: 10, artworkUrls: ART });
    const print = async (job: Job, token = w.tokens.userA) => {
      await changed(token, job.id, { isPDFDownloaded: true });
      await changed(token, job.id, { isPrinted: true });
    };
    at('2030-03-02T10:00:00.000Z');
    await print(card);
    await print(mug);
    await print(onB, w.tokens.userB);
    at('2030-03-03T23:59:59.000Z');
    await print(card2);
    // The mug comes out wrong and is printed again the next day.
    at('2030-03-04T07:00:00.000Z');
    await changed(w.tokens.userA, mug.id, { isPDFDownloaded: false, isPrinted: false, isRePrinted: true, reprintReason: 'printDefect', reprintResponsible: 'shop' });
    at('2030-03-04T08:00:00.000Z');
    await print(mug);
    at('2030-03-10T12:00:00.000Z');

    const res = await get('/api/print-jobs/reports?from=2030-03-01&to=2030-03-05', w.tokens.userA);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      from: '2030-03-01',
      to: '2030-03-05',
      clientId: w.sites.a,
      printedPerDay: [
        { day: '2030-03-02', jobs: 2, quantity: 3 },
        { day: '2030-03-03', jobs: 1, quantity: 3 },
        { day: '2030-03-04', jobs: 1, quantity: 1 },
      ],
      bucket: 'day',
      printedPerPeriod: [
        { start: '2030-03-01', end: '2030-03-01', jobs: 0, quantity: 0 },
        { start: '2030-03-02', end: '2030-03-02', jobs: 2, quantity: 3 },
        { start: '2030-03-03', end: '2030-03-03', jobs: 1, quantity: 3 },
        { start: '2030-03-04', end: '2030-03-04', jobs: 1, quantity: 1 },
        { start: '2030-03-05', end: '2030-03-05', jobs: 0, quantity: 0 },
      ],
      totals: { jobs: 4, quantity: 7 },
      perProduct: [
        { productName: 'Card', jobs: 2, quantity: 5 },
        { productName: 'Mug', jobs: 2, quantity: 2 },
      ],
      reprints: {
        printed: 4,
        reprinted: 1,
        rate: 0.25,
        byReason: REPRINT_REASONS.map((reason) => ({ reason, reprints: reason === 'printDefect' ? 1 : 0, rate: reason === 'printDefect' ? 0.25 : 0 })),
        byResponsible: REPRINT_RESPONSIBLES.map((responsible) => ({ responsible, reprints: responsible === 'shop' ? 1 : 0, rate: responsible === 'shop' ? 0.25 : 0 })),
        byProduct: [{ productName: 'Mug', printed: 2, reprints: 1, rate: 0.5 }],
      },
      shipping: { shippedLines: 0, averageOrderToShipHours: null, onTime: null },
      oldestUnprinted: [expect.objectContaining({ id: waiting.id }), expect.objectContaining({ id: waiting2.id })],
    });

    // One day only; the admin across all sites; the admin for site B.
    const day = (await get('/api/print-jobs/reports?from=2030-03-02&to=2030-03-02', w.tokens.userA)).body.data;
    expect(day.printedPerDay).toEqual([{ day: '2030-03-02', jobs: 2, quantity: 3 }]);
    expect(day.reprints).toMatchObject({ printed: 2, reprinted: 0, rate: 0, byProduct: [] });
    const all = (await get('/api/print-jobs/reports?from=2030-03-01&to=2030-03-05', w.tokens.adminA)).body.data;
    expect(all.clientId).toBeNull();
    expect(all.printedPerDay[0]).toEqual({ day: '2030-03-02', jobs: 3, quantity: 13 });
    expect(all.perProduct[0]).toEqual({ productName: 'Card', jobs: 3, quantity: 15 });
    const b = (await get(`/api/print-jobs/reports?from=2030-03-01&to=2030-03-05&clientId=${w.sites.b}`, w.tokens.adminA)).body.data;
    expect(b.printedPerDay).toEqual([{ day: '2030-03-02', jobs: 1, quantity: 10 }]);
    expect(b.oldestUnprinted).toEqual([]);
    // A non-admin gets their own site; naming another site is 404, as for a site that does not exist.
    expect((await get(`/api/print-jobs/reports?from=2030-03-01&to=2030-03-05&clientId=${w.sites.b}`, w.tokens.userA)).status).toBe(404);
    const own = (await get(`/api/print-jobs/reports?from=2030-03-01&to=2030-03-05`, w.tokens.userA)).body.data;
    expect(own.clientId).toBe(w.sites.a);
    expect(own.reprints.printed).toBe(4);
    // Without dates: the last 30 days up to today.
    const recent = (await get('/api/print-jobs/reports', w.tokens.userA)).body.data;
    expect(recent).toMatchObject({ from: '2030-02-09', to: '2030-03-10' });
    expect(recent.reprints.printed).toBe(4);
  });

  it('any range, however long, gives one total: totals = per product = the series, which covers the range', async () => {
    const printAt = async (iso: string, productName: string, quantity: number) => {
      at(iso);
      const job = await create(w.tokens.userA, { productName, quantity, artworkUrls: ART });
      await changed(w.tokens.userA, job.id, { isPDFDownloaded: true });
      await changed(w.tokens.userA, job.id, { isPrinted: true });
    };
    // Both ends of a 26-year range, and between.
    await printAt('2000-01-01T00:00:00.000Z', 'Early card', 2);
    await printAt('2000-12-31T23:00:00.000Z', 'Early card', 1);
    await printAt('2012-06-15T12:00:00.000Z', 'Mid mug', 5);
    await printAt('2025-12-31T23:59:59.000Z', 'Late poster', 3);
    at('2026-01-10T12:00:00.000Z');
    const sum = (xs: Array<{ jobs: number; quantity: number }>) => xs.reduce((a, x) => ({ jobs: a.jobs + x.jobs, quantity: a.quantity + x.quantity }), { jobs: 0, quantity: 0 });

    const long = (await get('/api/print-jobs/reports?from=2000-01-01&to=2025-12-31', w.tokens.userA)).body.data;
    expect(long.totals).toEqual({ jobs: 4, quantity: 11 });
    expect(sum(long.perProduct)).toEqual(long.totals);
    expect(sum(long.printedPerPeriod)).toEqual(long.totals);
    expect(long.bucket).toBe('month');
    expect(long.printedPerPeriod).toHaveLength(26 * 12);
    expect(long.printedPerPeriod[0]).toEqual({ start: '2000-01-01', end: '2000-01-31', jobs: 1, quantity: 2 });
    expect(long.printedPerPeriod[11]).toEqual({ start: '2000-12-01', end: '2000-12-31', jobs: 1, quantity: 1 });
    expect(long.printedPerPeriod.at(-1)).toEqual({ start: '2025-12-01', end: '2025-12-31', jobs: 1, quantity: 3 });
    // Buckets follow each other with no gap and no overlap.
    for (let i = 1; i < long.printedPerPeriod.length; i++) {
      expect(Date.parse(long.printedPerPeriod[i].start) - Date.parse(long.printedPerPeriod[i - 1].end)).toBe(24 * 3600 * 1000);
    }

    // A year: weeks from Monday, the first and last cut to the range.
    const year = (await get('/api/print-jobs/reports?from=2000-01-01&to=2000-12-31', w.tokens.userA)).body.data;
    expect(year.bucket).toBe('week');
    expect(year.totals).toEqual({ jobs: 2, quantity: 3 });
    expect(sum(year.printedPerPeriod)).toEqual(year.totals);
    expect(sum(year.perProduct)).toEqual(year.totals);
    // 1 January 2000 was a Saturday.
    expect(year.printedPerPeriod[0]).toEqual({ start: '2000-01-01', end: '2000-01-02', jobs: 1, quantity: 2 });
    expect(year.printedPerPeriod[1]).toMatchObject({ start: '2000-01-03', end: '2000-01-09' });
    expect(year.printedPerPeriod.at(-1)).toEqual({ start: '2000-12-25', end: '2000-12-31', jobs: 1, quantity: 1 });

    // Up to 92 days: a bucket a day.
    const quarter = (await get('/api/print-jobs/reports?from=2025-10-01&to=2025-12-31', w.tokens.userA)).body.data;
    expect(quarter.bucket).toBe('day');
    expect(quarter.printedPerPeriod).toHaveLength(92);
    expect(quarter.printedPerPeriod.at(-1)).toEqual({ start: '2025-12-31', end: '2025-12-31', jobs: 1, quantity: 3 });
    expect((await get('/api/print-jobs/reports?from=2025-10-01&to=2026-01-01', w.tokens.userA)).body.data.bucket).toBe('week');
  });

  it.each([
    ['?from=2030-3-1', /^From must be a date YYYY-MM-DD/],
    ['?to=2030-02-30', /^To is not a real date/],
    ['?from=2030-03-05&to=2030-03-01', /^From must not be after To/],
    ['?clientId=abc', /^Client\b/],
  ])('%s → 400 naming the parameter', async (query, message) => {
    const res = await get(`/api/print-jobs/reports${query}`, w.tokens.userA);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
  });
});

describe('POST /api/pdf/from-print-job', async () => {
  // With PUBLIC_URL set, upload links and file addresses are absolute on that origin, which is ours.
  const w = await createWorld({ PUBLIC_URL: 'http://presswork.test' });
  const { post, get, create, change, changed } = api(w);

  const png = (colour: string) => sharp({ create: { width: 30, height: 42, channels: 3, background: colour } }).png().toBuffer();
  /** The spec's presigned-upload flow: ask for a link, PUT the file, get its /files/… address. */
  const upload = async (bytes: Buffer, name: string, contentType = 'image/png', token = w.tokens.userA) => {
    const grant = await post('/api/users/me/get-upload-url', token, { serverSidePath: `artwork/${name}`, contentType });
    expect(grant.status).toBe(200);
    const url = new URL(grant.body.data);
    const put = await w.request().put(`${url.pathname}${url.search}`).set('Content-Type', contentType).send(bytes);
    expect(put.status).toBe(200);
    expect(grant.headers['x-file-url']).toBe(`http://presswork.test${put.body.data.url}`);
    return put.body.data.url as string;
  };
  const pdfOf = (token: string, body: Record<string, unknown>) => w.request().post('/api/pdf/from-print-job').set(bearer(token)).send(body).buffer(true).parse(binary);

  let pages: string[];
  it('set-up: four PNG pages uploaded through signed URLs', async () => {
    pages = [];
    for (const [i, colour] of ['#ff0000', '#00ff00', '#0000ff', '#ffff00'].entries()) pages.push(await upload(await png(colour), `page-${i + 1}.png`));
    expect(pages.every((u) => /^\/files\/\d+\/artwork\//.test(u))).toBe(true);
  });

  it('the 4 artwork pages → print-file.pdf with 4 card pages (A5 + 3 mm bleed, TrimBox A5); the job is then downloaded', async () => {
    const job = await create(w.tokens.userA, { productName: 'Card', artworkUrls: pages });
    const res = await pdfOf(w.tokens.userA, { id: job.id });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="print-file.pdf"');
    const doc = await PDFDocument.load(res.body as Buffer);
    expect(doc.getPageCount()).toBe(4);
    for (const page of doc.getPages()) {
      expect(page.getWidth()).toBeCloseTo(436.54, 2);
      expect(page.getHeight()).toBeCloseTo(612.28, 2);
      expect(page.getTrimBox()).toMatchObject({ width: expect.closeTo(419.53, 2), height: expect.closeTo(595.28, 2) });
    }
    const after = (await get(`/api/print-jobs/${job.id}`, w.tokens.userA)).body.data as Job;
    expect(after).toMatchObject({ isPDFDownloaded: true, isPrinted: false, downloadedByUserId: w.users.userA });
    expect((await w.db('print_job_events').where({ job_id: job.id })).map((e) => e.kind)).toEqual(['downloaded']);
    // Its 30 px test pages are held by preflight: a held job is never marked printed, so it is approved first.
    const refused = await change(w.tokens.userA, job.id, { isPrinted: true });
    expect([refused.status, refused.body.error]).toEqual([409, expect.stringMatching(/^Held by preflight \(job #\d+\)/)]);
    expect((await post(`/api/print-jobs/${job.id}/approve`, w.tokens.userA, {})).status).toBe(200);
    // Now it may be marked printed; its PDF can still be fetched from the history and it stays printed.
    await changed(w.tokens.userA, job.id, { isPrinted: true });
    const again = await pdfOf(w.tokens.userA2, { id: job.id });
    expect(again.status).toBe(200);
    expect((await get(`/api/print-jobs/${job.id}`, w.tokens.userA)).body.data).toMatchObject({ isPrinted: true, isPDFDownloaded: true });
  });

  it("the job's size: a poster's job prints on A3 + bleed; a design's new bleed makes a new file of that bleed; a rebuild is the same bytes", async () => {
    const MM = 72 / 25.4;
    const sizeOf = async (pdf: Buffer) => {
      const page = (await PDFDocument.load(pdf)).getPage(0);
      return { width: page.getWidth() / MM, trim: page.getTrimBox().width / MM };
    };
    const poster = await makeDesign(w, w.tokens.adminA, { name: 'Skyline poster', sku: 'PDF-POSTER', productType: 'Poster' });
    const posterJob = await create(w.tokens.userA, { productName: 'Skyline poster', artworkUrls: pages.slice(0, 1), designId: poster.id });
    const posterPdf = await pdfOf(w.tokens.userA, { id: posterJob.id });
    expect(posterPdf.status).toBe(200);
    expect(await sizeOf(posterPdf.body as Buffer)).toEqual({ width: expect.closeTo(303, 2), trim: expect.closeTo(297, 2) });
    const again = await pdfOf(w.tokens.userA, { id: posterJob.id });
    expect((again.body as Buffer).equals(posterPdf.body as Buffer)).toBe(true);

    const card = await makeDesign(w, w.tokens.adminA, { name: 'Card with a document', sku: 'PDF-CARD-DOC', productType: 'Card', data: { document: cardDoc(), artworkUrls: pages } });
    const cardJob = await create(w.tokens.userA, { productName: 'Card with a document', artworkUrls: pages, designId: card.id });
    const before = await pdfOf(w.tokens.userA, { id: cardJob.id });
    expect(await sizeOf(before.body as Buffer)).toEqual({ width: expect.closeTo(154, 2), trim: expect.closeTo(148, 2) });
    await makeDesign(w, w.tokens.adminA, { id: card.id, name: 'Card with a document', sku: 'PDF-CARD-DOC', productType: 'Card', data: { document: { ...cardDoc(), bleed: 5 }, artworkUrls: pages } });
    const after = await pdfOf(w.tokens.userA, { id: cardJob.id });
    expect(await sizeOf(after.body as Buffer)).toEqual({ width: expect.closeTo(158, 2), trim: expect.closeTo(148, 2) });
  });

  it('absolute URLs to our own /files/ work too, and `images` replaces the job\'s artwork', async () => {
    const job = await create(w.tokens.userA, { productName: 'Card', artworkUrls: pages.slice(0, 2) });
    const absolute = pages.map((p) => `http://presswork.test${p}`);
    const res = await pdfOf(w.tokens.userA, { id: job.id, images: absolute });
    expect(res.status).toBe(200);
    expect((await PDFDocument.load(res.body as Buffer)).getPageCount()).toBe(4);
    expect((await get(`/api/print-jobs/${job.id}`, w.tokens.userA)).body.data).toMatchObject({ isPDFDownloaded: true, artworkUrls: pages.slice(0, 2) });
  });

  it('an id no row can have (beyond a 32-bit integer) → 400 naming id, never the database', async () => {
    const res = await w.request().post('/api/pdf/from-print-job').set(bearer(w.tokens.userA)).send({ id: 2_147_483_648 });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('id');
  });

  it('no artwork → 400 "PDF Empty"; not 4 pages → 400 "Only support 4 pages A5" (JSON), the job stays not downloaded', async () => {
    const empty = await create(w.tokens.userA, { productName: 'Empty' });
    const res = await w.request().post('/api/pdf/from-print-job').set(bearer(w.tokens.userA)).send({ id: empty.id });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/json/);
    expect(res.body).toEqual({ success: false, error: 'PDF Empty' });
    const three = await create(w.tokens.userA, { productName: 'Three', artworkUrls: pages.slice(0, 3) });
    const res3 = await w.request().post('/api/pdf/from-print-job').set(bearer(w.tokens.userA)).send({ id: three.id });
    expect(res3.status).toBe(400);
    expect(res3.body).toEqual({ success: false, error: 'Only support 4 pages A5' });
    const five = await w.request().post('/api/pdf/from-print-job').set(bearer(w.tokens.userA)).send({ id: three.id, images: [...pages, pages[0]] });
    expect(five.body.error).toBe('Only support 4 pages A5');
    for (const j of [empty, three]) expect((await get(`/api/print-jobs/${j.id}`, w.tokens.userA)).body.data.isPDFDownloaded).toBe(false);
  });

  it('a page that is not an image, missing, or not allowed → 400 naming the page', async () => {
    const csv = await upload(Buffer.from('a,b\n1,2\n'), 'not-an-image.csv', 'text/csv');
    const job = await create(w.tokens.userA, { productName: 'Bad', artworkUrls: [pages[0], csv, pages[2], pages[3]] });
    const res = await w.request().post('/api/pdf/from-print-job').set(bearer(w.tokens.userA)).send({ id: job.id });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^Page 2: /);
    const missing = await w.request().post('/api/pdf/from-print-job').set(bearer(w.tokens.userA)).send({ id: job.id, images: [pages[0], pages[1], '/files/artwork/nothing.png', pages[3]] });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/^Page 3: /);
    const internal = await w.request().post('/api/pdf/from-print-job').set(bearer(w.tokens.userA)).send({ id: job.id, images: ['http://169.254.169.254/latest/meta-data', pages[1], pages[2], pages[3]] });
    expect(internal.status).toBe(400);
    expect(internal.body.error).toMatch(/^Page 1: /);
    expect((await get(`/api/print-jobs/${job.id}`, w.tokens.userA)).body.data.isPDFDownloaded).toBe(false);
  });

  it('a pregenerated PDF is served as it is (whatever its pages), even when artwork is there too', async () => {
    const doc = await PDFDocument.create();
    doc.addPage([300, 300]);
    const bytes = Buffer.from(await doc.save());
    const url = await upload(bytes, 'pregenerated.pdf', 'application/pdf');
    const job = await create(w.tokens.userA, { productName: 'Pre', data: { pregeneratedPDF: url } });
    const res = await pdfOf(w.tokens.userA, { id: job.id });
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="print-file.pdf"');
    expect(Buffer.compare(res.body as Buffer, bytes)).toBe(0);
    expect((await get(`/api/print-jobs/${job.id}`, w.tokens.userA)).body.data.isPDFDownloaded).toBe(true);
    const both = await create(w.tokens.userA, { productName: 'Pre + art', artworkUrls: pages.slice(0, 1), data: { pregeneratedPDF: url } });
    expect(Buffer.compare((await pdfOf(w.tokens.userA, { id: both.id })).body as Buffer, bytes)).toBe(0);
  });

  it('a pregenerated PDF that is missing or not a PDF → 400 naming data.pregeneratedPDF, the job stays not downloaded', async () => {
    const missing = await create(w.tokens.userA, { productName: 'Pre', data: { pregeneratedPDF: '/files/artwork/none.pdf' } });
    const res = await w.request().post('/api/pdf/from-print-job').set(bearer(w.tokens.userA)).send({ id: missing.id });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^Pregenerated PDF\b/);
    const notPdf = await create(w.tokens.userA, { productName: 'Pre', data: { pregeneratedPDF: pages[0] } });
    const res2 = await w.request().post('/api/pdf/from-print-job').set(bearer(w.tokens.userA)).send({ id: notPdf.id });
    expect(res2.status).toBe(400);
    expect(res2.body.error).toBe('Pregenerated PDF leads to a file that is not a PDF.');
    for (const j of [missing, notPdf]) expect((await get(`/api/print-jobs/${j.id}`, w.tokens.userA)).body.data.isPDFDownloaded).toBe(false);
  });

  it('the Jobs download of a job printed meanwhile (a stale tab) → 409 "Already printed by <name> at <time>", no PDF; Print History still downloads it', async () => {
    const job = await create(w.tokens.userA, { productName: 'Stale card', artworkUrls: pages });
    // The 30 × 42 px pages are far too coarse: held until approved.
    expect((await post(`/api/print-jobs/${job.id}/approve`, w.tokens.userA, {})).status).toBe(200);
    const first = await pdfOf(w.tokens.userA, { id: job.id, from: 'jobs' });
    expect(first.status).toBe(200);
    const printed = await changed(w.tokens.userA2, job.id, { isPrinted: true });
    // The other tab still shows the job in Jobs and asks for its PDF again.
    const stale = await w.request().post('/api/pdf/from-print-job').set(bearer(w.tokens.userA)).send({ id: job.id, from: 'jobs' });
    expect(stale.status).toBe(409);
    expect(stale.headers['content-type']).toMatch(/json/);
    const [day, time] = printed.printedAt!.split('T');
    const [y, m, d] = day.split('-');
    expect(stale.body.error).toBe(`Already printed by user-a2 Tester at ${d}/${m}/${y} ${time.slice(0, 5)}`);
    expect(printed).toMatchObject({ printedByUserId: w.users.userA2, printedByName: 'user-a2 Tester' });
    // Nothing recorded for the refused download.
    expect((await w.db('print_job_events').where({ job_id: job.id })).map((e) => e.kind)).toEqual(['downloaded', 'printed']);
    const history = await pdfOf(w.tokens.userA, { id: job.id, from: 'history' });
    expect(history.status).toBe(200);
    expect(history.headers['content-type']).toBe('application/pdf');
    const bad = await w.request().post('/api/pdf/from-print-job').set(bearer(w.tokens.userA)).send({ id: job.id, from: 'queue' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('from');
  });

  it("another site's job → 404; bad id → 400; no token → 401", async () => {
    const onB = await create(w.tokens.userB, { productName: 'B', artworkUrls: pages });
    const res = await w.request().post('/api/pdf/from-print-job').set(bearer(w.tokens.userA)).send({ id: onB.id });
    expect(res.status).toBe(404);
    expect((await w.db('print_jobs').where({ id: onB.id }).first()).is_pdf_downloaded).toBeFalsy();
    const bad = await w.request().post('/api/pdf/from-print-job').set(bearer(w.tokens.userA)).send({ id: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^ID\b/);
    const badImages = await w.request().post('/api/pdf/from-print-job').set(bearer(w.tokens.userA)).send({ id: onB.id, images: ['ftp://x/y.png'] });
    expect(badImages.status).toBe(400);
    expect(badImages.body.error).toMatch(/^Images item 1\b/);
    expect((await w.request().post('/api/pdf/from-print-job').send({ id: onB.id })).status).toBe(401);
  });
});

describe('the queues for operators (sort, client and product type filters, printed by, note limit)', async () => {
  const w = await createWorld();
  const { post, get, create, changed, list } = api(w);
  const designOf = async (siteId: number, name: string, productType: string | null) => {
    const now = w.clock.now().toISOString();
    const [r] = await w.db('designs')
      .insert({ site_id: siteId, name, product_type: productType, hp_addition_data: '{}', data: '{}', created_at: now, updated_at: now })
      .returning('id');
    return (typeof r === 'object' ? r.id : r) as number;
  };
  const names = (l: { list: Job[] }) => l.list.map((j) => j.productName);
  let mugDesign: number;
  let cardDesign: number;

  it('set-up: jobs of two sites, of a mug and a card design, one of a store order', async () => {
    mugDesign = await designOf(w.sites.a, 'Mug design', 'Mug');
    cardDesign = await designOf(w.sites.a, 'Card design', 'Card');
    const bMug = await designOf(w.sites.b, 'B mug', 'Mug');
    w.clock.advance(1000);
    await create(w.tokens.userA, { productName: 'Banana mug', artworkUrls: ART.slice(0, 1), designId: mugDesign, quantity: 3 });
    w.clock.advance(1000);
    await create(w.tokens.userA, { productName: 'Apple card', artworkUrls: ART, designId: cardDesign, quantity: 1 });
    w.clock.advance(1000);
    await create(w.tokens.userA, { productName: 'Cherry poster', artworkUrls: ART, quantity: 2 });
    w.clock.advance(1000);
    await create(w.tokens.userB, { productName: 'Date mug', artworkUrls: ART.slice(0, 1), designId: bMug, quantity: 5 });
  });

  it('sort and order over a whitelist of columns; the default order stays oldest first', async () => {
    const queue = '?readyForPrint=1&isPrinted=0';
    expect(names(await list(w.tokens.userA, queue))).toEqual(['Banana mug', 'Apple card', 'Cherry poster']);
    expect(names(await list(w.tokens.userA, `${queue}&sort=productName`))).toEqual(['Apple card', 'Banana mug', 'Cherry poster']);
    expect(names(await list(w.tokens.userA, `${queue}&sort=productName&order=desc`))).toEqual(['Cherry poster', 'Banana mug', 'Apple card']);
    expect(names(await list(w.tokens.userA, `${queue}&sort=quantity&order=desc`))).toEqual(['Banana mug', 'Cherry poster', 'Apple card']);
    expect(names(await list(w.tokens.userA, `${queue}&order=desc`))).toEqual(['Cherry poster', 'Apple card', 'Banana mug']);
    // A job without a product type sorts last either way.
    expect(names(await list(w.tokens.userA, `${queue}&sort=productType`))).toEqual(['Apple card', 'Banana mug', 'Cherry poster']);
    expect(names(await list(w.tokens.userA, `${queue}&sort=productType&order=desc`))).toEqual(['Banana mug', 'Apple card', 'Cherry poster']);
    const admin = await list(w.tokens.adminA, `${queue}&sort=clientName&order=desc`);
    expect(admin.list.map((j) => j.clientName)).toEqual(['Site B', 'Site A', 'Site A', 'Site A']);
  });

  it('unknown sort, order or productType → 400 naming the parameter', async () => {
    for (const [query, field] of [['sort=password', 'sort'], ['sort=j.id;drop', 'sort'], ['order=sideways', 'order'], ['productType=Hat', 'productType']]) {
      const res = await get(`/api/print-jobs?readyForPrint=1&isPrinted=0&${query}`, w.tokens.userA);
      expect(res.status, query).toBe(400);
      expect(JSON.stringify(res.body), query).toContain(field);
      expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts/);
    }
  });

  it('filters by product type (its design) and, for admins, by client', async () => {
    expect(names(await list(w.tokens.userA, '?readyForPrint=1&isPrinted=0&productType=Mug'))).toEqual(['Banana mug']);
    expect(names(await list(w.tokens.adminA, '?readyForPrint=1&isPrinted=0&productType=Mug'))).toEqual(['Banana mug', 'Date mug']);
    const onB = await list(w.tokens.adminA, `?readyForPrint=1&isPrinted=0&clientId=${w.sites.b}`);
    expect(names(onB)).toEqual(['Date mug']);
    expect(onB.list[0]).toMatchObject({ clientName: 'Site B', productType: 'Mug' });
    // A user of site A cannot look at site B's queue.
    expect((await get(`/api/print-jobs?readyForPrint=1&isPrinted=0&clientId=${w.sites.b}`, w.tokens.userA)).status).toBe(404);
  });

  it('a printed job keeps who printed it (a name snapshot) and Print History sorts by printed at / by', async () => {
    const queue = await list(w.tokens.userA, '?readyForPrint=1&isPrinted=0');
    const [banana, apple] = queue.list;
    for (const [job, token] of [[banana, w.tokens.userA2], [apple, w.tokens.userA]] as const) {
      w.clock.advance(60_000);
      await changed(token, job.id, { isPDFDownloaded: true });
      await changed(token, job.id, { isPrinted: true });
    }
    const history = await list(w.tokens.userA, '?readyForPrint=1&isPrinted=1');
    expect(history.list.map((j) => [j.productName, j.printedByName])).toEqual([['Apple card', 'user-a Tester'], ['Banana mug', 'user-a2 Tester']]);
    expect(names(await list(w.tokens.userA, '?readyForPrint=1&isPrinted=1&sort=printedByName&order=desc'))).toEqual(['Banana mug', 'Apple card']);
    expect(names(await list(w.tokens.userA, '?readyForPrint=1&isPrinted=1&sort=printedAt'))).toEqual(['Banana mug', 'Apple card']);
    // The name stays as it was when the user is renamed later.
    await w.db('users').where({ id: w.users.userA2 }).update({ first_name: 'Renamed' });
    expect((await get(`/api/print-jobs/${banana.id}`, w.tokens.userA)).body.data.printedByName).toBe('user-a2 Tester');
  });

  it('a production note of 2000 characters is kept, one longer → 400 naming data.note, nothing saved', async () => {
    const job = (await list(w.tokens.userA, '?readyForPrint=1&isPrinted=0')).list[0];
    const lines = `Line one\nLine two\n${'x'.repeat(2000 - 18)}`;
    expect(lines.length).toBe(2000);
    const ok = await post('/api/general-data/production-note', w.tokens.userA, { field1: String(job.id), data: { note: lines } });
    expect(ok.status).toBe(200);
    const tooLong = await post('/api/general-data/production-note', w.tokens.userA, { id: ok.body.data.id, field1: String(job.id), data: { note: `${lines}!` } });
    expect(tooLong.status).toBe(400);
    expect(JSON.stringify(tooLong.body)).toContain('data.note');
    const fresh = await post('/api/general-data/production-note', w.tokens.userA, { field1: String(job.id), data: { note: 'y'.repeat(2001) } });
    expect(fresh.status).toBe(400);
    expect((await get(`/api/print-jobs/${job.id}`, w.tokens.userA)).body.data.productionNote).toEqual({ id: ok.body.data.id, note: lines });
  });
});
