// Two app instances on one fresh PostgreSQL database, both with the scheduler on (every job fires
// every SYNC_SCHEDULE_EVERY_SECONDS, leases of SYNC_LEASE_SECONDS=5) and both with the outbox
// worker; the CRM (Raiser's Edge), email-platform (Adestra) and provider (HP Site Flow) simulators
// run in this process. Checked:
// - each scheduled run happens once per due time (slot) across both instances;
// - the instance holding the Export 80 job's lease is SIGKILLed mid-file: its lease expires, the
//   other instance takes the run over and finishes it, and no row is applied twice in the CRM;
// - orders arriving on both instances with HP_AUTO_SEND=1 are sent by the two outbox workers,
//   each exactly once.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import type { Knex } from 'knex';
import { afterEach, describe, expect, it } from 'vitest';
import { createAdestraSimulator } from '../server/simulators/adestra';
import { createRaisersEdgeSimulator, type SimConstituent } from '../server/simulators/raisersEdge';
import { appProcess, freshPostgres, type AppProcess } from './lib/appProcess';
import { api, createHpSite, deliverOrder, HP_POSTBACK_TOKEN, planOrders, startHpSim, waitFor } from './lib/hp';
import { openAppDb } from './lib/inspect';
import { signIn, sleep } from './lib/store';

const EVERY = 20;
const ROWS = Number(process.env.FAULTS_SYNC_ROWS ?? 30);
const ORDERS = Number(process.env.FAULTS_N ?? 60);
const seed = Number(process.env.FAULTS_SEED ?? Math.floor(Math.random() * 2 ** 31));

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!().catch(() => {});
});

const json = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));
const ymd = (d: Date) => d.toISOString().slice(0, 10);

interface RunRecord {
  id: number;
  field2: string;
  status: string;
  data: { kind: string; trigger: string; status: string; slot?: string; takeoverOf?: number | null; errors: Array<{ kind?: string; message: string }> };
}

async function startSyncSims(dropDir: string) {
  const secret = () => crypto.randomBytes(12).toString('hex');
  const creds = { clientId: 'faults-re', clientSecret: secret(), subscriptionKey: secret(), refreshToken: secret(), adestraToken: secret() };
  const yesterdayNoon = new Date(Date.parse(`${ymd(new Date(Date.now() - 86_400_000))}T12:00:00Z`));
  // Supporters who opted out; Export 80 says each subscribed again: one OptIn consent per row.
  const constituents: SimConstituent[] = Array.from({ length: ROWS }, (_, i) => ({
    id: String(5000 + i),
    type: 'Individual',
    first: 'Sync',
    last: `Supporter ${i}`,
    name: `Sync Supporter ${i}`,
    lookup_id: `L${5000 + i}`,
    inactive: false,
    deceased: false,
    requests_no_email: false,
    date_modified: yesterdayNoon.toISOString(),
    email: { address: `supporter${i}@faults.example.org`, primary: true, inactive: false, do_not_email: false },
  }));
  const re = createRaisersEdgeSimulator({
    clientId: creds.clientId,
    clientSecret: creds.clientSecret,
    subscriptionKey: creds.subscriptionKey,
    refreshToken: creds.refreshToken,
    constituents,
    consents: constituents.map((c) => ({ constituent_id: c.id, channel: 'Email', category: 'Newsletter', source: 'Website', consent_date: '2026-01-01T00:00:00Z', constituent_consent_response: 'OptOut' as const })),
    // The organisation's consent sources: the file's consents name the site's RE_CONSENT_SOURCE.
    consentSources: ['Website', 'Adestra'],
  });
  const adestra = createAdestraSimulator({ token: creds.adestraToken, tableId: 1, optInListId: 1, unsubListId: 2, dropDir });
  const server = http.createServer(express().use('/re', re.app).use('/adestra', adestra.app));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const env = {
    RE_BASE_URL: `${base}/re`,
    RE_TOKEN_URL: `${base}/re/token`,
    RE_CLIENT_ID: creds.clientId,
    RE_CLIENT_SECRET: creds.clientSecret,
    RE_SUBSCRIPTION_KEY: creds.subscriptionKey,
    RE_REFRESH_TOKEN: creds.refreshToken,
    RE_WEBHOOK_KEY: secret(),
    ADESTRA_BASE_URL: `${base}/adestra/api/rest/1`,
    ADESTRA_TOKEN: creds.adestraToken,
    ADESTRA_TABLE_ID: '1',
    ADESTRA_OPTIN_LIST_ID: '1',
    ADESTRA_UNSUB_LIST_ID: '2',
    ADESTRA_EXPORT_DIR: dropDir,
  };
  return {
    re,
    adestra,
    env,
    constituents,
    close: async () => {
      adestra.stop();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

describe('two instances on one PostgreSQL database', () => {
  it('each scheduled run happens once per due time; a killed lease holder is taken over; each order is sent once', async () => {
    console.log(`[sync] seed ${seed}, ${ROWS} export rows, ${ORDERS} orders, jobs every ${EVERY} s`);
    const pg = await freshPostgres();
    cleanups.push(pg.drop);
    const dropDir = fs.mkdtempSync(path.join(os.tmpdir(), 'presswork-faults-drop-'));
    cleanups.push(async () => fs.rmSync(dropDir, { recursive: true, force: true }));
    const sims = await startSyncSims(dropDir);
    cleanups.push(sims.close);
    const hp = await startHpSim({ seed });
    cleanups.push(hp.close);

    const env = {
      DATABASE_URL: pg.url,
      SYNC_SCHEDULER: '1',
      SYNC_LEASE_SECONDS: '5',
      SYNC_SCHEDULE_EVERY_SECONDS: String(EVERY),
      SYNC_HTTP_TIMEOUT_MS: '5000',
      OUTBOX_LEASE_SECONDS: '5',
      OUTBOX_RETRY_BASE_SECONDS: '1',
    };
    // One shared DATA_DIR (uploaded files, print PDFs), as two instances behind one address share their storage.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'presswork-faults-shared-'));
    cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    const apps: AppProcess[] = [appProcess(env, { dataDir }), appProcess(env, { dataDir })];
    for (const a of apps) cleanups.push(() => a.stop());
    const fail = (err: unknown): never => {
      throw new Error(`${err instanceof Error ? err.message : String(err)}\n--- app logs ---\n${apps.map((a, i) => `[instance ${i}]\n${a.log().slice(-3000)}`).join('\n')}`);
    };
    await Promise.all(apps.map((a) => a.start())).catch(fail);
    const db: Knex = openAppDb(apps[0], pg.url);
    cleanups.push(() => db.destroy());
    const token = await signIn(apps[0].baseUrl);

    // One site: the store, HP (auto-send), the CRM and the email platform.
    const slug = `sync-${seed % 100_000}`;
    const site = await createHpSite(apps[0].baseUrl, token, slug, hp.baseUrl, { HP_AUTO_SEND: '1', ...sims.env });
    // The consent source is chosen once the site is connected: checked against the CRM's own list.
    const consent = await api(apps[0].baseUrl, token, 'POST', `/api/sites/${slug}/raiser-edge/consent-settings`, { source: 'Adestra' });
    if (consent.status !== 200) throw new Error(`consent settings: ${consent.status} ${JSON.stringify(consent.body)}`);
    hp.sim.setPostback({ url: `${apps[1].baseUrl}/api/online-stores/hp-webhook?site=${slug}`, token: HP_POSTBACK_TOKEN });

    // The Export 80 file of yesterday: every supporter subscribed again. Each CRM call takes a while,
    // so the file takes seconds and the kill lands mid-file.
    const yesterday = ymd(new Date(Date.now() - 86_400_000));
    const csv = ['email,first_name,last_name,event,event_date,list_id', ...sims.constituents.map((c) => `${c.email!.address},Sync,${c.last},subscribe,${yesterday}T10:00:00Z,1`)].join('\n');
    fs.writeFileSync(path.join(dropDir, `export_80_${yesterday.replaceAll('-', '')}.csv`), `${csv}\n`);
    sims.re.setDelay(60);

    // Each instance learns about the new site's jobs when a config is saved there (else within 5 minutes).
    for (const [i, job] of [
      [0, 'export80'],
      [1, 'export92'],
    ] as const) {
      const saved = await api(apps[i].baseUrl, token, 'POST', `/api/sites/${slug}/sync-config/${job}`, { hour: '4', targetDate: 'yesterday' });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    }

    // Orders arrive on both instances; the two outbox workers send them.
    const orders = planOrders(ORDERS, seed);
    const delivering = (async () => {
      for (let i = 0; i < orders.length; i += 8)
        await Promise.all(orders.slice(i, i + 8).map((o, j) => deliverOrder([apps[(i + j) % 2].baseUrl, apps[(i + j + 1) % 2].baseUrl], site, o)));
    })();

    // --- kill the instance holding the Export 80 run, mid-file ----------------------------------
    const leaseName = `sync:${site.siteId}:export80`;
    let killed: { index: number; holder: string; slot: string; rowsDone: number } | undefined;
    const fileRecord = async () => {
      const row = await db('general_data').where({ type: 'adestra-export80-sync-file', site_id: site.siteId }).first();
      return row ? json<{ status: string; rowsDone: number; rowsTotal: number; runs: number; applied: number; unchanged: number }>(row.data) : undefined;
    };
    await waitFor(
      'the Export 80 run to be under way',
      async () => {
        const lease = await db('job_leases').where({ name: leaseName }).first();
        const file = await fileRecord();
        if (lease?.last_status !== 'running' || !file || file.rowsDone < 3) return false;
        const index = apps.findIndex((a) => a.pid !== undefined && String(lease.holder).includes(`:${a.pid}:`));
        if (index < 0) return false;
        await apps[index].kill();
        killed = { index, holder: lease.holder, slot: lease.last_slot, rowsDone: file.rowsDone };
        return true;
      },
      90_000,
      100,
    ).catch(fail);
    const k = killed!;
    const afterKill = (await fileRecord())!;
    console.log(`[sync] killed instance ${k.index} holding ${leaseName} (slot ${k.slot}) at row ${afterKill.rowsDone}/${afterKill.rowsTotal}`);
    expect(afterKill.rowsDone).toBeLessThan(ROWS);

    // The survivor takes the run over once the lease expires, and finishes it.
    await waitFor(
      'the other instance to take the run over and finish it',
      async () => {
        const lease = await db('job_leases').where({ name: leaseName }).first();
        return lease?.last_status !== 'running' && (await fileRecord())?.status === 'success';
      },
      120_000,
    ).catch(fail);
    const lease = await db('job_leases').where({ name: leaseName }).first();
    expect(lease.last_status).toBe('success');
    expect(String(lease.last_slot) >= k.slot).toBe(true);

    // The killed instance comes back; every job keeps running once per slot for two more slots.
    await apps[k.index].start().catch(fail);
    await delivering.catch(fail);
    await sleep(2 * EVERY * 1000 + 3000);
    await waitFor('the outbox to drain', async () => !(await db('outbox').where({ site_id: site.siteId }).whereNot('status', 'sent').first()), 120_000).catch(async (err) =>
      fail(`${(err as Error).message}: ${JSON.stringify(await db('outbox').where({ site_id: site.siteId }).whereNot('status', 'sent').limit(3))}`),
    );
    await waitFor('runs under way to end', async () => !(await db('job_leases').where('name', 'like', `sync:${site.siteId}:%`).where('last_status', 'running').first()), 60_000).catch(fail);
    await Promise.all(apps.map((a) => a.stop()));

    // --- the takeover: the dead run is recorded as failed, the taker finished its slot ----------
    const runs = (await db('general_data').where({ type: 're-sync', site_id: site.siteId }).orderBy('id')).map((r) => ({ ...r, data: json<RunRecord['data']>(r.data) })) as RunRecord[];
    const export80 = runs.filter((r) => r.data.kind === 'export80');
    const dead = export80.find((r) => r.data.slot === k.slot && r.data.errors.some((e) => e.kind === 'crashed'));
    expect(dead, `the killed run of ${k.slot}: ${JSON.stringify(export80.map((r) => r.data))}`).toBeDefined();
    expect(dead!.data.status).toBe('failed');
    const taker = export80.find((r) => r.data.takeoverOf === dead!.id);
    expect(taker, 'the run that took over').toBeDefined();
    expect(taker!.data.slot).toBe(k.slot);
    expect(taker!.data.status).toBe('success');

    // Nothing applied twice: each supporter got exactly one new OptIn consent from the file.
    const file = (await fileRecord())!;
    expect(file).toMatchObject({ status: 'success', rowsDone: ROWS, rowsTotal: ROWS });
    expect(file.runs).toBeGreaterThanOrEqual(2);
    for (const c of sims.constituents) {
      const fromFile = sims.re.consentsOf(c.id).filter((x) => x.source === 'Adestra');
      expect(fromFile.map((x) => x.constituent_consent_response), `consents of ${c.id} from Export 80`).toEqual(['OptIn']);
    }

    // --- once per due time, across both instances -----------------------------------------------
    const scheduled = runs.filter((r) => r.data.slot);
    const bySlot = new Map<string, RunRecord[]>();
    for (const r of scheduled) bySlot.set(`${r.data.kind} ${r.data.slot}`, [...(bySlot.get(`${r.data.kind} ${r.data.slot}`) ?? []), r]);
    const crashed = (r: RunRecord) => r.data.errors.some((e) => e.kind === 'crashed');
    for (const [key, list] of bySlot) {
      // One run per job and slot, plus — only where the instance died — the dead run its taker replaced.
      const finishing = list.filter((r) => !crashed(r));
      expect(finishing.map((r) => r.data), `runs of ${key}`).toHaveLength(1);
      for (const d of list.filter(crashed)) expect(finishing[0].data.takeoverOf, `the taker of ${key}`).toBe(d.id);
    }
    const daySlots = new Set(scheduled.filter((r) => r.data.kind === 'day').map((r) => r.data.slot));
    console.log(`[sync] ${scheduled.length} scheduled runs over ${bySlot.size} (job, slot) pairs; CRM day sync ran for ${daySlots.size} slots`);
    expect(daySlots.size).toBeGreaterThanOrEqual(3);
    const dayRuns = scheduled.filter((r) => r.data.kind === 'day' && !crashed(r));
    expect(dayRuns.filter((r) => r.data.status !== 'success').map((r) => r.data)).toEqual([]);

    // --- the outbox on two instances: each order sent once --------------------------------------
    expect(hp.sim.stats.created).toBe(ORDERS);
    const sources = [...hp.sim.orders.values()].map((o) => o.body.orderData.sourceOrderId).sort();
    expect(sources).toEqual(orders.map((o) => o.orderId).sort());
    const outbox = await db('outbox').where({ site_id: site.siteId });
    expect(outbox).toHaveLength(ORDERS);
    expect(outbox.every((r) => r.status === 'sent')).toBe(true);
  }, 420_000);
});
