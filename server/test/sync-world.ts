// A Presswork world with the CRM and email-platform simulators on 127.0.0.1:0, site A wired to
// them (settings.env), and a sync service whose HTTP waits are recorded instead of slept.
import type { AddressInfo } from 'node:net';
import http from 'node:http';
import path from 'node:path';
import supertest from 'supertest';
import { afterAll } from 'vitest';
import type { Express } from 'express';
import { createApp } from '../src/app';
import { createLogger } from '../src/lib/logger';
import { sitesService } from '../src/modules/sites/service';
import { syncService, type SyncServiceOptions } from '../src/modules/sync/service';
import { createAdestraSimulator } from '../simulators/adestra';
import { createRaisersEdgeSimulator, type RaisersEdgeSimOptions, type SimConstituent } from '../simulators/raisersEdge';
import { createWorld } from './harness';

export async function listen(app: Express | ((req: http.IncomingMessage, res: http.ServerResponse) => void)): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(app as http.RequestListener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

export const person = (id: string, patch: Partial<SimConstituent> = {}): SimConstituent => ({
  id,
  type: 'Individual',
  first: `First${id}`,
  last: `Last${id}`,
  name: `First${id} Last${id}`,
  lookup_id: `LU${id}`,
  inactive: false,
  deceased: false,
  requests_no_email: false,
  date_modified: '2026-02-01T12:00:00.000Z',
  email: { address: `person${id}@example.org`, primary: true, inactive: false, do_not_email: false },
  ...patch,
});

export const KEYS = { clientId: 'client-1', clientSecret: 'client-secret-1', subscriptionKey: 'sub-key-1', refreshToken: 'refresh-0', webhookKey: 'hook-key-1', adestraToken: 'ad-token-1' };

export async function createSyncWorld(
  o: {
    constituents?: SimConstituent[];
    consents?: RaisersEdgeSimOptions['consents'];
    sync?: SyncServiceOptions;
    /** App settings (config). */
    env?: Record<string, string>;
    /** Extra settings.env values of site A. */
    siteEnv?: Record<string, string>;
    /** More options of the CRM simulator (code tables, redirect URIs…). */
    reSim?: Partial<RaisersEdgeSimOptions>;
    adestraSim?: Partial<Parameters<typeof createAdestraSimulator>[0]>;
  } = {},
) {
  const w = await createWorld(o.env);
  const re = createRaisersEdgeSimulator({ clientId: KEYS.clientId, clientSecret: KEYS.clientSecret, subscriptionKey: KEYS.subscriptionKey, refreshToken: KEYS.refreshToken, constituents: o.constituents ?? [], consents: o.consents ?? [], ...o.reSim });
  const dropDir = path.join(w.dataDir, 'drop');
  const adestra = createAdestraSimulator({ token: KEYS.adestraToken, dropDir, ...o.adestraSim });
  const reServer = await listen(re.app);
  const adServer = await listen(adestra.app);
  const env = [
    { key: 'RE_BASE_URL', value: reServer.url },
    { key: 'RE_TOKEN_URL', value: `${reServer.url}/token` },
    { key: 'RE_CLIENT_ID', value: KEYS.clientId },
    { key: 'RE_CLIENT_SECRET', value: KEYS.clientSecret },
    { key: 'RE_SUBSCRIPTION_KEY', value: KEYS.subscriptionKey },
    { key: 'RE_REFRESH_TOKEN', value: KEYS.refreshToken },
    { key: 'RE_WEBHOOK_KEY', value: KEYS.webhookKey },
    { key: 'ADESTRA_BASE_URL', value: `${adServer.url}/api/rest/1` },
    { key: 'ADESTRA_TOKEN', value: KEYS.adestraToken },
    { key: 'ADESTRA_TABLE_ID', value: '1' },
    { key: 'ADESTRA_OPTIN_LIST_ID', value: '1' },
    { key: 'ADESTRA_UNSUB_LIST_ID', value: '2' },
    { key: 'ADESTRA_EXPORT_DIR', value: dropDir },
    ...Object.entries(o.siteEnv ?? {}).map(([key, value]) => ({ key, value })),
  ];
  await w.db('sites').where({ id: w.sites.a }).update({ settings: JSON.stringify({ env }) });
  const waits: number[] = [];
  const deps = { db: w.db, clock: w.clock, config: w.config, log: createLogger('silent') };
  const makeSync = (extra: SyncServiceOptions = {}) =>
    syncService(deps, { ...o.sync, ...extra, http: { sleep: async (ms) => void waits.push(ms), random: () => 0.5, ...o.sync?.http, ...extra.http } });
  const sync = makeSync({ inbox: w.services.inbox });
  const { app } = createApp(deps, { ...w.services, sync, sites: sitesService(deps, { checkSettings: sync.checkSiteSettings }) });
  afterAll(async () => {
    await sync.idle();
    await reServer.close();
    await adServer.close();
  });
  return { w, re, adestra, reServer, adServer, sync, makeSync, deps, app, request: () => supertest.agent(app), waits, dropDir, env };
}

export type SyncWorld = Awaited<ReturnType<typeof createSyncWorld>>;
