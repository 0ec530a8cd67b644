// Outside production: the Raiser's Edge NXT and Adestra simulators at /__simulators/raisers-edge
// and /__simulators/adestra, speaking as the CRM and the email platform of the site whose
// RE_BASE_URL points at them (the charity demo site), with a few hundred supporters (the same on
// every start), a few unsubscribes a day, and the export / unsubscribe files of the last days in
// the site's drop folder, or its bucket prefix with STORAGE=s3 (new ones on a schedule).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import express from 'express';
import type { Logger } from 'pino';
import type { Config } from '../src/config';
import type { Db } from '../src/db';
import type { Clock } from '../src/lib/clock';
import { envValue, type EnvVar } from '../src/lib/secrets';
import { addDays } from '../src/lib/time';
import { sitesRepo } from '../src/modules/sites/repo';
import { dropDirOf, writeEnvValue } from '../src/modules/sync/siteSettings';
import { syncDropPrefix } from '../src/modules/uploads';
import { fileStoreOf } from '../src/services';
import { createAdestraSimulator } from './adestra';
import { mulberry32 } from './prng';
import { createRaisersEdgeSimulator, generateConstituents } from './raisersEdge';

export const RE_SIMULATOR_PATH = '/__simulators/raisers-edge';
export const ADESTRA_SIMULATOR_PATH = '/__simulators/adestra';
export const DEMO_CONSTITUENTS = 300;
/** The Adestra list of the shop's buyers who consented to marketing. */
export const DEMO_BUYERS_LIST_ID = 3;

/** The charity demo site's CRM and email-platform settings, pointing at the simulators (fresh secrets per install). */
export function demoSyncEnv(base: string): EnvVar[] {
  const secret = () => crypto.randomBytes(18).toString('base64url');
  return [
    { key: 'RE_BASE_URL', value: `${base}${RE_SIMULATOR_PATH}` },
    { key: 'RE_TOKEN_URL', value: `${base}${RE_SIMULATOR_PATH}/token` },
    // Connect / Reconnect on the sync screen go through the simulator's authorisation page.
    { key: 'RE_AUTHORIZE_URL', value: `${base}${RE_SIMULATOR_PATH}/oauth/authorize` },
    { key: 'RE_CLIENT_ID', value: 'presswork-demo' },
    { key: 'RE_CLIENT_SECRET', value: secret() },
    { key: 'RE_SUBSCRIPTION_KEY', value: secret() },
    { key: 'RE_REFRESH_TOKEN', value: secret() },
    { key: 'RE_WEBHOOK_KEY', value: secret() },
    { key: 'ADESTRA_BASE_URL', value: `${base}${ADESTRA_SIMULATOR_PATH}/api/rest/1` },
    { key: 'ADESTRA_TOKEN', value: secret() },
    { key: 'ADESTRA_TABLE_ID', value: '1' },
    { key: 'ADESTRA_OPTIN_LIST_ID', value: '1' },
    { key: 'ADESTRA_UNSUB_LIST_ID', value: '2' },
    // The order pipeline: each paid order's buyer into the CRM and Adestra, its e-cards e-mailed.
    { key: 'ADESTRA_BUYERS_LIST_ID', value: String(DEMO_BUYERS_LIST_ID) },
    { key: 'PIPELINE_ADD_TO_CRM', value: '1' },
    { key: 'PIPELINE_ADD_TO_ADESTRA', value: '1' },
    { key: 'PIPELINE_SEND_ECARD', value: '1' },
  ];
}

export async function demoSyncSimulators(deps: { db: Db; clock: Clock; config: Config; log?: Logger }, base: string) {
  const { db, clock, config } = deps;
  const { rows } = await sitesRepo(db).list({}, { field: 'id', order: 'asc' }, 1000, 0);
  const site = rows.find((s) => (envValue(s.settings.env, 'RE_BASE_URL') ?? '').replace(/\/+$/, '').endsWith(RE_SIMULATOR_PATH));
  if (!site) return undefined;
  // A demo database seeded before the sync settings existed: complete them.
  for (const v of demoSyncEnv(base)) {
    if (!envValue(site.settings.env, v.key)) {
      await writeEnvValue(db, clock, site.id, v.key, v.value);
      site.settings.env.push(v);
    }
  }
  const env = (key: string) => envValue(site.settings.env, key) ?? '';
  const now = clock.now();
  const { constituents, consents } = generateConstituents(DEMO_CONSTITUENTS, 42, now);
  const re = createRaisersEdgeSimulator({
    clientId: env('RE_CLIENT_ID'),
    clientSecret: env('RE_CLIENT_SECRET'),
    subscriptionKey: env('RE_SUBSCRIPTION_KEY'),
    // The simulator forgets on restart; the app kept the latest rotated token, so that one works.
    refreshToken: env('RE_REFRESH_TOKEN'),
    constituents,
    consents,
  });
  const dropDir = dropDirOf(site, config);
  const people = constituents.filter((c) => c.email).map((c) => ({ email: c.email!.address, first_name: c.first, last_name: c.last }));
  // A few addresses the CRM does not know: the sync reports them as unmatched.
  const strangers = ['new.reader@example.net', 'someone.else@example.net'].map((email) => ({ email, first_name: '', last_name: '' }));
  // With files in a bucket the sync reads its drop files from there (<site id>/sync-drop/): the
  // demo delivers each file the simulated platform writes, as a real install's fetch job would.
  const bucket = config.storage.kind === 's3' ? fileStoreOf(config) : undefined;
  const delivering = new Set<Promise<void>>();
  const onWritten = bucket
    ? (dir: string, names: string[]) => {
        const copy = (async () => {
          for (const name of names) await bucket.put(syncDropPrefix(site.id) + name, fs.createReadStream(path.join(dir, name)), { contentType: 'text/csv' });
        })()
          .catch((err: unknown) => deps.log?.warn({ err }, 'the demo could not deliver the email platform files to the bucket'))
          .finally(() => delivering.delete(copy));
        delivering.add(copy);
      }
    : undefined;
  const adestra = createAdestraSimulator({
    onWritten,
    token: env('ADESTRA_TOKEN'),
    tableId: Number(env('ADESTRA_TABLE_ID')) || 1,
    optInListId: Number(env('ADESTRA_OPTIN_LIST_ID')) || 1,
    unsubListId: Number(env('ADESTRA_UNSUB_LIST_ID')) || 2,
    lists: [{ id: Number(env('ADESTRA_BUYERS_LIST_ID')) || DEMO_BUYERS_LIST_ID, name: 'Shop buyers' }],
    dropDir,
    people: () => [...people, ...strangers],
  });
  // Unsubscribes of the last three days (deterministic), then their files.
  const rnd = mulberry32(7);
  for (let d = 3; d >= 0; d--) {
    const day = addDays(now.toISOString().slice(0, 10), -d);
    for (let i = 0; i < 6; i++) adestra.unsubscribe(people[Math.floor(rnd() * people.length)].email, new Date(`${day}T${String(9 + i).padStart(2, '0')}:15:00Z`));
    adestra.unsubscribe(strangers[d % 2].email, new Date(`${day}T18:00:00Z`));
  }
  for (let d = 2; d >= 1; d--) adestra.writeFiles(addDays(now.toISOString().slice(0, 10), -d));
  await Promise.all(delivering);
  adestra.startSchedule(config.sync.simExportEveryMinutes * 60_000);
  const router = express.Router();
  router.use(RE_SIMULATOR_PATH, re.app);
  router.use(ADESTRA_SIMULATOR_PATH, adestra.app);
  return { router, re, adestra, site, stop: () => adestra.stop() };
}
