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

export async function demoShopifyAdminSimulator(db: Db): Promise<DemoShopifyAdmin | undefined> {
  const { rows } = await sitesRepo(db).list({}, { field: 'id', order: 'asc' }, 1000, 0);
  const site = rows.find((s) => (envValue(s.settings.env, 'SHOPIFY_ADMIN_URL') ?? '').replace(/\/+$/, '').endsWith(SHOPIFY_ADMIN_SIMULATOR_PATH));
  if (!site) return undefined;
  const token = envValue(site.settings.env, 'SHOPIFY_ADMIN_TOKEN');
  const shopDomain = envValue(site.settings.env, 'SHOPIFY_SHOP_DOMAIN');
  if (!token || !shopDomain) return undefined;
  const sim = createShopifyAdminSimulator({ accessToken: token, shopDomain, shopName: site.name });
  return Object.assign(sim, {
    async connectWebhooks(appBaseUrl: string) {
      // The secret as it stands now (an operator may have rotated it since the seed).
      const current = await sitesRepo(db).bySlug(site.slug);
      const secret = current ? envValue(current.settings.env, 'SHOPIFY_WEBHOOK_SECRET') : undefined;
      if (!secret) return;
      sim.setWebhookSender(createShopifySender({ webhookUrl: `${appBaseUrl.replace(/\/$/, '')}/api/online-stores/shopify-webhook`, shopDomain, secret, retryDelaysMs: [2_000, 10_000] }));
    },
  });
}
