// Outside production: the HP simulator at /__simulators/hp (and /__simulators/hp/<slug>), speaking
// as the provider of each site whose HP_BASE_URL points at it (the demo site, the charity's), with
// that site's key pair, posting back to that site's hp-webhook.
import express from 'express';
import type { Db } from '../src/db';
import { envValue } from '../src/lib/secrets';
import { sitesRepo, type Site } from '../src/modules/sites/repo';
import { createHpSimulator, type HpSimulator } from './hpSiteflow';

export const HP_SIMULATOR_PATH = '/__simulators/hp';

/** Where a site's simulator is mounted: its HP_BASE_URL's path, when it is the simulator's. */
function mountOf(site: Site): string | undefined {
  const url = (envValue(site.settings.env, 'HP_BASE_URL') ?? '').replace(/\/+$/, '');
  const at = url.indexOf(HP_SIMULATOR_PATH);
  if (at < 0) return undefined;
  const path = url.slice(at);
  return path === HP_SIMULATOR_PATH || /^\/__simulators\/hp\/[a-z0-9-]+$/.test(path) ? path : undefined;
}

function simulatorOf(site: Site, baseUrl: string): HpSimulator | undefined {
  const env = site.settings.env;
  const key = envValue(env, 'HP_API_KEY');
  const secret = envValue(env, 'HP_API_SECRET');
  if (!key || !secret) return undefined;
  const token = envValue(env, 'HP_POSTBACK_TOKEN');
  return createHpSimulator({
    key,
    secret,
    scheme: (envValue(env, 'HP_AUTH_SCHEME') ?? '').trim().toLowerCase() === 'oneflow' ? 'oneflow' : 'printos',
    sourceAccount: envValue(env, 'HP_SOURCE_ACCOUNT') || undefined,
    timeline: 5_000,
    postback: token ? { url: `${baseUrl}/api/online-stores/hp-webhook?site=${encodeURIComponent(site.slug)}`, token } : undefined,
  });
}

/** One simulator per demo site pointing at one (the longest paths first, so /hp/<slug> is not taken by /hp). */
export async function demoHpSimulators(db: Db, baseUrl: string): Promise<express.Router | undefined> {
  const { rows } = await sitesRepo(db).list({}, { field: 'id', order: 'asc' }, 1000, 0);
  const mounted = new Map<string, HpSimulator>();
  for (const site of rows) {
    const path = mountOf(site);
    const sim = path && !mounted.has(path) ? simulatorOf(site, baseUrl) : undefined;
    if (path && sim) mounted.set(path, sim);
  }
  if (!mounted.size) return undefined;
  const router = express.Router();
  for (const [path, sim] of [...mounted].sort(([a], [b]) => b.length - a.length)) router.use(path, sim.app);
  return router;
}
