// The platform's files → the CRM: unsubscribe round trip, Export 80/92 rows applied exactly once
// (also after a crash mid-file), explicit re-processing, safe downloads, CSV delimiters, configs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectDelimiter, readCsv } from '../src/modules/sync/files';
import { toCsv, EXPORT_COLUMNS } from '../simulators/adestra';
import { bearer } from './harness';
import { createSyncWorld, person } from './sync-world';

describe('delimiter detection and CSV reading', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-csv-'));
  it.each([
    [',', 'comma'],
    [';', 'semicolon'],
    ['\t', 'tab'],
    ['|', 'pipe'],
  ])('%s (%s)', (delimiter) => {
    const file = path.join(dir, `f${delimiter.charCodeAt(0)}.csv`);
    fs.writeFileSync(file, `\uFEFF${toCsv(EXPORT_COLUMNS, [{ email: 'A@Example.org', first_name: `O${delimiter}Neil "the" best`, last_name: 'x', event: 'subscribe', event_date: '2026-03-10T08:00:00Z', list_id: 1 }], delimiter)}\r\n`);
    const csv = readCsv(file);
    expect(csv.delimiter).toBe(delimiter);
    expect(csv.columns).toEqual(EXPORT_COLUMNS);
    expect(csv.rows).toEqual([{ email: 'A@Example.org', first_name: `O${delimiter}Neil "the" best`, last_name: 'x', event: 'subscribe', event_date: '2026-03-10T08:00:00Z', list_id: '1' }]);
  });
  it('a quoted delimiter in the header does not count', () => {
    expect(detectDelimiter('"a;b",c,d')).toBe(',');
    expect(detectDelimiter('email')).toBe(',');
  });
});

const known = Array.from({ length: 8 }, (_, i) => person(String(100 + i)));

describe('sync: platform files → CRM', async () => {
  let crashAt: { name: string; row: number } | undefined;
  const s = await createSyncWorld({
    siteEnv: { RE_CONSENT_SOURCE: 'Adestra' },
    reSim: { consentSources: ['Website', 'Adestra'] },
    constituents: [...known, person('200', { email: { address: 'twin@example.org', primary: true, inactive: false, do_not_email: false } }), person('201', { email: { address: 'twin@example.org', primary: true, inactive: false, do_not_email: false } })],
    consents: known.map((p) => ({ constituent_id: p.id, channel: 'Email', category: 'Newsletter', source: 'Website', consent_date: '2026-01-01T00:00:00Z', constituent_consent_response: 'OptIn' as const })),
    sync: {
      hooks: {
        beforeCheckpoint: ({ name, row }) => {
          if (crashAt && crashAt.name === name && crashAt.row === row) {
            crashAt = undefined;
            throw new Error('simulated crash between the CRM write and the checkpoint');
          }
        },
      },
    },
  });
  const { w } = s;
  const api = (p: string) => `/api/sites/site-a${p}`;
  const post = (p: string, body: object = {}, token = w.tokens.userA) => s.request().post(api(p)).set(bearer(token)).send(body);
  const get = (p: string, token = w.tokens.userA) => s.request().get(api(p)).set(bearer(token));
  const consentsFrom = (id: string, source: string) => s.re.consentsOf(id).filter((c) => c.source === source);

  describe('unsubscribe sync', () => {
    it('each address in the file → an OptOut consent for the constituent with that email; unmatched ones reported; the file marked success', async () => {
      s.adestra.unsubscribe('person100@example.org', new Date('2026-03-10T09:00:00Z'));
      s.adestra.unsubscribe('PERSON101@example.org', new Date('2026-03-10T10:00:00Z'));
      s.adestra.unsubscribe('stranger@example.net', new Date('2026-03-10T11:00:00Z'));
      s.adestra.unsubscribe('twin@example.org', new Date('2026-03-10T12:00:00Z'));
      expect(s.adestra.writeFiles('2026-03-10')).toContain('unsubscribe_20260310.csv');

      const files = await get('/list-file-unsubscribe');
      expect(files.body.data.list).toEqual([expect.objectContaining({ name: 'unsubscribe_20260310.csv', status: 'unprocessed', day: '2026-03-10' })]);

      const res = await post('/sync-single-unsubscribe-file', { name: 'unsubscribe_20260310.csv' });
      expect(res.status).toBe(200);
      const d = res.body.data;
      expect(d.file).toMatchObject({ name: 'unsubscribe_20260310.csv', status: 'success', doneAt: expect.any(String) });
      expect(d.result).toMatchObject({ rows: 4, rowsDone: 4, applied: 3, unchanged: 0, unmatched: 1 });
      expect(d.unmatched).toEqual(['stranger@example.net']);
      expect(d.listAlreadyProcess).toEqual([expect.objectContaining({ name: 'unsubscribe_20260310.csv', status: 'success' })]);
      for (const id of ['100', '101', '200', '201']) {
        const c = consentsFrom(id, 'Adestra');
        expect(c).toHaveLength(1);
        expect(c[0]).toMatchObject({ channel: 'Email', constituent_consent_response: 'OptOut' });
      }
      expect(consentsFrom('100', 'Adestra')[0]).toMatchObject({ category: 'Newsletter', consent_date: '2026-03-10T09:00:00.000Z' });
      const handled = await get('/list-handle-unsubscribe');
      expect(handled.body.data.list[0]).toMatchObject({ name: 'unsubscribe_20260310.csv', status: 'success', result: { applied: 3 } });
      expect((await get('/list-file-unsubscribe')).body.data.list[0]).toMatchObject({ status: 'success', result: { unmatched: 1 } });
    });

    it('a processed file is not processed again unless asked (force); either way no consent is added twice', async () => {
      const again = await post('/sync-single-unsubscribe-file', { name: 'unsubscribe_20260310.csv' });
      expect(again.body.data.alreadyProcessed).toBe(true);
      const forced = await post('/sync-single-unsubscribe-file', { name: 'unsubscribe_20260310.csv', force: true });
      expect(forced.body.data).toMatchObject({ alreadyProcessed: false, result: { applied: 0, unchanged: 3, unmatched: 1 } });
      expect(consentsFrom('100', 'Adestra')).toHaveLength(1);
      const rec = await w.db('general_data').where({ type: 'adestra-unsubscribe-sync-file' });
      expect(rec).toHaveLength(1);
    });

    it('unknown or unsafe names → 404; a missing name → 400', async () => {
      expect((await post('/sync-single-unsubscribe-file', { name: 'unsubscribe_20990101.csv' })).status).toBe(404);
      expect((await post('/sync-single-unsubscribe-file', { name: '../unsubscribe_20260310.csv' })).status).toBe(404);
      expect((await post('/sync-single-unsubscribe-file', { name: 'export_80_20260310.csv' })).status).toBe(404);
      expect((await post('/sync-single-unsubscribe-file', {})).status).toBe(400);
    });
  });

  describe('export 80 / 92: each row applied once', () => {
    const rows = [
      { email: 'person102@example.org', event: 'unsubscribe' },
      { email: 'person103@example.org', event: 'unsubscribe' },
      { email: 'person104@example.org', event: 'click' },
      { email: 'person105@example.org', event: 'unsubscribe' },
      { email: 'nobody@example.net', event: 'subscribe' },
      { email: 'person106@example.org', event: 'unsubscribe' },
      { email: 'person106@example.org', event: 'subscribe' },
      { email: 'person107@example.org', event: 'unsubscribe' },
    ].map((r, i) => ({ ...r, first_name: 'F', last_name: 'L', event_date: `2026-03-11T0${i}:00:00Z`, list_id: 1 }));

    it('a crash mid-file, then the resumed run: every row applied exactly once', async () => {
      fs.writeFileSync(path.join(s.dropDir, 'export_80_20260311.csv'), toCsv(EXPORT_COLUMNS, rows, '\t'));
      // Crash after row 4 (index 3: person105's OptOut reached the CRM) before its checkpoint.
      crashAt = { name: 'export_80_20260311.csv', row: 3 };
      const crashed = await post('/sync-single-export80', { name: 'export_80_20260311.csv' });
      expect(crashed.status).toBe(200);
      expect(crashed.body.data.file).toMatchObject({ status: 'failed', rowsDone: 3, rowsTotal: 8 });
      expect(crashed.body.data.error).toMatch(/simulated crash/);
      expect(consentsFrom('105', 'Adestra')).toHaveLength(1);
      const failedRun = (await get('/raiser-edge-sync/list?kind=export80')).body.data.list[0];
      expect(failedRun).toMatchObject({ field1: 'export_80_20260311.csv', status: 'failed' });

      const resumed = await post('/sync-single-export80', { name: 'export_80_20260311.csv' });
      expect(resumed.body.data.file).toMatchObject({ status: 'success', rowsDone: 8 });
      // Row 4 is replayed: its consent is found already there (unchanged), not added again.
      expect(resumed.body.data.result).toMatchObject({ applied: 5, unchanged: 1, unmatched: 1, skipped: 1 });
      for (const id of ['102', '103', '105', '107']) {
        const c = consentsFrom(id, 'Adestra');
        expect(c, id).toHaveLength(1);
        expect(c[0].constituent_consent_response).toBe('OptOut');
      }
      // person106: OptOut then OptIn, in file order.
      expect(consentsFrom('106', 'Adestra').map((c) => c.constituent_consent_response)).toEqual(['OptOut', 'OptIn']);
      expect(consentsFrom('104', 'Adestra')).toHaveLength(0);
      const rec = (await w.db('general_data').where({ type: 'adestra-export80-sync-file' }))[0];
      expect(JSON.parse(typeof rec.data === 'string' ? rec.data : JSON.stringify(rec.data))).toMatchObject({ runs: 2, resumedFrom: 3, skipped: [{ row: 3, reason: 'event "click" is not a consent change' }] });
    });

    it('an instance that died holding the file: its lease expires, the file is marked failed, and the next run resumes it once', async () => {
      const rows92 = ['102', '103', '104', '100'].map((id, i) => ({ email: `person${id}@example.org`, event: i === 2 ? 'click' : 'subscribe', first_name: '', last_name: '', event_date: `2026-03-11T1${i}:00:00Z`, list_id: 1 }));
      fs.writeFileSync(path.join(s.dropDir, 'export_92_20260311.csv'), toCsv(EXPORT_COLUMNS, rows92, ','));
      const fromThisFile = (id: string) => consentsFrom(id, 'Adestra').filter((c) => c.consent_date.startsWith('2026-03-11T1'));
      // Another instance held the file's lease and applied row 1, then died.
      const other = s.makeSync({ holder: 'dead-instance' });
      crashAt = { name: 'export_92_20260311.csv', row: 1 };
      const site = await other.siteFor({ id: w.users.adminA, role: 'admin', siteId: w.sites.a, email: '', firstName: '', lastName: '' }, 'site-a');
      await other.processFile(site, 'export92', 'export_92_20260311.csv', { trigger: 'manual', userId: null });
      const leaseName = `file:${w.sites.a}:export92:export_92_20260311.csv`;
      // As if it had died mid-run: still "running" with a lease that has now expired.
      await w.db('job_leases').where({ name: leaseName }).update({ holder: 'dead-instance', last_status: 'running', lease_until: new Date(w.clock.now().getTime() - 1000).toISOString() });
      const rec = (await w.db('general_data').where({ type: 'adestra-export92-sync-file' }).first())!;
      await w.db('general_data').where({ id: rec.id }).update({ status: 'processing' });

      const res = await post('/sync-single-export92', { name: 'export_92_20260311.csv' });
      expect(res.body.data.file).toMatchObject({ status: 'success', rowsDone: 4 });
      for (const id of ['102', '103', '100']) expect(fromThisFile(id), id).toHaveLength(1);
      expect(res.body.data.result).toMatchObject({ applied: 2, unchanged: 1, skipped: 1 });
      expect(res.body.data.listAlreadyProcess.map((f: { name: string }) => f.name)).toEqual(['export_92_20260311.csv']);
    });

    it('a file another instance is processing right now → 409', async () => {
      fs.writeFileSync(path.join(s.dropDir, 'export_92_20260312.csv'), toCsv(EXPORT_COLUMNS, rows.slice(0, 1), ','));
      await w.db('job_leases').insert({ name: `file:${w.sites.a}:export92:export_92_20260312.csv`, holder: 'busy-instance', lease_until: new Date(w.clock.now().getTime() + 60_000).toISOString(), last_status: 'running', registered_at: w.clock.now().toISOString() });
      const res = await post('/sync-single-export92', { name: 'export_92_20260312.csv' });
      expect(res.status).toBe(409);
    });

    it('list-file shows each file with its status and a result when it succeeded, and the export link', async () => {
      const res = await get('/list-file-export80');
      expect(res.body.data.exportUrl).toBe(`${s.adServer.url}/api/rest/1/exports/80`);
      // (the unsubscribe test's simulator run wrote empty export files of 2026-03-10 too)
      expect(res.body.data.list).toEqual([
        expect.objectContaining({ name: 'export_80_20260310.csv', status: 'unprocessed', result: null }),
        expect.objectContaining({ name: 'export_80_20260311.csv', status: 'success', result: expect.objectContaining({ applied: 5 }) }),
      ]);
      const n92 = await get('/list-file-export92');
      expect(n92.body.data.list.map((f: { name: string; status: string }) => [f.name, f.status])).toEqual([
        ['export_92_20260310.csv', 'unprocessed'],
        ['export_92_20260311.csv', 'success'],
        ['export_92_20260312.csv', 'unprocessed'],
      ]);
    });

    it('the simulator writes export files into the drop folder and the exports answer them', async () => {
      const written = s.adestra.writeFiles('2026-03-13');
      expect(written).toEqual(['unsubscribe_20260313.csv', 'export_80_20260313.csv', 'export_92_20260313.csv']);
      expect(readCsv(path.join(s.dropDir, 'export_92_20260313.csv')).delimiter).toBe('|');
      const res = await post('/sync-single-export92', { name: 'export_92_20260313.csv' });
      expect(res.body.data.file.status).toBe('success');
    });
  });

  describe('download-export', () => {
    it('serves a drop file as CSV', async () => {
      const res = await get('/download-export/export_80_20260311.csv');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/csv/);
      expect(res.headers['content-disposition']).toBe('attachment; filename="export_80_20260311.csv"');
      expect(res.text.split('\r\n')[0]).toBe(EXPORT_COLUMNS.join('\t'));
    });

    it('refuses anything else: traversal, other names, symlinks out of the folder', async () => {
      fs.writeFileSync(path.join(w.dataDir, 'secret.csv'), 'secret');
      fs.symlinkSync(path.join(w.dataDir, 'secret.csv'), path.join(s.dropDir, 'export_80_20200101.csv'));
      for (const name of ['..%2Fsecret.csv', '..%2F..%2Fetc%2Fpasswd', 'secret.csv', 'export_80_20200101.csv', 'export_80_20260311.csv%00.txt']) {
        const res = await get(`/download-export/${name}`);
        // A NUL (%00) is refused before any route (400); every other name is simply not an export file.
        expect(res.status, name).toBe(name.includes('%00') ? 400 : 404);
        expect(res.text).not.toContain('secret');
      }
      expect((await get('/list-file-export80')).body.data.list.map((f: { name: string }) => f.name)).not.toContain('export_80_20200101.csv');
    });

    it('a user of another site cannot download', async () => {
      expect((await get('/download-export/export_80_20260311.csv', w.tokens.userB)).status).toBe(404);
    });
  });

  describe('job configs and status', () => {
    it('defaults: CRM 19, unsubscribe 2, export80 4, export92 6; targetDate yesterday', async () => {
      const res = await get('/sync-config');
      expect(res.body.data.list.map((c: { job: string; hour: string; targetDate: string; type: string }) => [c.job, c.type, c.hour, c.targetDate])).toEqual([
        ['re-sync', 're-sync-config', '19', 'yesterday'],
        ['unsubscribe', 'adestra-unsubscribe-sync', '2', 'yesterday'],
        ['export80', 'adestra-export80-sync', '4', 'yesterday'],
        ['export92', 'adestra-export92-sync', '6', 'yesterday'],
      ]);
      expect(res.body.data.links.export92).toBe(`${s.adServer.url}/api/rest/1/exports/92`);
    });

    it('save: the hour as a string, public permission read + update only; "Sync config saved"', async () => {
      const res = await post('/sync-config/export80', { hour: 7 });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ message: 'Sync config saved', config: { job: 'export80', hour: '7', targetDate: 'yesterday' } });
      const rec = await w.db('general_data').where({ type: 'adestra-export80-sync', site_id: w.sites.a }).first();
      expect(Boolean(rec.perm_create)).toBe(false);
      expect(Boolean(rec.perm_read)).toBe(true);
      expect(Boolean(rec.perm_update)).toBe(true);
      expect(Boolean(rec.perm_delete)).toBe(false);
      expect(JSON.parse(typeof rec.data === 'string' ? rec.data : JSON.stringify(rec.data))).toEqual({ hour: '7', targetDate: 'yesterday' });
      // Saved again: the same record.
      await post('/sync-config/export80', { hour: '08', targetDate: 'today' }, w.tokens.userA2);
      const all = await w.db('general_data').where({ type: 'adestra-export80-sync' });
      expect(all).toHaveLength(1);
      expect((await get('/sync-config/export80')).body.data).toMatchObject({ hour: '8', targetDate: 'today' });
      // Readable through the general-data call as well.
      const gd = await s.request().get('/api/general-data/adestra-export80-sync').set(bearer(w.tokens.userA2));
      expect(gd.body.data.data[0].data).toEqual({ hour: '8', targetDate: 'today' });
    });

    it('a bad hour or targetDate → 400; an unknown job → 404', async () => {
      expect((await post('/sync-config/export92', { hour: '25' })).body.error).toMatch(/0 to 23/);
      expect((await post('/sync-config/export92', { hour: 'seven' })).status).toBe(400);
      expect((await post('/sync-config/export92', { hour: '6', targetDate: 'tomorrow' })).status).toBe(400);
      expect((await post('/sync-config/nope', { hour: '6' })).status).toBe(404);
    });

    it('status: each job\'s next run time and how its last run ended', async () => {
      const res = await get('/sync-status');
      expect(res.body.data.timezone).toBe('UTC');
      const byJob = Object.fromEntries(res.body.data.jobs.map((j: { job: string }) => [j.job, j]));
      expect(byJob.export80.hour).toBe('8');
      expect(new Date(byJob.export80.nextRunAt).getUTCHours()).toBe(8);
      expect(new Date(byJob.export80.nextRunAt).getTime()).toBeGreaterThan(w.clock.now().getTime());
      expect(byJob['re-sync']).toMatchObject({ hour: '19', lastStatus: null });
    });
  });
});
