// Per-site press sheets and automatic batching: the settings (checked at save, used by every batch
// of the site), and the rule's pass with a fake clock: groups by kind, capacity, the daily cut-off
// (also after a restart), jobs that stop being printable, printed and turned-off batches, two
// passes at once, and off by default.
import { describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { batchSettingsProblem, DEFAULT_IMPOSE_SETTINGS, impositionSettingsOf, parsePressSheets } from '../../common/api/batching';
import { createDb } from '../src/db';
import { createLogger } from '../src/lib/logger';
import { chooseSheet } from '../src/modules/batches/sheets';
import { createServices, fileStoreFor } from '../src/services';
import { bearer, binary, createWorld } from './harness';
import { makeDesign, setSiteEnv } from './ordersKit';

const reader = (values: Record<string, string>) => (key: string) => values[key];

describe('press sheet and batching settings (rule)', () => {
  it('unset: the defaults; usable values are read; each unusable one is a sentence naming the key', () => {
    expect(impositionSettingsOf(reader({}))).toEqual(DEFAULT_IMPOSE_SETTINGS);
    expect(batchSettingsProblem(reader({}))).toBeUndefined();
    const mine = { PRESS_SHEETS: 'A4 210x297 margin 5; Long card stock 330 × 660', PRESS_SHEET_GAP_MM: '4', PRESS_SHEET_SLUG_MM: '3.5', PRESS_SHEET_DUPLEX: 'tumble' };
    expect(batchSettingsProblem(reader(mine))).toBeUndefined();
    expect(impositionSettingsOf(reader(mine))).toEqual({
      ...DEFAULT_IMPOSE_SETTINGS,
      sheets: [
        { name: 'A4', widthMm: 210, heightMm: 297, marginMm: 5 },
        { name: 'Long card stock', widthMm: 330, heightMm: 660, marginMm: 0 },
      ],
      gapMm: 4,
      slugMm: 3.5,
      duplex: 'tumble',
    });
    expect(parsePressSheets('SRA3 320x450 margin 0; SRA3 320x450')).toEqual({ problem: 'Press sheet "SRA3" is listed twice.' });
    for (const [values, sentence] of [
      [{ PRESS_SHEETS: 'A4 210 by 297' }, 'PRESS_SHEETS: Press sheet "A4 210 by 297" is not a name, a width x height in mm and a margin (e.g. "SRA3 320x450 margin 0; A4 210x297 margin 5").'],
      [{ PRESS_SHEETS: 'Tiny 20x30' }, 'PRESS_SHEETS: Press sheet "Tiny" must be between 50 and 2000 mm each way.'],
      [{ PRESS_SHEETS: 'A4 210x297 margin 120' }, 'PRESS_SHEETS: Press sheet "A4": its 120 mm margin leaves no room to print.'],
      [{ PRESS_SHEET_GAP_MM: '1' }, 'PRESS_SHEET_GAP_MM: "1" must be a number of millimetres from 2 to 30.'],
      [{ PRESS_SHEET_SLUG_MM: 'wide' }, 'PRESS_SHEET_SLUG_MM: "wide" must be a number of millimetres from 2 to 20.'],
      [{ PRESS_SHEET_DUPLEX: 'flip' }, 'PRESS_SHEET_DUPLEX: "flip" must be turn (turned side to side) or tumble (turned head to foot).'],
      [{ BATCH_AUTOMATICALLY: 'yes' }, 'BATCH_AUTOMATICALLY: "yes" must be 1 (on) or 0 (off).'],
      [{ BATCH_CUT_OFF: '3pm' }, 'BATCH_CUT_OFF: "3pm" is not a time of day like 15:30 (24-hour clock).'],
      [{ BATCH_CUT_OFF: '24:00' }, 'BATCH_CUT_OFF: "24:00" is not a time of day like 15:30 (24-hour clock).'],
      [{ BATCH_SHEETS_PER_BATCH: '0' }, 'BATCH_SHEETS_PER_BATCH: "0" must be a whole number of sheets from 1 to 1000.'],
    ] as const) {
      expect(batchSettingsProblem(reader(values)), JSON.stringify(values)).toBe(sentence);
    }
  });
});

describe('per-site press sheets and automatic batching', async () => {
  // Berlin is an hour ahead of UTC in December: the cut-off is read in SYNC_TIMEZONE, not UTC.
  const w = await createWorld({ PUBLIC_URL: 'http://presswork.test', SYNC_TIMEZONE: 'Europe/Berlin', JWT_EXPIRES_IN: '30d' });
  w.clock.set(new Date('2026-12-01T08:00:00.000Z'));
  const post = (path: string, body: unknown, token = w.tokens.userA) => w.request().post(path).set(bearer(token)).send(body as object);
  const get = (path: string, token = w.tokens.userA) => w.request().get(path).set(bearer(token));

  const png = (colour: string) => sharp({ create: { width: 1819, height: 2551, channels: 3, background: colour } }).png().toBuffer();
  const upload = async (bytes: Buffer, name: string) => {
    const grant = await post('/api/users/me/get-upload-url', { serverSidePath: `artwork/${name}`, contentType: 'image/png' });
    expect(grant.status, JSON.stringify(grant.body)).toBe(200);
    const url = new URL(grant.body.data);
    const put = await w.request().put(`${url.pathname}${url.search}`).set('Content-Type', 'image/png').send(bytes);
    expect(put.status).toBe(200);
    return put.body.data.url as string;
  };
  const pages: string[] = [];
  for (const [i, colour] of ['#ff0000', '#00ff00', '#0000ff', '#ffff00'].entries()) pages.push(await upload(await png(colour), `auto-page-${i + 1}.png`));
  const poster = await makeDesign(w, w.tokens.adminA, { name: 'City poster', sku: 'POSTER-AUTO', productType: 'Poster', productPdf: '/files/test/poster.pdf' });

  // Each job a tick later: the queue's order is the order they were made in.
  const job = async (body: Record<string, unknown> = {}, token = w.tokens.userA): Promise<number> => {
    w.clock.advance(1000);
    const res = await post('/api/print-jobs', { productName: 'Birthday card', artworkUrls: pages, ...body }, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.held).toBe(false);
    return res.body.data.id;
  };
  const card = () => job();
  // One artwork page: one slot.
  const posterJob = () => job({ designId: poster.id, productName: 'City poster', artworkUrls: [pages[0]] });
  const batch = async (id: number) => (await get(`/api/batches/${id}`)).body.data;
  const pass = () => w.services.batches.autoBatch();

  it('a site with only A4 and a 4 mm gap imposes its cards on A4 with that gap', async () => {
    await setSiteEnv(w, w.sites.b, { PRESS_SHEETS: 'A4 210x297 margin 5', PRESS_SHEET_GAP_MM: '4' });
    try {
      const settings = await w.services.batches.impositionSettingsFor(w.sites.b);
      expect(settings).toMatchObject({ sheets: [{ name: 'A4', widthMm: 210, heightMm: 297, marginMm: 5 }], gapMm: 4, slugMm: 3, duplex: 'turn' });
      // An A5 card with 3 mm bleed: its slot is 154 + 4 wide and 216 + 4 + 3 high, one to the sheet, centred.
      const layout = chooseSheet({ trimWidthMm: 148, trimHeightMm: 210, bleedMm: 3 }, settings)!;
      expect(layout.sheet.name).toBe('A4');
      expect(layout.slots).toHaveLength(1);
      const [place] = layout.slots;
      expect(place.slot).toMatchObject({ x: 26, width: 158, height: 223 });
      expect(place.bleed.x - place.slot.x).toBe(2);
      expect(place.trim).toMatchObject({ x: 31, width: 148, height: 210 });

      const made = await post('/api/batches', { jobIds: [await job({}, w.tokens.userB)] }, w.tokens.userB);
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      expect(made.body.data.sheet).toBe('A4');
      expect((await post('/api/batches', { jobIds: [await job({}, w.tokens.userB)], sheet: 'SRA3' }, w.tokens.userB)).body.error).toBe('There is no "SRA3" sheet: use one of A4');
      const pdf = await get(`/api/batches/${made.body.data.id}/pdf`, w.tokens.userB).buffer(true).parse(binary);
      expect(pdf.status).toBe(200);
      const doc = await PDFDocument.load(pdf.body as Buffer);
      const mm = (pt: number) => Math.round(pt / (72 / 25.4));
      // The cover and its blank back, then the card's two leaves on the front and back of two A4 sheets.
      expect(doc.getPageCount()).toBe(6);
      expect([mm(doc.getPage(2).getWidth()), mm(doc.getPage(2).getHeight())]).toEqual([210, 297]);
      // Site A keeps the defaults: the same card goes 4-up on SRA3.
      const onA = await post('/api/batches', { jobIds: [await card()] });
      expect(onA.body.data.sheet).toBe('SRA3');
    } finally {
      await setSiteEnv(w, w.sites.b, { PRESS_SHEETS: '', PRESS_SHEET_GAP_MM: '' });
    }
  });

  it('a site save with unusable settings is refused with the sentence the form shows', async () => {
    const site = (await get(`/api/sites/${w.sites.a}`, w.tokens.adminA)).body.data;
    const env = [...site.settings.env, { key: 'BATCH_CUT_OFF', value: '5 o clock' }];
    const res = await post('/api/sites', { ...site, settings: { ...site.settings, env } }, w.tokens.adminA);
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('BATCH_CUT_OFF: "5 o clock" is not a time of day like 15:30 (24-hour clock).');
    const saved = await post('/api/sites', { ...site, settings: { ...site.settings, env: [...site.settings.env, { key: 'BATCH_CUT_OFF', value: '15:00' }] } }, w.tokens.adminA);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    await setSiteEnv(w, w.sites.a, { BATCH_CUT_OFF: '' });
  });
  it('off by default: a site without the setting gets no batch', async () => {
    await job({}, w.tokens.userB);
    const report = await pass();
    expect(report.opened).toEqual([]);
    expect((await get('/api/batches?filling=1', w.tokens.userB)).body.data.list).toEqual([]);
  });

  it('the rule: a filling batch per kind, closed when full (the next job opens one), jobs that stop being printable leave, the daily cut-off closes, printed closes', async () => {
    // SRA3 holds 4 card leaves (2 cards) or 1 poster: 2 sheets a batch = 4 cards, or 2 one-page posters.
    await setSiteEnv(w, w.sites.a, { BATCH_AUTOMATICALLY: '1', BATCH_CUT_OFF: '15:00', BATCH_SHEETS_PER_BATCH: '2' });
    // A job already in a manual batch stays there.
    const manual = await card();
    expect((await post('/api/batches', { jobIds: [manual] })).status).toBe(200);

    const c1 = await card();
    const p1 = await posterJob();
    let report = await pass();
    expect(report.joined).toEqual([c1, p1]);
    expect(report.opened).toHaveLength(2);
    const [cards, posters] = await Promise.all(report.opened.map(batch));
    expect(cards).toMatchObject({ jobIds: [c1], sheet: 'SRA3', auto: true, filling: true, capacity: 8, createdByName: 'Automatic batching', closedAt: null, closeReason: null });
    // 15:00 in Berlin is 14:00 UTC in December.
    expect(cards.closesAt).toBe('2026-12-01T14:00:00.000Z');
    expect(posters).toMatchObject({ jobIds: [p1], filling: true, capacity: 2 });
    expect((await get('/api/batches?filling=1')).body.data.list.map((b: { id: number }) => b.id).sort()).toEqual([cards.id, posters.id].sort());

    // Again: nothing to do.
    report = await pass();
    expect(report).toEqual({ joined: [], left: [], opened: [], closed: [], noSheet: [] });

    // Full at 4 cards: it closes, the fifth opens the next batch.
    const [c2, c3, c4, c5] = [await card(), await card(), await card(), await card()];
    report = await pass();
    expect(report.joined).toEqual([c2, c3, c4, c5]);
    expect(report.closed).toEqual([{ id: cards.id, reason: 'full' }]);
    expect(await batch(cards.id)).toMatchObject({ jobIds: [c1, c2, c3, c4], filling: false, closeReason: 'full', closedAt: w.clock.now().toISOString(), closesAt: null, state: 'open' });
    const next = report.opened[0];
    expect(await batch(next)).toMatchObject({ jobIds: [c5], filling: true });
    // A job in a filling batch is in an open batch: a person cannot batch it again.
    expect((await post('/api/batches', { jobIds: [c5] })).body.error).toBe(`Job #${c5} is already in open batch ${(await batch(next)).number}`);

    // Held by a re-check, withdrawn, deleted: they leave at the next pass; approved, it comes back.
    const [c6, c7] = [await card(), await card()];
    await pass();
    expect((await batch(next)).jobIds).toEqual([c5, c6, c7]);
    await w.db('print_jobs').where({ id: c5 }).update({ held: true });
    await w.db('print_jobs').where({ id: c6 }).update({ withdrawn_at: w.clock.now().toISOString(), withdrawn_reason: 'The order was cancelled' });
    expect((await w.request().delete(`/api/print-jobs/${c7}`).set(bearer(w.tokens.userA))).status).toBe(200);
    report = await pass();
    expect(report.left).toEqual([c5, c6]);
    expect(await batch(next)).toMatchObject({ jobIds: [], filling: true });
    await w.db('print_jobs').where({ id: c5 }).update({ held: false });
    report = await pass();
    expect(report.joined).toEqual([c5]);
    expect((await batch(next)).jobIds).toEqual([c5]);
    // Each join and leave is in the job's history, by the rule, with the batch and why it left.
    const membership = async (id: number) =>
      ((await get(`/api/print-jobs/${id}/history`)).body.data.list as Array<{ action: string; from: string | null; to: string | null; reason: string | null; actor: { automatic?: string } }>)
        .filter((e) => e.actor.automatic === 'Automatic batching')
        .map((e) => [e.action, e.from, e.to, e.reason]);
    const nextName = `batch ${(await batch(next)).number}`;
    expect(await membership(c5)).toEqual([
      ['batched', null, nextName, null],
      ['unbatched', nextName, null, 'held by preflight'],
      ['batched', null, nextName, null],
    ]);
    expect(await membership(c6)).toEqual([
      ['batched', null, nextName, null],
      ['unbatched', nextName, null, 'left the queue'],
    ]);
    expect(await membership(c1)).toEqual([['batched', null, `batch ${cards.number}`, null]]);

    // The cut-off passes (15:00:30 Berlin): every filling batch that opened before it closes, full or not.
    w.clock.set(new Date('2026-12-01T14:00:30.000Z'));
    const c8 = await card();
    report = await pass();
    expect(report.closed).toEqual([
      { id: posters.id, reason: 'cut-off' },
      { id: next, reason: 'cut-off' },
    ]);
    expect(await batch(next)).toMatchObject({ filling: false, closeReason: 'cut-off', jobIds: [c5] });
    // The job made after the cut-off opens tomorrow's batch.
    const tomorrow = report.opened[0];
    expect(await batch(tomorrow)).toMatchObject({ jobIds: [c8], filling: true, closesAt: '2026-12-02T14:00:00.000Z' });

    // The app restarts the next evening, past that cut-off: a fresh pass (no memory of the day) closes it.
    w.clock.set(new Date('2026-12-02T19:00:00.000Z'));
    const restarted = createServices({ db: w.db, clock: w.clock, config: w.config, log: createLogger('silent') }, fileStoreFor(w.dataDir));
    report = await restarted.batches.autoBatch();
    expect(report.closed).toEqual([{ id: tomorrow, reason: 'cut-off' }]);

    // Marking a filling batch printed closes it and prints its jobs; the next job opens a new one.
    const c9 = await card();
    const printing = (await pass()).opened[0];
    const printed = await post(`/api/batches/${printing}/state`, { state: 'printed' });
    expect(printed.status, JSON.stringify(printed.body)).toBe(200);
    expect(printed.body.data).toMatchObject({ state: 'printed', filling: false, closeReason: 'printed', jobIds: [c9] });
    expect(printed.body.data.printed.done).toEqual([c9]);
    const c10 = await card();
    report = await pass();
    expect(report.joined).toEqual([c10]);
    expect(report.opened).toHaveLength(1);
    expect(report.opened[0]).not.toBe(printing);

    // Turned off: its filling batches close.
    await setSiteEnv(w, w.sites.a, { BATCH_AUTOMATICALLY: '' });
    report = await pass();
    expect(report.closed).toEqual([{ id: report.closed[0]?.id, reason: 'turned-off' }]);
    expect((await get('/api/batches?filling=1')).body.data.list).toEqual([]);
    expect((await pass()).joined).toEqual([]);
    // Site B's jobs were never batched by the rule.
    expect((await get('/api/batches?filling=0', w.tokens.userB)).body.data.list.every((b: { auto: boolean }) => !b.auto)).toBe(true);
  });

  it('two passes at once (two instances on one database) never put a job in two batches', async () => {
    await setSiteEnv(w, w.sites.a, { BATCH_AUTOMATICALLY: '1', BATCH_CUT_OFF: '', BATCH_SHEETS_PER_BATCH: '1' });
    const jobs: number[] = [];
    for (let i = 0; i < 9; i++) jobs.push(await card());
    // PostgreSQL: a second instance with its own connections; SQLite: one file is one process's, so the same one twice.
    const db2 = w.config.database.client === 'pg' ? createDb(w.config.database) : w.db;
    try {
      const other = w.config.database.client === 'pg' ? createServices({ db: db2, clock: w.clock, config: w.config, log: createLogger('silent') }, fileStoreFor(w.dataDir)) : w.services;
      const reports = await Promise.all([w.services.batches.autoBatch(), other.batches.autoBatch(), w.services.batches.autoBatch()]);
      const joined = reports.flatMap((r) => r.joined).sort((a, b) => a - b);
      expect(joined).toEqual([...jobs].sort((a, b) => a - b));
      const rows = (await w.db('batch_jobs as bj').join('batches as b', 'b.id', 'bj.batch_id').whereIn('bj.print_job_id', jobs).select('bj.print_job_id', 'b.id', 'b.filling', 'b.close_reason')) as Array<{ print_job_id: number; id: number }>;
      expect(rows).toHaveLength(jobs.length);
      // 2 cards a batch: 4 full batches and one filling.
      const batches = [...new Set(rows.map((r) => r.id))];
      expect(batches).toHaveLength(5);
      const filling = await w.db('batches').where({ site_id: w.sites.a, filling: true });
      expect(filling).toHaveLength(1);
    } finally {
      if (db2 !== w.db) await db2.destroy();
      await setSiteEnv(w, w.sites.a, { BATCH_AUTOMATICALLY: '' });
    }
  });
});
