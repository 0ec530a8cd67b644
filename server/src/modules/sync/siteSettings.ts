// A site's CRM ↔ email-platform connection, read from its settings.env (docs/settings.md
// lists them), and the clients built from it. The rotating CRM refresh token is written back into
// settings.env in a transaction the moment it arrives.
import os from 'node:os';
import path from 'node:path';
import type { Config } from '../../config';
import { fromJson, isPostgres, toJson, type Db } from '../../db';
import type { Clock } from '../../lib/clock';
import { envValue, type EnvVar } from '../../lib/secrets';
import { createAdestraClient, type AdestraClient } from '../../integrations/adestra';
import type { HttpSettings } from '../../integrations/crmHttp';
import { createRaisersEdgeClient, type RaisersEdgeClient, type ReTokenStore } from '../../integrations/raisersEdge';
import type { Site } from '../sites/repo';
import { connectionRepo } from './connectionRepo';

/** Blackbaud's OAuth token endpoint, used when RE_TOKEN_URL is not set. */
export const SKY_TOKEN_URL = 'https://oauth2.sky.blackbaud.com/token';
/** Blackbaud's authorisation page (the admin's browser is sent there), used when RE_AUTHORIZE_URL is not set. */
export const SKY_AUTHORIZE_URL = 'https://app.blackbaud.com/oauth/authorize';

/** The code-table entries used when RE_EMAIL_TYPE / RE_ADDRESS_TYPE / RE_NOTE_TYPE are not set (Blackbaud's own samples use "Email" and "Home"). */
export const RE_DEFAULT_TYPES = { email: 'Email', address: 'Home', note: 'General' } as const;

export interface SiteSync {
  site: Site;
  re: {
    baseUrl: string;
    tokenUrl: string;
    authorizeUrl: string;
    clientId: string;
    clientSecret: string;
    subscriptionKey: string;
    webhookKey: string;
    /** The organisation's own consent source and category names, sent with every consent we create (empty: none sent). */
    consentSource: string;
    consentCategory: string;
    /** Code-table entries new constituents and notes are written with (each organisation names its own; see docs). */
    emailType: string;
    addressType: string;
    noteType: string;
  };
  adestra: { baseUrl: string; token: string; tableId: string; optInListId: string; unsubListId: string };
  dropDir: string;
}

export const hasSync = (site: Site) => Boolean(envValue(site.settings.env, 'RE_BASE_URL') && envValue(site.settings.env, 'ADESTRA_BASE_URL'));

/** The folder the platform's export and unsubscribe files are dropped in. */
export function dropDirOf(site: Site, config: Config): string {
  const dataDir = config.dataDir === ':memory:' ? path.join(os.tmpdir(), `presswork-data-${process.pid}`) : config.dataDir;
  const configured = envValue(site.settings.env, 'ADESTRA_EXPORT_DIR');
  if (configured) return path.resolve(dataDir, configured);
  return path.join(dataDir, 'adestra-drop', site.slug);
}

export function syncSettingsOf(site: Site, config: Config): SiteSync {
  const v = (key: string) => envValue(site.settings.env, key)?.trim() ?? '';
  return {
    site,
    re: {
      baseUrl: v('RE_BASE_URL'),
      tokenUrl: v('RE_TOKEN_URL') || SKY_TOKEN_URL,
      authorizeUrl: v('RE_AUTHORIZE_URL') || SKY_AUTHORIZE_URL,
      clientId: v('RE_CLIENT_ID'),
      clientSecret: v('RE_CLIENT_SECRET'),
      subscriptionKey: v('RE_SUBSCRIPTION_KEY'),
      webhookKey: v('RE_WEBHOOK_KEY'),
      consentSource: v('RE_CONSENT_SOURCE'),
      consentCategory: v('RE_CONSENT_CATEGORY'),
      emailType: v('RE_EMAIL_TYPE') || RE_DEFAULT_TYPES.email,
      addressType: v('RE_ADDRESS_TYPE') || RE_DEFAULT_TYPES.address,
      noteType: v('RE_NOTE_TYPE') || RE_DEFAULT_TYPES.note,
    },
    adestra: { baseUrl: v('ADESTRA_BASE_URL'), token: v('ADESTRA_TOKEN'), tableId: v('ADESTRA_TABLE_ID'), optInListId: v('ADESTRA_OPTIN_LIST_ID'), unsubListId: v('ADESTRA_UNSUB_LIST_ID') },
    dropDir: dropDirOf(site, config),
  };
}

/** Read a site's settings.env straight from the database (never from a cache: another instance may have rotated the token). */
export async function readEnv(db: Db, siteId: number): Promise<EnvVar[]> {
  const row = await db('sites').where({ id: siteId }).first('settings');
  return fromJson<{ env?: EnvVar[] }>(row?.settings, {}).env ?? [];
}

/** Replace one settings.env value in a transaction (row locked on PostgreSQL). */
export async function writeEnvValue(db: Db, clock: Clock, siteId: number, key: string, value: string): Promise<void> {
  await db.transaction(async (trx) => {
    const q = trx('sites').where({ id: siteId }).first('settings');
    if (isPostgres(db)) q.forUpdate();
    const row = await q;
    if (!row) return;
    const settings = fromJson<{ env?: EnvVar[]; [k: string]: unknown }>(row.settings, {});
    const env = settings.env ?? [];
    const i = env.findIndex((e) => e.key === key);
    if (i >= 0) env[i] = { key, value };
    else env.push({ key, value });
    await trx('sites')
      .where({ id: siteId })
      .update({ settings: toJson({ ...settings, env }), updated_at: clock.now().toISOString() });
  });
}

export interface ClientFactoryOptions {
  db: Db;
  clock: Clock;
  config: Config;
  http: Partial<HttpSettings>;
}

/** Builds the two clients of a site; keeps one access-token cache per site in this process. */
export function clientFactory({ db, clock, config, http }: ClientFactoryOptions) {
  const stores = new Map<string, ReTokenStore>();
  const connections = connectionRepo(db);
  const httpSettings = (): HttpSettings => ({
    timeoutMs: config.sync.httpTimeoutMs,
    maxRetryAfterSeconds: config.sync.maxRetryAfterSeconds,
    now: () => clock.now(),
    ...http,
  });

  function tokenStore(s: SiteSync): ReTokenStore {
    const key = `${s.site.id}|${s.re.tokenUrl}|${s.re.clientId}`;
    let store = stores.get(key);
    if (!store) {
      store = {
        getRefreshToken: async () => envValue(await readEnv(db, s.site.id), 'RE_REFRESH_TOKEN') || undefined,
        saveRefreshToken: (token) => writeEnvValue(db, clock, s.site.id, 'RE_REFRESH_TOKEN', token),
        needsReconnect: async () => {
          const c = await connections.get(s.site.id);
          return c?.needsReconnect ? (c.reason ?? 'the CRM refused the refresh token') : undefined;
        },
        markRevoked: (reason) => connections.markRevoked(s.site.id, reason, clock.now().toISOString()),
      };
      stores.set(key, store);
    }
    return store;
  }

  return {
    raisersEdge: (s: SiteSync): RaisersEdgeClient => createRaisersEdgeClient(s.re, tokenStore(s), httpSettings()),
    adestra: (s: SiteSync): AdestraClient => createAdestraClient(s.adestra, httpSettings()),
    /** Forget cached access tokens (tests; after the site's settings change). */
    forget: (siteId?: number) => {
      for (const key of [...stores.keys()]) if (siteId === undefined || key.startsWith(`${siteId}|`)) stores.delete(key);
    },
  };
}
