// Connecting a store through a Shopify app, as Setup → Stores does it:
// - Connect: the token is asked for now (client credentials), or the installed pair refreshed (OAuth),
//   then the store is asked its name and the scopes its token has; Shopify's refusal is a sentence.
// - Install on Shopify (the OAuth install): the admin's browser goes to Shopify's consent screen with
//   a `state` that is unguessable, single use, short-lived and bound to the site, the admin and the
//   shop; Shopify sends it back to our callback, which checks the HMAC (the app's client secret),
//   the timestamp, the state and the shop before exchanging the code. A refused callback changes
//   nothing.
// - The connection's state: how it is connected, whether it works, the shop, scopes and expiry.
import crypto from 'node:crypto';
import type { Logger } from 'pino';
import type { Db } from '../../db';
import { HttpError, conflict } from '../../http/errors';
import type { Actor } from '../../http/types';
import { ShopifyAdminError, isAppAuth, shopifyAdminSettingsOf, shopifyAuthOf, type ShopifyAdminSettings } from '../../integrations/shopifyAdmin';
import { ShopifyGrantError, authorizeUrl, freshTimestamp, isShopDomain, verifyOAuthHmac, OAUTH_TIMESTAMP_TOLERANCE_S } from '../../integrations/shopifyOAuth';
import { isoNow, type Clock } from '../../lib/clock';
import { envValue } from '../../lib/secrets';
import { assertAdmin } from '../auth';
import { type Site, findSite, findSiteBySlug, listSites, updateSite } from '../sites';
import { findUser } from '../users';
import { NEEDED_STORE_SCOPES, missingStoreScopes, type StoreConnectResult, type StoreConnection, type StoreInstallStart } from '../../../../common/api/orders';
import { CONNECTION_CHECK_QUERY, adminCallError, notConnected, type StoreAdminFor } from './storeConnection';
import type { StoreTokens } from './storeTokens';
import { storeTokensRepo } from './storeTokensRepo';
import { STORE_KEYS, clientSecretsOf, shopDomainOf } from './webhookSites';

/** Shopify's redirect back to us (the app's allowed redirection URL, under PUBLIC_URL). */
export const SHOPIFY_CALLBACK_PATH = '/api/online-stores/shopify/callback';
/** How long an admin has to approve the app at Shopify once Install on Shopify was clicked. */
export const INSTALL_STATE_TTL_MS = 10 * 60_000;

export interface AppConnectionContext {
  db: Db;
  clock: Clock;
  log: Logger;
  tokens: StoreTokens;
  adminFor: StoreAdminFor;
  /** Forget cached sites (the store's settings changed). */
  invalidate: () => void;
}

const hashOf = (state: string) => crypto.createHash('sha256').update(state).digest('hex');

async function adminSite(ctx: AppConnectionContext, actor: Actor, slug: string): Promise<Site> {
  assertAdmin(actor, 'Only an admin can manage stores');
  const site = await findSiteBySlug(ctx.db, slug);
  if (!site) throw new HttpError(404, 'Store not found');
  return site;
}

/** The shop's name and the scopes its token has (one query), kept for the Stores screen. */
async function checkStore(ctx: AppConnectionContext, site: Site, auth: string): Promise<{ shopName: string; scopes: string[] }> {
  const admin = ctx.adminFor(site);
  if (!admin) throw notConnected(site.settings.env);
  const data = await admin.request<{ shop: { name: string }; currentAppInstallation: { accessScopes: Array<{ handle: string }> } }>(CONNECTION_CHECK_QUERY);
  const out = { shopName: data.shop.name, scopes: data.currentAppInstallation.accessScopes.map((s) => s.handle) };
  await storeTokensRepo(ctx.db).saveCheck(site.id, auth, out, isoNow(ctx.clock));
  return out;
}

/** A grant refused by Shopify (4xx: its reason), or Shopify unreachable (502). */
function grantError(err: unknown): unknown {
  if (err instanceof ShopifyGrantError) return new HttpError(err.kind === 'refused' ? 422 : 502, err.message, { code: err.code ?? null });
  return adminCallError(err);
}

/** Connect: a token now (or the installed pair refreshed), then the shop's name and scopes. */
export async function connectStore(ctx: AppConnectionContext, actor: Actor, slug: string): Promise<StoreConnectResult> {
  const site = await adminSite(ctx, actor, slug);
  const settings = shopifyAdminSettingsOf(site);
  if (!settings) throw notConnected(site.settings.env);
  const auth = settings.auth ?? 'static_token';
  let expiresAt: string | null = null;
  if (isAppAuth(auth)) {
    const held = await ctx.tokens.of(site.id);
    if (auth === 'authorization_code' && !(held?.refreshToken && held.clientId === settings.clientId))
      throw conflict(`The app is not installed on ${settings.shopDomain} yet: click Install on Shopify (it opens Shopify's consent screen).`);
    try {
      expiresAt = (await ctx.tokens.connect(site.id, settings, actor.id)).accessExpiresAt;
    } catch (err) {
      throw grantError(err);
    }
  }
  let checked: { shopName: string; scopes: string[] };
  try {
    checked = await checkStore(ctx, site, auth);
  } catch (err) {
    throw adminCallError(err);
  }
  ctx.log.info({ site: site.slug, auth, scopes: checked.scopes }, 'store connected');
  return { ...checked, missingScopes: missingStoreScopes(checked.scopes), expiresAt };
}

/** The connection as the Stores screen shows it (no call to Shopify). */
export async function connectionOf(ctx: Pick<AppConnectionContext, 'tokens'>, site: Site): Promise<StoreConnection> {
  const env = site.settings.env;
  const auth = shopifyAuthOf(site);
  const settings = shopifyAdminSettingsOf(site);
  const held = await ctx.tokens.of(site.id);
  const fits = Boolean(held && settings && held.clientId === (settings.clientId ?? null) && held.shopDomain === settings.shopDomain && held.auth === auth);
  const scopes = held && (fits || auth === 'static_token') && held.auth === auth ? held.scopes : [];
  const needsReconnect = Boolean(held?.needsReconnect && held.auth === auth);
  let connected: boolean;
  if (!settings) connected = false;
  else if (auth === 'static_token') connected = !envValue(env, STORE_KEYS.uninstalledAt);
  else if (auth === 'client_credentials') connected = !needsReconnect;
  else connected = fits && Boolean(held?.refreshToken) && !needsReconnect;
  return {
    auth,
    connected,
    shopName: held?.auth === auth ? held.shopName : null,
    scopes,
    missingScopes: scopes.length ? missingStoreScopes(scopes) : [],
    expiresAt: fits && isAppAuth(auth) ? (held?.accessExpiresAt ?? null) : null,
    needsReconnect,
    reason: needsReconnect ? (held?.reason ?? null) : null,
    connectedAt: fits ? (held?.connectedAt ?? null) : null,
  };
}

export async function storeConnection(ctx: AppConnectionContext, actor: Actor, slug: string): Promise<StoreConnection> {
  return connectionOf(ctx, await adminSite(ctx, actor, slug));
}

/** Install on Shopify: where to send the admin's browser, with a fresh state for this site, admin and shop. */
export async function startInstall(ctx: AppConnectionContext, actor: Actor, slug: string, publicBase: string): Promise<StoreInstallStart> {
  const site = await adminSite(ctx, actor, slug);
  if (shopifyAuthOf(site) !== 'authorization_code') throw conflict('This store is not set to be connected by installing an app (OAuth): choose “Install an app on the store (OAuth)” and save first.');
  const settings = shopifyAdminSettingsOf(site);
  const shop = shopDomainOf(site);
  if (!settings || !shop) throw notConnected(site.settings.env);
  if (!isShopDomain(shop)) throw conflict(`The shop domain ${shop} is not a Shopify store name (xyz.myshopify.com): the install needs the store's own myshopify.com name.`);
  const now = ctx.clock.now();
  const state = crypto.randomBytes(32).toString('base64url');
  const redirectUri = `${publicBase.replace(/\/+$/, '')}${SHOPIFY_CALLBACK_PATH}`;
  const expiresAt = new Date(now.getTime() + INSTALL_STATE_TTL_MS).toISOString();
  const repo = storeTokensRepo(ctx.db);
  await repo.saveInstallState(hashOf(state), { siteId: site.id, userId: actor.id, shopDomain: shop, redirectUri, createdAt: now.toISOString(), expiresAt });
  await repo.purgeInstallStates(new Date(now.getTime() - 86_400_000).toISOString());
  const url = authorizeUrl({ shopDomain: shop, adminUrl: settings.adminUrl, clientId: settings.clientId!, scopes: NEEDED_STORE_SCOPES.map((n) => n.scope), redirectUri, state });
  return { url, expiresAt, redirectUri };
}

export interface InstallOutcome {
  ok: boolean;
  message: string;
  /** The site the callback was for, when it could be told. */
  siteId?: number;
}

const text = (query: Record<string, unknown>, k: string) => (typeof query[k] === 'string' ? (query[k] as string) : '');

/**
 * Shopify's redirect back after the consent screen. Every check comes before anything changes;
 * every failure is an outcome with a sentence for the Stores screen, never a thrown error.
 */
export async function finishInstall(ctx: AppConnectionContext, query: Record<string, unknown>): Promise<InstallOutcome> {
  const q: Record<string, string> = {};
  for (const [k, v] of Object.entries(query)) if (typeof v === 'string') q[k] = v;
  const missing = ['code', 'hmac', 'shop', 'state', 'timestamp'].filter((k) => !text(query, k));
  if (missing.length) return { ok: false, message: `Shopify came back without ${missing.join(', ')}: nothing was changed. Click Install on Shopify again.` };
  const shop = q.shop.toLowerCase();
  if (!isShopDomain(shop)) return { ok: false, message: `Shopify came back naming “${q.shop.slice(0, 80)}”, which is not a Shopify store: nothing was changed.` };
  const repo = storeTokensRepo(ctx.db);
  const hash = hashOf(q.state);
  const state = await repo.installState(hash);
  if (!state) return { ok: false, message: 'This install link is not one of ours (unknown state): nothing was changed. Click Install on Shopify again.' };
  const fail = (message: string): InstallOutcome => ({ ok: false, message, siteId: state.siteId });
  const site = await findSite(ctx.db, state.siteId);
  if (!site) return { ok: false, message: 'The site this install was for no longer exists: nothing was changed.' };
  const settings = shopifyAdminSettingsOf(site);
  if (!settings || shopifyAuthOf(site) !== 'authorization_code') return fail('This store is no longer set to be connected by installing an app: nothing was changed.');
  const now = ctx.clock.now();
  // The HMAC first: nothing Shopify did not sign is looked at further.
  if (!verifyOAuthHmac(q, clientSecretsOf(site.settings.env, now)))
    return fail('Shopify’s answer is not signed with this app’s client secret (the HMAC does not match): nothing was changed. Check the Client secret, then click Install on Shopify again.');
  if (!freshTimestamp(q.timestamp, now))
    return fail(`Shopify’s answer is too old (its timestamp is more than ${OAUTH_TIMESTAMP_TOLERANCE_S} seconds from now): nothing was changed. Click Install on Shopify again.`);
  const { rows } = await listSites(ctx.db, {}, { field: 'id', order: 'asc' }, 100_000, 0);
  const owner = rows.find((s) => shopDomainOf(s) === shop);
  if (owner && owner.id !== site.id) return fail(`This install link was made for ${site.name}, but Shopify came back from ${shop}, the store of ${owner.name}: nothing was changed.`);
  if (shop !== state.shopDomain) return fail(`Shopify came back from ${shop}, not from this site’s store (${state.shopDomain}): nothing was changed. Install the app on ${state.shopDomain}.`);
  if (!(await repo.takeInstallState(hash, now.toISOString())))
    return fail(state.usedAt ? 'This install link was already used: nothing was changed. Click Install on Shopify again.' : 'This install link expired (10 minutes): nothing was changed. Click Install on Shopify again.');
  const user = await findUser(ctx.db, state.userId);
  if (!user || user.role !== 'admin') return fail('The admin who clicked Install on Shopify is no longer an admin: nothing was changed.');
  try {
    await ctx.tokens.install(site.id, settings as ShopifyAdminSettings, q.code, state.userId);
  } catch (err) {
    const message = err instanceof ShopifyGrantError || err instanceof ShopifyAdminError ? err.message : 'the code exchange failed';
    ctx.log.warn({ site: site.slug, err: message }, 'Shopify install: the code exchange failed');
    return fail(`The install could not be finished: ${message}`);
  }
  // Installed again: the store is no longer "uninstalled".
  if (envValue(site.settings.env, STORE_KEYS.uninstalledAt)) {
    const at = isoNow(ctx.clock);
    await updateSite(ctx.db, site.id, { ...site, settings: { ...site.settings, env: site.settings.env.filter((v) => v.key !== STORE_KEYS.uninstalledAt) }, updatedAt: at });
    ctx.invalidate();
  }
  let shopName = shop;
  try {
    shopName = (await checkStore(ctx, site, 'authorization_code')).shopName;
  } catch (err) {
    ctx.log.warn({ site: site.slug, err: err instanceof Error ? err.message : String(err) }, 'Shopify install: the shop could not be read after the install');
  }
  ctx.log.info({ site: site.slug, shop }, 'Shopify app installed on the store');
  return { ok: true, message: `Connected to ${shopName} (${shop}): the app is installed and its token renews itself.`, siteId: site.id };
}
