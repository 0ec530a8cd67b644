// The Admin API token of an app-connected store, kept good by itself: a client-credentials token
// is asked for again before its 24 hours end, an expiring OAuth token is refreshed with its refresh
// token before its hour ends, and either is renewed at once after the store refused it (401). The
// new access token and refresh token are stored in one statement. One renewal of a store at a time:
// in this process (callers share the renewal under way) and, on PostgreSQL, across instances (an
// advisory lock: the other instance waits, then uses the token just stored). A renewal Shopify
// refuses (invalid_client, invalid_grant, shop_not_permitted, …) marks the store "needs
// reconnecting" with Shopify's reason, and every store call then fails at once with that sentence;
// one that got no answer (a lost answer included) keeps what is held and is tried again by the next
// call — Shopify accepts the previous refresh token until the new one is first used.
import type { Knex } from 'knex';
import type { Deps } from '../../deps';
import { ShopifyAdminError, type AccessTokenSource, type ShopifyAdminSettings } from '../../integrations/shopifyAdmin';
import { ShopifyGrantError, shopifyOAuth, type ShopifyAppCredentials, type ShopifyOAuthClient, type TokenGrant } from '../../integrations/shopifyOAuth';
import { isoNow } from '../../lib/clock';
import type { Db } from '../../db';
import { storeTokensRepo, type StoredTokens } from './storeTokensRepo';

/** The token endpoint of one store for one app (tests: a fake written from Shopify's docs). */
export type OAuthFactory = (creds: ShopifyAppCredentials) => ShopifyOAuthClient;

/** Renew this long before the access token ends: 5 minutes, or a tenth of its lifetime when shorter. */
export const RENEW_BEFORE_MS = 5 * 60_000;

export function renewalDueAt(t: Pick<StoredTokens, 'accessExpiresAt' | 'issuedAt'>): number | undefined {
  if (!t.accessExpiresAt) return undefined;
  const end = Date.parse(t.accessExpiresAt);
  const start = t.issuedAt ? Date.parse(t.issuedAt) : end - 3_600_000;
  return end - Math.min(RENEW_BEFORE_MS, Math.max(0, (end - start) / 10));
}

/** The stored tokens belong to this connection (same kind, app and shop): another Client ID or shop makes them void. */
export const tokensFit = (t: StoredTokens | undefined, s: ShopifyAdminSettings): t is StoredTokens =>
  Boolean(t && t.auth === s.auth && t.clientId === s.clientId && t.shopDomain === s.shopDomain);

/** The error every store call fails with while the store needs reconnecting. */
export function needsReconnectError(reason: string | null): ShopifyAdminError {
  const why = (reason ?? 'Shopify refused its access').trim().replace(/[.\s]*$/, '.');
  return new ShopifyAdminError('auth', `The store needs reconnecting: ${why} An admin reconnects it in Setup → Stores.`, { needsReconnect: true });
}

const credentialsOf = (s: ShopifyAdminSettings): ShopifyAppCredentials => ({ shopDomain: s.shopDomain, clientId: s.clientId ?? '', clientSecret: s.clientSecret ?? '', ...(s.adminUrl ? { adminUrl: s.adminUrl } : {}) });

type Outcome = { tokens: StoredTokens } | { error: ShopifyAdminError; refusal?: ShopifyGrantError };

export function storeTokens(deps: Pick<Deps, 'db' | 'clock' | 'log'>, oauthOf?: OAuthFactory) {
  const { db, clock, log } = deps;
  const oauth = oauthOf ?? ((creds: ShopifyAppCredentials) => shopifyOAuth(creds, { now: () => clock.now() }));
  /** Renewals under way in this process, per site: a second caller waits for the first. */
  const renewing = new Map<number, Promise<Outcome>>();

  const fresh = (t: StoredTokens, refused?: string) => {
    if (!t.accessToken || t.accessToken === refused) return false;
    const due = renewalDueAt(t);
    return due === undefined || clock.now().getTime() < due;
  };

  /** The grant this connection asks for now: a new client-credentials token, or a refresh of the held pair. */
  async function grantFor(settings: ShopifyAdminSettings, held: StoredTokens | undefined): Promise<TokenGrant | ShopifyAdminError> {
    const client = oauth(credentialsOf(settings));
    if (settings.auth === 'client_credentials') return client.clientCredentials();
    if (!tokensFit(held, settings) || !held.refreshToken) return new ShopifyAdminError('auth', `The app is not installed on ${settings.shopDomain} yet: click Install on Shopify in Setup → Stores.`);
    if (held.refreshExpiresAt && Date.parse(held.refreshExpiresAt) <= clock.now().getTime())
      throw new ShopifyGrantError('refused', `The refresh token of ${settings.shopDomain} expired on ${held.refreshExpiresAt.slice(0, 10)} (90 days without a refresh): install the app on the store again.`);
    return client.refresh(held.refreshToken);
  }

  /** One renewal under the store's lock: a token another caller stored meanwhile is used as it is (unless forced). */
  async function renewLocked(siteId: number, settings: ShopifyAdminSettings, o: { refused?: string; force?: boolean; by?: number | null }): Promise<Outcome> {
    return storeTokensRepo(db).withRenewalLock(siteId, async (q: Db | Knex.Transaction) => {
      const repo = storeTokensRepo(q);
      const held = await repo.of(siteId);
      if (!o.force) {
        if (held?.needsReconnect) return { error: needsReconnectError(held.reason) };
        if (tokensFit(held, settings) && fresh(held, o.refused)) return { tokens: held };
      }
      let grant: TokenGrant | ShopifyAdminError;
      try {
        grant = await grantFor(settings, held);
      } catch (err) {
        if (!(err instanceof ShopifyGrantError)) throw err;
        if (err.kind === 'unavailable') return { error: new ShopifyAdminError('network', err.message) };
        await repo.markNeedsReconnect(siteId, settings.auth!, err.message, isoNow(clock));
        log.warn({ siteId, code: err.code }, 'Shopify refused a token grant: the store needs reconnecting');
        return { error: needsReconnectError(err.message), refusal: err };
      }
      if (grant instanceof ShopifyAdminError) return { error: grant };
      // The access token and its refresh token together, in one statement.
      await repo.saveGrant(
        siteId,
        { auth: settings.auth!, clientId: settings.clientId!, shopDomain: settings.shopDomain, ...grant, refreshToken: grant.refreshToken ?? (settings.auth === 'authorization_code' ? (held?.refreshToken ?? null) : null) },
        isoNow(clock),
        o.force ? { by: o.by ?? null } : undefined,
      );
      return { tokens: (await repo.of(siteId))! };
    });
  }

  function renew(siteId: number, settings: ShopifyAdminSettings, o: { refused?: string; force?: boolean; by?: number | null } = {}): Promise<Outcome> {
    const running = renewing.get(siteId);
    // A renewal already under way gives what this caller wants (a new token), unless this one must ignore the held state.
    if (running && !o.force) return running;
    const p = (running ? running.catch(() => undefined) : Promise.resolve()).then(() => renewLocked(siteId, settings, o));
    const tracked = p.finally(() => {
      if (renewing.get(siteId) === tracked) renewing.delete(siteId);
    });
    renewing.set(siteId, tracked);
    return tracked;
  }

  const tokenOf = (out: Outcome): string => {
    if ('error' in out) throw out.error;
    if (!out.tokens.accessToken) throw new ShopifyAdminError('auth', 'Shopify answered no access token');
    return out.tokens.accessToken;
  };

  /** The access token for a call now: the stored one while it is good, else a renewed one. */
  async function currentToken(siteId: number, settings: ShopifyAdminSettings): Promise<string> {
    const held = await storeTokensRepo(db).of(siteId);
    if (held?.needsReconnect) throw needsReconnectError(held.reason);
    if (tokensFit(held, settings) && fresh(held)) return held.accessToken!;
    return tokenOf(await renew(siteId, settings));
  }

  return {
    /** The token source of one store's Admin API client (integrations/shopifyAdmin.ts). */
    sourceFor(siteId: number, settings: ShopifyAdminSettings): AccessTokenSource {
      return {
        current: () => currentToken(siteId, settings),
        afterRefusal: async (refused: string) => tokenOf(await renew(siteId, settings, { refused })),
      };
    },
    /**
     * Connect (an admin's action): a new grant now whatever is held — a new client-credentials
     * token, or a refresh of the installed pair — clearing "needs reconnecting" when Shopify
     * agrees. Throws the ShopifyGrantError of a refusal (the store is then marked), or a
     * ShopifyAdminError when Shopify did not answer or nothing is installed.
     */
    async connect(siteId: number, settings: ShopifyAdminSettings, by: number | null): Promise<StoredTokens> {
      const out = await renew(siteId, settings, { force: true, by });
      if ('error' in out) throw out.refusal ?? out.error;
      return out.tokens;
    },
    /** The OAuth install: the callback's code exchanged for the first pair, stored as installed by `by`. Throws ShopifyGrantError. */
    async install(siteId: number, settings: ShopifyAdminSettings, code: string, by: number | null): Promise<StoredTokens> {
      const grant = await oauth(credentialsOf(settings)).exchangeCode(code);
      return storeTokensRepo(db).withRenewalLock(siteId, async (q) => {
        await storeTokensRepo(q).saveGrant(siteId, { auth: 'authorization_code', clientId: settings.clientId!, shopDomain: settings.shopDomain, ...grant }, isoNow(clock), { by });
        return (await storeTokensRepo(q).of(siteId))!;
      });
    },
    of: (siteId: number) => storeTokensRepo(db).of(siteId),
    ofSites: (siteIds: number[]) => storeTokensRepo(db).ofSites(siteIds),
  };
}

export type StoreTokens = ReturnType<typeof storeTokens>;
