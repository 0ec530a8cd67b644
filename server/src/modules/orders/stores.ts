// A store is a site's SHOPIFY_* settings plus the webhook URL to give Shopify. Read and written
// through the sites service (admin only), secrets masked like every settings.env secret.
import { notFound } from '../../http/errors';
import type { Actor } from '../../http/types';
import { parse } from '../../http/validate';
import { MASK, envValue, type EnvVar } from '../../lib/secrets';
import { assertAdmin } from '../auth';
import type { Site } from '../sites';
import { siteBody } from '../sites';
import type { SitesService } from '../sites';
import type { StoreInput } from './schema';
import { PREVIOUS_CLIENT_SECRET_MS, STORE_KEYS, sendWhenOf } from './webhookSites';
import { autoSendOf } from './webhookSites';
import type { Store } from '../../../../common/api/orders';
import { fieldError } from '../../http/fieldErrors';
import type { ReconcileState } from './reconcileRepo';
import { shopifyAuthOf } from '../../integrations/shopifyAdmin';
import type { Clock } from '../../lib/clock';
import { adminCallError, notConnected, registerWebhooks, shopName, type StoreAdminFor, type SubscriptionReport } from './storeConnection';
import { connectStore, finishInstall, startInstall, storeConnection, type AppConnectionContext } from './storeAppConnection';
import { privacyRequestsOf } from './privacyRequests';

/** The store answer is the API's own shape (common/api/orders.ts). */
export type { Store };

/** The last reconciliation of each site (orders/reconcile.ts). */
export type ReconcileStatesOf = (siteIds: number[]) => Promise<Map<number, ReconcileState>>;

export type StoreSortField = 'id' | 'siteName';

export const webhookUrlOf = (baseUrl: string, slug: string) => `${baseUrl.replace(/\/$/, '')}/api/online-stores/shopify-webhook?site=${encodeURIComponent(slug)}`;

const masked = (v: string | undefined) => (v ? MASK : '');

export function storeOf(site: Site, baseUrl: string, reconciled?: ReconcileState): Store {
  const env = site.settings.env;
  return {
    id: site.id,
    siteId: site.id,
    siteName: site.name,
    siteSlug: site.slug,
    shopDomain: envValue(env, STORE_KEYS.shopDomain) ?? '',
    webhookSecret: masked(envValue(env, STORE_KEYS.secret)),
    previousSecret: masked(envValue(env, STORE_KEYS.previousSecret)),
    webhookUrl: webhookUrlOf(baseUrl, site.slug),
    autoSendToHP: autoSendOf(env),
    sendWhen: sendWhenOf(site),
    lastReconciledAt: reconciled?.lastRunAt ?? null,
    lastReconcileFound: reconciled ? reconciled.found : null,
    lastReconcileError: reconciled?.error ?? null,
    adminToken: masked(envValue(env, STORE_KEYS.adminToken)),
    apiVersion: envValue(env, STORE_KEYS.apiVersion) ?? '',
    adminUrl: envValue(env, STORE_KEYS.adminUrl) ?? '',
    disconnectedAt: envValue(env, STORE_KEYS.uninstalledAt) || null,
    auth: shopifyAuthOf(site),
    clientId: envValue(env, STORE_KEYS.clientId) ?? '',
    clientSecret: masked(envValue(env, STORE_KEYS.clientSecret)),
    previousClientSecretUntil: (envValue(env, STORE_KEYS.previousClientSecret) && envValue(env, STORE_KEYS.previousClientUntil)) || null,
  };
}

/** The env with `key` set to `value` in place (or appended), or removed when value is empty. */
export function setEnv(env: EnvVar[], key: string, value: string | undefined): EnvVar[] {
  if (!value) return env.filter((v) => v.key !== key);
  return env.some((v) => v.key === key) ? env.map((v) => (v.key === key ? { key, value } : v)) : [...env, { key, value }];
}

/**
 * The settings after a store form is saved. A masked secret sent back means "unchanged"; an empty
 * one removes it. A new secret with no previous one given starts a rotation: the old secret becomes
 * the previous one, so webhooks Shopify still signs with it keep being accepted.
 */
export function applyStoreInput(env: EnvVar[], input: StoreInput, now: Date = new Date()): EnvVar[] {
  let next = env;
  if (input.auth !== undefined) next = setEnv(next, STORE_KEYS.auth, input.auth);
  if (input.clientId !== undefined) next = setEnv(next, STORE_KEYS.clientId, input.clientId);
  const oldClientSecret = envValue(env, STORE_KEYS.clientSecret);
  if (input.clientSecret !== undefined && input.clientSecret !== MASK && input.clientSecret !== oldClientSecret) {
    next = setEnv(next, STORE_KEYS.clientSecret, input.clientSecret);
    // Rotate secret: Shopify may sign webhooks with the old secret for up to an hour more.
    const rotated = Boolean(oldClientSecret && input.clientSecret);
    next = setEnv(next, STORE_KEYS.previousClientSecret, rotated ? oldClientSecret : undefined);
    next = setEnv(next, STORE_KEYS.previousClientUntil, rotated ? new Date(now.getTime() + PREVIOUS_CLIENT_SECRET_MS).toISOString() : undefined);
  }
  if (input.shopDomain !== undefined) next = setEnv(next, STORE_KEYS.shopDomain, input.shopDomain);
  const oldSecret = envValue(env, STORE_KEYS.secret);
  if (input.webhookSecret !== undefined && input.webhookSecret !== MASK) {
    next = setEnv(next, STORE_KEYS.secret, input.webhookSecret);
    if (input.previousSecret === undefined && oldSecret && input.webhookSecret && input.webhookSecret !== oldSecret) {
      next = setEnv(next, STORE_KEYS.previousSecret, oldSecret);
    }
  }
  if (input.previousSecret !== undefined && input.previousSecret !== MASK) next = setEnv(next, STORE_KEYS.previousSecret, input.previousSecret);
  if (input.adminToken !== undefined && input.adminToken !== MASK) {
    next = setEnv(next, STORE_KEYS.adminToken, input.adminToken);
    // A new token is a new installation: the store is connected again.
    if (input.adminToken) next = setEnv(next, STORE_KEYS.uninstalledAt, undefined);
  }
  if (input.apiVersion !== undefined) next = setEnv(next, STORE_KEYS.apiVersion, input.apiVersion);
  if (input.adminUrl !== undefined) next = setEnv(next, STORE_KEYS.adminUrl, input.adminUrl);
  if (input.autoSendToHP !== undefined) next = setEnv(next, STORE_KEYS.autoSend, input.autoSendToHP ? '1' : undefined);
  // `paid` is the default: only `created` is written down.
  if (input.sendWhen !== undefined) next = setEnv(next, STORE_KEYS.sendWhen, input.sendWhen === 'created' ? 'created' : undefined);
  return next;
}

export interface StoresServiceDeps {
  sites: SitesService;
  /** A store's settings changed (cached sites are forgotten). */
  onChange: () => void;
  reconcileStates?: ReconcileStatesOf;
  /** Each store's Admin API client (storeConnection.ts storeAdminFor). */
  adminFor: StoreAdminFor;
  /** The app connection's use cases (storeAppConnection.ts). */
  app: AppConnectionContext;
  clock: Clock;
}

export function storesService({ sites, onChange, reconcileStates = async () => new Map(), adminFor, app, clock }: StoresServiceDeps) {
  async function siteOf(actor: Actor, id: number): Promise<Site> {
    assertAdmin(actor, 'Only an admin can manage stores');
    const site = await sites.repo.byId(id);
    if (!site) throw notFound('Store not found');
    return site;
  }

  async function list(actor: Actor, filter: { ids?: number[]; q?: string }, sort: { field: StoreSortField; order: 'asc' | 'desc' }, limit: number, offset: number, baseUrl: string) {
    assertAdmin(actor, 'Only an admin can manage stores');
    const { rows, total } = await sites.repo.list(filter, { field: sort.field === 'siteName' ? 'name' : 'id', order: sort.order }, limit, offset);
    const states = await reconcileStates(rows.map((s) => s.id));
    return { rows: rows.map((s) => storeOf(s, baseUrl, states.get(s.id))), total };
  }

  async function get(actor: Actor, id: number, baseUrl: string): Promise<Store> {
    const site = await siteOf(actor, id);
    return storeOf(site, baseUrl, (await reconcileStates([site.id])).get(site.id));
  }

  async function save(actor: Actor, site: Site, env: EnvVar[], baseUrl: string): Promise<Store> {
    const domain = envValue(env, STORE_KEYS.shopDomain)?.toLowerCase();
    if (domain) {
      const { rows } = await sites.repo.list({}, { field: 'id', order: 'asc' }, 100_000, 0);
      if (rows.some((s) => s.id !== site.id && envValue(s.settings.env, STORE_KEYS.shopDomain)?.trim().toLowerCase() === domain)) {
        throw fieldError('shopDomain', 'Another site already receives this shop.', 409);
      }
    }
    await sites.upsert(actor, parse(siteBody, { id: site.id, name: site.name, slug: site.slug, logo: site.logo, theme: site.theme, settings: { ...site.settings, env } }));
    onChange();
    return get(actor, site.id, baseUrl);
  }

  async function update(actor: Actor, id: number, input: StoreInput, baseUrl: string): Promise<Store> {
    const site = await siteOf(actor, id);
    return save(actor, site, applyStoreInput(site.settings.env, input, clock.now()), baseUrl);
  }

  /** Disconnects the store: its shop domain and secrets are removed from the site. */
  async function remove(actor: Actor, id: number, baseUrl: string): Promise<Store> {
    const site = await siteOf(actor, id);
    const before = storeOf(site, baseUrl);
    await save(actor, site, applyStoreInput(site.settings.env, { shopDomain: '', webhookSecret: '', previousSecret: '', adminToken: '', clientId: '', clientSecret: '' }, clock.now()), baseUrl);
    return before;
  }

  /** The site's Admin API client; refused (409) while the store has no token (never set, or the app was uninstalled). */
  async function adminBySlug(actor: Actor, slug: string) {
    assertAdmin(actor, 'Only an admin can manage stores');
    const site = await sites.repo.bySlug(slug);
    if (!site) throw notFound('Store not found');
    const admin = adminFor(site);
    if (!admin) throw notConnected(site.settings.env);
    return { site, admin };
  }

  /** Check connection: the shop's name, or Shopify's refusal as a sentence. */
  async function checkConnection(actor: Actor, slug: string): Promise<{ shopName: string }> {
    const { admin } = await adminBySlug(actor, slug);
    try {
      return { shopName: await shopName(admin) };
    } catch (err) {
      throw adminCallError(err);
    }
  }

  /** Register webhooks: every subscription the store holds afterwards, and what was done to it. */
  async function registerStoreWebhooks(actor: Actor, slug: string, baseUrl: string): Promise<{ subscriptions: SubscriptionReport[] }> {
    const { site, admin } = await adminBySlug(actor, slug);
    try {
      return { subscriptions: await registerWebhooks(admin, webhookUrlOf(baseUrl, site.slug), site.slug) };
    } catch (err) {
      throw adminCallError(err);
    }
  }

  return {
    list,
    get,
    update,
    remove,
    checkConnection,
    registerWebhooks: registerStoreWebhooks,
    /** Connect: a token now by the store's grant, and the shop's name and scopes. */
    connect: (actor: Actor, slug: string) => connectStore(app, actor, slug),
    /** How the store is connected and whether it works. */
    connection: (actor: Actor, slug: string) => storeConnection(app, actor, slug),
    /** Install on Shopify: the consent screen's address. */
    startInstall: (actor: Actor, slug: string, publicBase: string) => startInstall(app, actor, slug, publicBase),
    /** Shopify's redirect back (no session: the state is the proof). */
    finishInstall: (query: Record<string, unknown>) => finishInstall(app, query),
    /** The privacy requests Shopify sent for the store, newest first, and what was done. */
    async privacyRequests(actor: Actor, slug: string) {
      assertAdmin(actor, 'Only an admin can manage stores');
      const site = await sites.repo.bySlug(slug);
      if (!site) throw notFound('Store not found');
      return privacyRequestsOf(app.db, site.id);
    },
  };
}

export type StoresService = ReturnType<typeof storesService>;
