// Outside production: the HP simulator at /__simulators/hp, speaking as the provider of the site
// whose HP_BASE_URL points at it (the demo site), posting back to that site's hp-webhook.
import type { Db } from '../src/db';
import { envValue } from '../src/lib/secrets';
import { sitesRepo } from '../src/modules/sites/repo';
import { createHpSimulator, type HpSimulator } from './hpSiteflow';

export const HP_SIMULATOR_PATH = '/__simulators/hp';

export async function demoHpSimulator(db: Db, baseUrl: string): Promise<HpSimulator | undefined> {
  const { rows } = await sitesRepo(db).list({}, { field: 'id', order: 'asc' }, 1000, 0);
  const site = rows.find((s) => (envValue(s.settings.env, 'HP_BASE_URL') ?? '').replace(/\/+$/, '').endsWith(HP_SIMULATOR_PATH));
  if (!site) return undefined;
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
