// The demo world, seeded on first start outside production: two sites (one the charity client
// with the CRM ↔ email-platform sync), an admin and a non-admin user on each.
import type { Deps } from '../server/src/deps';
import type { Services } from '../server/src/services';
import { isoNow } from '../server/src/lib/clock';

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
              ? [
                  { key: 'RE_BASE_URL', value: `${base}/__simulators/raisers-edge` },
                  { key: 'ADESTRA_BASE_URL', value: `${base}/__simulators/adestra/api/rest/1` },
                ]
              : [{ key: 'SHOPIFY_SHOP_DOMAIN', value: 'presswork-demo.myshopify.com' }],
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
