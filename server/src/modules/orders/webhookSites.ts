// Which site a store webhook is for, and whether its signature is that site's. Sites are cached
// per process for SITE_CACHE_MS: two instances share a database, so a change made through the
// other one (or around the store screen, which invalidates at once) is seen within that time. A
// miss re-reads, so a store configured a moment ago is found, and a webhook refused against the
// cached settings is checked again against a fresh read, so a new secret or domain is accepted at once.
import type { Db } from '../../db';
import { unauthorized } from '../../http/errors';
import { SHOPIFY_ADMIN_KEYS } from '../../integrations/shopifyAdmin';
import { envValue, type EnvVar } from '../../lib/secrets';
import type { Clock } from '../../lib/clock';
import { type Site, findSite, findSiteBySlug, listSites } from '../sites';
import { SHOPIFY_HEADERS, verifyShopifySignature } from './shopify';

/** Site settings (settings.env keys) of a connected store. */
export const STORE_KEYS = {
  shopDomain: 'SHOPIFY_SHOP_DOMAIN',
  secret: 'SHOPIFY_WEBHOOK_SECRET',
  previousSecret: 'SHOPIFY_WEBHOOK_SECRET_PREVIOUS',
  autoSend: 'HP_AUTO_SEND',
  sendWhen: 'SHOPIFY_SEND_WHEN',
  /** The Admin API connection (integrations/shopifyAdmin.ts reads them). */
  auth: SHOPIFY_ADMIN_KEYS.auth,
  clientId: SHOPIFY_ADMIN_KEYS.clientId,
  /** The Dev Dashboard app's client secret: it also signs the app's webhooks. */
  clientSecret: SHOPIFY_ADMIN_KEYS.clientSecret,
  /** The secret a new one replaced (Rotate secret): Shopify may sign with it for up to an hour. */
  previousClientSecret: 'SHOPIFY_CLIENT_SECRET_PREVIOUS',
  /** Until when the previous client secret is accepted (ISO time). */
  previousClientUntil: 'SHOPIFY_PREVIOUS_CLIENT_ACCEPTED_UNTIL',
  adminToken: SHOPIFY_ADMIN_KEYS.token,
  apiVersion: SHOPIFY_ADMIN_KEYS.apiVersion,
  adminUrl: SHOPIFY_ADMIN_KEYS.adminUrl,
  /** When Shopify said the app was uninstalled (app/uninstalled): the store is disconnected. */
  uninstalledAt: 'SHOPIFY_UNINSTALLED_AT',
} as const;

/** When a store order may go to print or to the provider: once paid (the default), or as soon as it is created. */
export type SendWhen = 'paid' | 'created';

/** How long a process trusts the sites it read (shop domain, webhook secrets). */
export const SITE_CACHE_MS = 2_000;

export interface WebhookInput {
  rawBody: Buffer;
  header(name: string): string | undefined;
  siteSlug?: string;
}

export const shopDomainOf = (site: Site) => envValue(site.settings.env, STORE_KEYS.shopDomain)?.trim().toLowerCase() || undefined;

/** SHOPIFY_SEND_WHEN: `created`, else `paid` (a missing or unknown value holds unpaid orders: the safe reading). */
export const sendWhenOf = (site: Site | undefined): SendWhen => (site && envValue(site.settings.env, STORE_KEYS.sendWhen)?.trim().toLowerCase() === 'created' ? 'created' : 'paid');

/** HP_AUTO_SEND, read here only: on for 1, true, yes or on (any case); anything else is off. Routing reads it for a site with no rule set (routing/service.ts). */
export const autoSendOf = (env: EnvVar[]): boolean => ['1', 'true', 'yes', 'on'].includes((envValue(env, STORE_KEYS.autoSend) ?? '').trim().toLowerCase());

/** How long Shopify may still sign with a client secret after Rotate secret (shopify.dev "About client credentials"). */
export const PREVIOUS_CLIENT_SECRET_MS = 60 * 60_000;

/**
 * The secrets a store's webhooks may be signed with now: the app's client secret (a Dev Dashboard
 * app signs with it) and, for an hour after a rotation, the one it replaced; the webhook secret
 * and its previous one (a legacy custom app's API secret key, or webhooks made by hand under
 * Settings → Notifications).
 */
export function signingSecretsOf(env: EnvVar[], now: Date): string[] {
  return [...clientSecretsOf(env, now), envValue(env, STORE_KEYS.secret), envValue(env, STORE_KEYS.previousSecret)].filter((s): s is string => Boolean(s?.trim()));
}

/** The app's client secret, and the one it replaced while that is still accepted. */
export function clientSecretsOf(env: EnvVar[], now: Date): string[] {
  const until = envValue(env, STORE_KEYS.previousClientUntil);
  const previous = until && Date.parse(until) > now.getTime() ? envValue(env, STORE_KEYS.previousClientSecret) : undefined;
  return [envValue(env, STORE_KEYS.clientSecret), previous].filter((s): s is string => Boolean(s?.trim()));
}

export function webhookSites(db: Db, clock: Clock) {
  let domains: Map<string, number> | undefined;
  let reloading: Promise<Map<string, number>> | undefined;
  const cached = new Map<string, { site: Site; until: number }>();
  const remember = (site: Site) => {
    const entry = { site, until: performance.now() + SITE_CACHE_MS };
    cached.set(`id:${site.id}`, entry);
    cached.set(`slug:${site.slug}`, entry);
    return site;
  };
  async function cachedSite(key: string, fresh: boolean, read: () => Promise<Site | undefined>): Promise<Site | undefined> {
    const hit = fresh ? undefined : cached.get(key);
    if (hit && hit.until > performance.now()) return hit.site;
    const site = await read();
    if (site) remember(site);
    else cached.delete(key);
    return site;
  }
  const siteById = (id: number, fresh: boolean) => cachedSite(`id:${id}`, fresh, () => findSite(db, id));
  const siteBySlug = (slug: string, fresh: boolean) => cachedSite(`slug:${slug}`, fresh, () => findSiteBySlug(db, slug));

  const reloadDomains = () =>
    (reloading ??= (async () => {
      try {
        const { rows } = await listSites(db, {}, { field: 'id', order: 'asc' }, 100_000, 0);
        const map = new Map<string, number>();
        for (const s of rows) {
          remember(s);
          const d = shopDomainOf(s);
          if (d && !map.has(d)) map.set(d, s.id);
        }
        domains = map;
        return map;
      } finally {
        reloading = undefined;
      }
    })());

  async function siteByDomain(domain: string, fresh: boolean): Promise<Site | undefined> {
    const id = domains?.get(domain);
    if (id !== undefined) {
      const site = await siteById(id, fresh);
      if (site && shopDomainOf(site) === domain) return site;
    }
    const reloaded = (await reloadDomains()).get(domain);
    return reloaded === undefined ? undefined : siteById(reloaded, false);
  }

  /** Forget the cached sites (a store's settings changed). */
  const invalidateSites = () => {
    domains = undefined;
    cached.clear();
  };

  async function webhookSite(domainHeader: string | undefined, slug: string | undefined, fresh: boolean): Promise<Site> {
    const domain = domainHeader?.trim().toLowerCase() || undefined;
    if (slug) {
      const site = await siteBySlug(slug, fresh);
      if (!site) throw unauthorized('Unknown site');
      const configured = shopDomainOf(site);
      if (domain && configured && configured !== domain) throw unauthorized('The shop domain does not match the site');
      return site;
    }
    if (!domain) throw unauthorized(`Missing ${SHOPIFY_HEADERS.shopDomain} header`);
    const site = await siteByDomain(domain, fresh);
    if (!site) throw unauthorized('Unknown shop domain');
    return site;
  }

  /** The site the webhook is for, its signature checked against each secret that may sign it now. */
  async function verifiedSite(input: WebhookInput, hmac: string, fresh: boolean): Promise<Site> {
    const site = await webhookSite(input.header(SHOPIFY_HEADERS.shopDomain), input.siteSlug, fresh);
    const secrets = signingSecretsOf(site.settings.env, clock.now());
    if (!secrets.some(Boolean)) throw unauthorized('No webhook secret is set for this store: set the app’s client secret (or the webhook secret)');
    if (!verifyShopifySignature(input.rawBody, hmac, secrets)) throw unauthorized('Invalid webhook signature');
    return site;
  }

  return { verifiedSite, invalidate: invalidateSites };
}

export type WebhookSites = ReturnType<typeof webhookSites>;
