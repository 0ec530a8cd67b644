// The store's Admin API connection as the Stores screen uses it: Check connection (`shop { name }`),
// Register webhooks (the subscriptions Presswork needs, created or repaired, foreign ones left
// alone), and the app/uninstalled webhook that disconnects the store. The documents sent are
// checked against Shopify's published Admin schema in server/test/stores-connect.test.ts.
import type { Knex } from 'knex';
import { HttpError, conflict } from '../../http/errors';
import { ShopifyAdminError, hasShopifyAdmin, isAppAuth, shopifyAdmin, shopifyAdminSettingsOf, shopifyAuthOf, userErrorsOf, type ShopifyAdmin, type ShopifyAdminDeps, type ShopifyAdminSettings } from '../../integrations/shopifyAdmin';
import { type Site, findSite, updateSite } from '../sites';
import type { StoreConnectionState } from '../../../../common/api/orders';
import type { StoreTokens } from './storeTokens';
import { storeTokensRepo } from './storeTokensRepo';
import type { EnvVar } from '../../lib/secrets';
import { envValue } from '../../lib/secrets';
import { SHOPIFY_WEBHOOK_PATH } from './routes';
import { ORDER_TOPICS } from './shopify';
import { STORE_KEYS } from './webhookSites';

export const APP_UNINSTALLED = 'app/uninstalled';

/** The topics Presswork subscribes to, as webhook headers name them → as the Admin API's enum does. */
export const WEBHOOK_TOPICS = [...ORDER_TOPICS, APP_UNINSTALLED] as const;
export const topicEnumOf = (topic: string) => topic.toUpperCase().replace(/\//g, '_');

export const SHOP_NAME_QUERY = 'query ShopName { shop { name } }';

/** Connect's check: the shop's name and the scopes the token really has. */
export const CONNECTION_CHECK_QUERY = 'query ConnectionCheck { shop { name } currentAppInstallation { accessScopes { handle } } }';

// 2026-07: a subscription's address is `uri` (callbackUrl and endpoint are deprecated).
export const WEBHOOK_SUBSCRIPTIONS_QUERY = `query WebhookSubscriptions($after: String) {
  webhookSubscriptions(first: 100, after: $after) {
    nodes { id topic uri }
    pageInfo { hasNextPage endCursor }
  }
}`;

export const WEBHOOK_SUBSCRIPTION_CREATE = `mutation WebhookSubscriptionCreate($topic: WebhookSubscriptionTopic!, $webhookSubscription: WebhookSubscriptionInput!) {
  webhookSubscriptionCreate(topic: $topic, webhookSubscription: $webhookSubscription) {
    webhookSubscription { id topic uri }
    userErrors { field message }
  }
}`;

export const WEBHOOK_SUBSCRIPTION_UPDATE = `mutation WebhookSubscriptionUpdate($id: ID!, $webhookSubscription: WebhookSubscriptionInput!) {
  webhookSubscriptionUpdate(id: $id, webhookSubscription: $webhookSubscription) {
    webhookSubscription { id topic uri }
    userErrors { field message }
  }
}`;

export interface HeldSubscription {
  id: string;
  /** The Admin API's enum, e.g. ORDERS_CREATE. */
  topic: string;
  uri: string;
}

export type SubscriptionAction = 'kept' | 'created' | 'updated' | 'elsewhere';

export interface SubscriptionReport {
  id: string;
  topic: string;
  callbackUrl: string;
  /** It delivers to this site's webhook URL (this instance's, or one it had before). */
  ours: boolean;
  action: SubscriptionAction;
}

/** A webhook URL of this site's, on any host (this instance's public URL, or an old one). */
export function isOurWebhookUrl(uri: string, slug: string): boolean {
  try {
    const url = new URL(uri);
    return url.pathname.replace(/\/$/, '') === SHOPIFY_WEBHOOK_PATH && url.searchParams.get('site') === slug;
  } catch {
    return false;
  }
}

export type WebhookStep =
  | { kind: 'keep'; held: HeldSubscription; ours: true }
  | { kind: 'elsewhere'; held: HeldSubscription; ours: boolean }
  | { kind: 'update'; held: HeldSubscription }
  | { kind: 'create'; topic: string };

/**
 * What to do about each subscription the store holds and each topic it lacks: one of ours at our
 * URL is kept; one of ours at an old URL is moved to ours (once per topic); anything else is left
 * as it is (foreign), and a needed topic with none of ours gets one.
 */
export function planWebhooks(held: HeldSubscription[], ourUrl: string, slug: string): WebhookStep[] {
  const steps: WebhookStep[] = [];
  const covered = new Set<string>();
  for (const h of held) if (h.uri === ourUrl) covered.add(h.topic);
  for (const h of held) {
    const ours = isOurWebhookUrl(h.uri, slug);
    if (h.uri === ourUrl) steps.push({ kind: 'keep', held: h, ours: true });
    else if (ours && !covered.has(h.topic)) {
      covered.add(h.topic);
      steps.push({ kind: 'update', held: h });
    } else steps.push({ kind: 'elsewhere', held: h, ours });
  }
  for (const topic of WEBHOOK_TOPICS.map(topicEnumOf)) if (!covered.has(topic)) steps.push({ kind: 'create', topic });
  return steps;
}

/** Every subscription the store holds (cursor paging). */
export async function heldSubscriptions(admin: ShopifyAdmin): Promise<HeldSubscription[]> {
  const out: HeldSubscription[] = [];
  let after: string | null = null;
  for (let page = 0; page < 50; page++) {
    const data: { webhookSubscriptions: { nodes: HeldSubscription[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } } = await admin.request(WEBHOOK_SUBSCRIPTIONS_QUERY, { after });
    out.push(...data.webhookSubscriptions.nodes);
    if (!data.webhookSubscriptions.pageInfo.hasNextPage || !data.webhookSubscriptions.pageInfo.endCursor) break;
    after = data.webhookSubscriptions.pageInfo.endCursor;
  }
  return out;
}

type SubscriptionPayload = { webhookSubscription: HeldSubscription | null; userErrors: Array<{ field: string[] | null; message: string }> };

/** Creates and repairs the subscriptions Presswork needs; answers every subscription the store holds afterwards. */
export async function registerWebhooks(admin: ShopifyAdmin, ourUrl: string, slug: string): Promise<SubscriptionReport[]> {
  const report: SubscriptionReport[] = [];
  const row = (s: HeldSubscription, ours: boolean, action: SubscriptionAction) => report.push({ id: s.id, topic: s.topic, callbackUrl: s.uri, ours, action });
  for (const step of planWebhooks(await heldSubscriptions(admin), ourUrl, slug)) {
    if (step.kind === 'keep') row(step.held, true, 'kept');
    else if (step.kind === 'elsewhere') row(step.held, step.ours, 'elsewhere');
    else if (step.kind === 'update') {
      const data = await admin.request<{ webhookSubscriptionUpdate: SubscriptionPayload }>(WEBHOOK_SUBSCRIPTION_UPDATE, { id: step.held.id, webhookSubscription: { uri: ourUrl } });
      const sub = userErrorsOf(data.webhookSubscriptionUpdate, `Shopify (updating ${step.held.topic})`).webhookSubscription;
      row(sub ?? { ...step.held, uri: ourUrl }, true, 'updated');
    } else {
      const data = await admin.request<{ webhookSubscriptionCreate: SubscriptionPayload }>(WEBHOOK_SUBSCRIPTION_CREATE, { topic: step.topic, webhookSubscription: { uri: ourUrl, format: 'JSON' } });
      const sub = userErrorsOf(data.webhookSubscriptionCreate, `Shopify (subscribing to ${step.topic})`).webhookSubscription;
      if (!sub) throw new ShopifyAdminError('graphql', `Shopify answered no subscription for ${step.topic}`);
      row(sub, true, 'created');
    }
  }
  return report;
}

/** The store's name: proof that the domain, token and version work together. */
export async function shopName(admin: ShopifyAdmin): Promise<string> {
  const data = await admin.request<{ shop: { name: string } }>(SHOP_NAME_QUERY);
  return data.shop.name;
}

/** A failed Admin call as the screen shows it: Shopify's side failed (502), with the client's sentence. */
export function adminCallError(err: unknown): unknown {
  // Needs reconnecting: nothing was asked of Shopify; the store's state is the problem (409).
  if (err instanceof ShopifyAdminError && err.needsReconnect) return new HttpError(409, err.message, { kind: err.kind, needsReconnect: true });
  if (err instanceof ShopifyAdminError) return new HttpError(502, err.message, { kind: err.kind, ...(err.userErrors ? { userErrors: err.userErrors } : {}) });
  return err;
}

/** Whether a site's store takes Admin API calls, and when it was uninstalled if it disconnected itself. */
export function storeConnectionOf(site: Site): StoreConnectionState {
  if (hasShopifyAdmin(site)) return { connected: true };
  return { connected: false, uninstalledAt: envValue(site.settings.env, STORE_KEYS.uninstalledAt) ?? null };
}

/** Why a store cannot be called, when it cannot (its settings lack what its kind of connection needs). */
export function notConnected(env: EnvVar[]): HttpError {
  const auth = shopifyAuthOf({ settings: { env } });
  const has = (key: string) => Boolean(envValue(env, key)?.trim());
  if (!has(STORE_KEYS.shopDomain) && !has(STORE_KEYS.adminUrl)) return conflict('No shop domain is set for this store: enter it (xyz.myshopify.com) and save first.');
  if (isAppAuth(auth)) return conflict('The app’s Client ID and Client secret are not both set for this store: paste them from the app’s Settings in the Dev Dashboard and save first.');
  const at = envValue(env, STORE_KEYS.uninstalledAt);
  if (at) return conflict('The store is disconnected: the app was uninstalled in Shopify. Reinstall it and paste its new access token.');
  return conflict('No Admin API access token is set for this store: paste the custom app’s token (shpat_…) and save first.');
}

/** A site's Admin API client, or null when the site has no connection to call it with. */
export type StoreAdminFor = (site: Site) => ShopifyAdmin | null;

/** A client for settings (tests: one that records or fakes the calls). */
export type AdminFactory = (settings: ShopifyAdminSettings, deps?: ShopifyAdminDeps) => ShopifyAdmin;

/** Each store's Admin API client: a static token as it is, an app connection's token from its grants (storeTokens.ts). */
export function storeAdminFor(tokens: Pick<StoreTokens, 'sourceFor'>, adminOf: AdminFactory = shopifyAdmin): StoreAdminFor {
  return (site) => {
    const settings = shopifyAdminSettingsOf(site);
    if (!settings) return null;
    return adminOf(settings, settings.auth && isAppAuth(settings.auth) ? { tokens: tokens.sourceFor(site.id, settings) } : {});
  };
}

/** The settings after app/uninstalled: the token is gone (Shopify revoked it) and the store shows when. */
export function uninstalledEnv(env: EnvVar[], at: string): EnvVar[] {
  const rest = env.filter((v) => v.key !== STORE_KEYS.adminToken && v.key !== STORE_KEYS.uninstalledAt);
  return [...rest, { key: STORE_KEYS.uninstalledAt, value: at }];
}

/** app/uninstalled, in the inbox's transaction: the store is disconnected and makes no more Admin calls (an app connection's tokens are dropped too). */
export async function disconnectStore(trx: Knex.Transaction, siteId: number, at: string): Promise<void> {
  const site = await findSite(trx, siteId);
  if (!site) return;
  await updateSite(trx, siteId, { ...site, settings: { ...site.settings, env: uninstalledEnv(site.settings.env, at) }, updatedAt: at });
  await storeTokensRepo(trx).forgetTokens(siteId, `the app was uninstalled in Shopify on ${at.slice(0, 16).replace('T', ' ')} UTC; install it again`, at);
}
