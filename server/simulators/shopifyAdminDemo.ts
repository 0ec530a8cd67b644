// Outside production: the Shopify Admin API simulator at /__simulators/shopify-admin, standing for
// the store of the site whose SHOPIFY_ADMIN_URL points at it (the demo site). The demo order
// trickle adds each order it sends there too, so a reconciliation finds them and a shipped order's
// fulfilment appears in the simulated store, which then sends orders/fulfilled like Shopify.
import type { Db } from '../src/db';
import { envValue } from '../src/lib/secrets';
import { sitesRepo } from '../src/modules/sites/repo';
import { createShopifySender } from './shopify';
import { createShopifyAdminSimulator } from './shopifyAdmin';

export const SHOPIFY_ADMIN_SIMULATOR_PATH = '/__simulators/shopify-admin';

export type DemoShopifyAdmin = ReturnType<typeof createShopifyAdminSimulator> & {
  /** Once the app listens: the simulated store's webhooks (orders/fulfilled…) go to it. */
  connectWebhooks(appBaseUrl: string): Promise<void>;
};

/** The secret the demo store signs its webhooks with: a Dev Dashboard app's client secret, else a legacy app's webhook secret. */
export const demoSigningSecret = (env: Array<{ key: string; value: string }>) => envValue(env, 'SHOPIFY_CLIENT_SECRET') || envValue(env, 'SHOPIFY_WEBHOOK_SECRET') || undefined;

export async function demoShopifyAdminSimulator(db: Db): Promise<DemoShopifyAdmin | undefined> {
  const { rows } = await sitesRepo(db).list({}, { field: 'id', order: 'asc' }, 1000, 0);
  const site = rows.find((s) => (envValue(s.settings.env, 'SHOPIFY_ADMIN_URL') ?? '').replace(/\/+$/, '').endsWith(SHOPIFY_ADMIN_SIMULATOR_PATH));
  if (!site) return undefined;
  const env = site.settings.env;
  // A demo seeded before app connections holds a static token: the simulated store takes it too.
  const token = envValue(env, 'SHOPIFY_ADMIN_TOKEN') || undefined;
  const clientId = envValue(env, 'SHOPIFY_CLIENT_ID');
  const clientSecret = envValue(env, 'SHOPIFY_CLIENT_SECRET');
  const shopDomain = envValue(env, 'SHOPIFY_SHOP_DOMAIN');
  if (!shopDomain || (!token && !(clientId && clientSecret))) return undefined;
  const sim = createShopifyAdminSimulator({
    accessToken: token,
    ...(clientId && clientSecret ? { app: { clientId, clientSecret, name: 'Presswork' } } : {}),
    shopDomain,
    shopName: site.name,
  });
  return Object.assign(sim, {
    async connectWebhooks(appBaseUrl: string) {
      // The secret as it stands now (an operator may have rotated it since the seed).
      const current = await sitesRepo(db).bySlug(site.slug);
      const secret = current ? demoSigningSecret(current.settings.env) : undefined;
      if (!secret) return;
      sim.setWebhookSender(createShopifySender({ webhookUrl: `${appBaseUrl.replace(/\/$/, '')}/api/online-stores/shopify-webhook`, shopDomain, secret, retryDelaysMs: [2_000, 10_000] }));
    },
  });
}
