// The demo world, seeded on first start outside production: two sites (one the charity client
// with the CRM ↔ email-platform sync), an admin and a non-admin user on each.
import crypto from 'node:crypto';
import type { Deps } from '../server/src/deps';
import type { Services } from '../server/src/services';
import { isoNow } from '../server/src/lib/clock';
import { seedPrintProduction } from './printProduction';
import { demoSyncEnv } from '../server/simulators/syncDemo';
import { CHARITY_SHOP_DOMAIN } from '../server/simulators/charityDemo';

export { seedPrintProduction };

export const DEMO_PASSWORD = 'presswork';

export const DEMO_SITES = [
  { name: 'Presswork Demo', slug: 'demo', mainColor: '#e91e63' },
  { name: 'Hope Harbour Charity', slug: 'hope-harbour', mainColor: '#1e88e5' },
] as const;

export const DEMO_USERS = [
  { site: 'demo', firstName: 'Dana', lastName: 'Admin', email: 'admin@presswork.local', role: 'admin' },
  { site: 'demo', firstName: 'Sam', lastName: 'Staff', email: 'staff@presswork.local', role: 'user' },
  { site: 'hope-harbour', firstName: 'Harriet', lastName: 'Admin', email: 'admin@hopeharbour.local', role: 'admin' },
  { site: 'hope-harbour', firstName: 'Charlie', lastName: 'Staff', email: 'staff@hopeharbour.local', role: 'user' },
] as const;

/** The demo site's provider settings: the HP simulator that main.ts mounts at /__simulators/hp (fresh secrets per install). */
/** A site's HP Site Flow settings pointing at the demo's simulator (`path`: the site's own one). */
export function demoHpEnv(base: string, path = '/__simulators/hp') {
  const secret = () => crypto.randomBytes(24).toString('base64url');
  return [
    { key: 'HP_BASE_URL', value: `${base}${path}` },
    { key: 'HP_API_KEY', value: `demo-${crypto.randomBytes(6).toString('hex')}` },
    { key: 'HP_API_SECRET', value: secret() },
    { key: 'HP_DESTINATION', value: 'presswork-demo' },
    // The simulator's source account: cancellations name it in their path.
    { key: 'HP_SOURCE_ACCOUNT', value: 'presswork' },
    { key: 'HP_CARRIER_ALIAS', value: 'royalmail' },
    { key: 'HP_POSTBACK_TOKEN', value: secret() },
    { key: 'HP_AUTO_SEND', value: '0' },
  ];
}

/** Seeds only an empty database. Returns true when it seeded. */
export async function seedDemo(deps: Deps, services: Services): Promise<boolean> {
  const { db, config } = deps;
  if (await db('sites').first('id')) return false;
  const now = isoNow(deps.clock);
  const base = config.publicUrl ?? `http://localhost:${config.port}`;
  const siteIds: Record<string, number> = {};
  for (const s of DEMO_SITES) {
    const [row] = await db('sites')
      .insert({
        name: s.name,
        slug: s.slug,
        logo: null,
        theme: JSON.stringify({ mainColor: s.mainColor }),
        settings: JSON.stringify({
          env:
            s.slug === 'hope-harbour'
              ? // The CRM and email-platform simulators (server/simulators/syncDemo.ts), fresh secrets per install;
                // the charity's own shop (server/simulators/charityDemo.ts) and HP Site Flow for its cards.
                [
                  ...demoSyncEnv(base),
                  { key: 'SHOPIFY_SHOP_DOMAIN', value: CHARITY_SHOP_DOMAIN },
                  { key: 'SHOPIFY_WEBHOOK_SECRET', value: crypto.randomBytes(24).toString('base64url') },
                  // Its own HP simulator; its paid cards go to HP by themselves (the pipeline's fourth step).
                  ...demoHpEnv(base, '/__simulators/hp/hope-harbour').map((v) => (v.key === 'HP_AUTO_SEND' ? { ...v, value: '1' } : v)),
                ]
              : [
                  { key: 'SHOPIFY_SHOP_DOMAIN', value: 'presswork-demo.myshopify.com' },
                  // Connected as a Dev Dashboard app of the store's own organisation: its token comes
                  // from the client credentials grant, and the demo store (server/simulators/
                  // shopifyDemo.ts) signs its webhooks with the client secret, as Shopify does.
                  { key: 'SHOPIFY_AUTH', value: 'client_credentials' },
                  { key: 'SHOPIFY_CLIENT_ID', value: crypto.randomBytes(16).toString('hex') },
                  { key: 'SHOPIFY_CLIENT_SECRET', value: `shpss_${crypto.randomBytes(16).toString('hex')}` },
                  // The demo store's Admin API and OAuth host: the simulator main.ts mounts at /__simulators/shopify-admin.
                  { key: 'SHOPIFY_ADMIN_URL', value: `${base}/__simulators/shopify-admin` },
                  { key: 'SHOPIFY_API_VERSION', value: '2026-07' },
                  ...demoHpEnv(base),
                ],
        }),
        created_at: now,
        updated_at: now,
      })
      .returning('id');
    siteIds[s.slug] = typeof row === 'object' ? row.id : row;
  }
  for (const u of DEMO_USERS) {
    const isFirstAdmin = u.email === 'admin@presswork.local';
    const email = isFirstAdmin && config.firstAdmin ? config.firstAdmin.email : u.email;
    const password = isFirstAdmin && config.firstAdmin ? config.firstAdmin.password : DEMO_PASSWORD;
    await services.users.createUser({ firstName: u.firstName, lastName: u.lastName, email, password, role: u.role, siteId: siteIds[u.site] });
  }
  // Designs with artwork and print jobs in every state; the demo still starts if this part fails.
  try {
    await seedPrintProduction(deps, services, siteIds);
  } catch (err) {
    deps.log.warn({ err }, 'demo print production could not be seeded');
  }
  return true;
}

/** Without the demo: one site to hang the first admin on. */
export async function ensureFirstSite(deps: Deps): Promise<number> {
  const existing = await deps.db('sites').orderBy('id').first('id');
  if (existing) return existing.id;
  const now = isoNow(deps.clock);
  const [row] = await deps.db('sites')
    .insert({ name: 'Presswork', slug: 'main', logo: null, theme: JSON.stringify({ mainColor: '#e91e63' }), settings: JSON.stringify({ env: [] }), created_at: now, updated_at: now })
    .returning('id');
  return typeof row === 'object' ? row.id : row;
}
