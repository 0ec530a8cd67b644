// Shopify Admin GraphQL client (docs/connect-shopify.md): the transport every
// outbound store call goes through. The request itself is made by Shopify's own
// @shopify/admin-api-client (URL per API version, X-Shopify-Access-Token, JSON body); this module
// adds what it leaves to its callers: where to send (SHOPIFY_ADMIN_URL), cost-based waiting on
// THROTTLED and 429, never re-sending a mutation that may have landed, and errors an operator
// can act on. The access token is never logged nor put in an error message.
//
// Shopify's documented behaviour (shopify.dev):
// - "GraphQL Admin API rate limits" (docs/apps/build/apis/graphql-admin/rate-limits): a throttled
//   call answers HTTP 200 with `errors: [{message: "Throttled", extensions: {code: "THROTTLED"}}]`
//   and `extensions.cost {requestedQueryCost, actualQueryCost: null, throttleStatus
//   {maximumAvailable, currentlyAvailable, restoreRate}}`; the bucket refills at restoreRate
//   points a second, so the wait is (requested − available) / restoreRate seconds. A throttled
//   call is refused before it runs, so it is safe to send again (mutations too).
// - "GraphQL Admin API reference", status and error codes (docs/api/admin-graphql): 401 bad or
//   missing token, 402 the shop is frozen, 403 forbidden, 404 shop or version not found, 423 the
//   shop is locked (changelog, 2018), 429 too many requests, 5xx Shopify's side; on 200,
//   `errors[].extensions.code` ACCESS_DENIED (a scope is missing), SHOP_INACTIVE, THROTTLED,
//   INTERNAL_SERVER_ERROR.
// - Mutations report rejected input in their payload's `userErrors {field message}` with HTTP
//   200: failures all the same (userErrorsOf).
import { createAdminApiClient } from '@shopify/admin-api-client';
import { Kind, parse } from 'graphql';
import { DEFAULT_SHOPIFY_API_VERSION, SHOPIFY_AUTHS, isShopifyApiVersion, siteSettings } from '../../../common/siteSettings';

/** Site settings (settings.env keys) of the Admin API connection. */
export const SHOPIFY_ADMIN_KEYS = {
  /** How the token is obtained: client_credentials, authorization_code or static_token. */
  auth: 'SHOPIFY_AUTH',
  /** The Dev Dashboard app's credentials (the secret also signs its webhooks). */
  clientId: 'SHOPIFY_CLIENT_ID',
  clientSecret: 'SHOPIFY_CLIENT_SECRET',
  /** A legacy admin-made custom app's static token (shpat_…). */
  token: 'SHOPIFY_ADMIN_TOKEN',
  apiVersion: 'SHOPIFY_API_VERSION',
  adminUrl: 'SHOPIFY_ADMIN_URL',
  shopDomain: 'SHOPIFY_SHOP_DOMAIN',
} as const;

/** How a store's Admin API token is obtained (SHOPIFY_AUTH), the version used when none is set, and how versions are named: the settings registry's. */
export { DEFAULT_SHOPIFY_API_VERSION, SHOPIFY_AUTHS, isShopifyApiVersion };
export type ShopifyAuth = (typeof SHOPIFY_AUTHS)[number];
export const isShopifyAuth = (v: unknown): v is ShopifyAuth => (SHOPIFY_AUTHS as readonly unknown[]).includes(v);


export interface ShopifyAdminSettings {
  shopDomain: string;
  apiVersion: string;
  /** Replaces `https://<shopDomain>` (the simulator, tests): the Admin API and OAuth host. */
  adminUrl?: string;
  /** Default static_token. */
  auth?: ShopifyAuth;
  /** static_token: the legacy custom app's token. */
  accessToken?: string;
  /** client_credentials and authorization_code: the app's credentials (the token comes from a grant). */
  clientId?: string;
  clientSecret?: string;
}

type EnvLike = { settings: { env: Array<{ key: string; value: string }> } };

/**
 * SHOPIFY_AUTH as set; unset, a site with a static token keeps it (a store connected before app
 * connections existed), one with a Client ID uses the client credentials grant.
 */
export function shopifyAuthOf(site: EnvLike): ShopifyAuth {
  const s = siteSettings(site);
  if (s.SHOPIFY_AUTH) return s.SHOPIFY_AUTH;
  if (!s.SHOPIFY_ADMIN_TOKEN && s.SHOPIFY_CLIENT_ID) return 'client_credentials';
  return 'static_token';
}

/** The app connections' kinds: their token comes from a grant, not from the settings. */
export const isAppAuth = (auth: ShopifyAuth) => auth !== 'static_token';

/**
 * The site's Admin API connection, or null when it has none: nowhere to send (no shop domain and
 * no admin URL), or nothing to sign in with — no static token (never set, or cleared when the app
 * was uninstalled) for static_token, no Client ID and secret for an app connection.
 */
export function shopifyAdminSettingsOf(site: EnvLike): ShopifyAdminSettings | null {
  const auth = shopifyAuthOf(site);
  const s = siteSettings(site);
  const shopDomain = s.SHOPIFY_SHOP_DOMAIN.toLowerCase() || undefined;
  const adminUrl = s.SHOPIFY_ADMIN_URL || undefined;
  if (!shopDomain && !adminUrl) return null;
  const base = {
    shopDomain: shopDomain ?? new URL(adminUrl!).host,
    apiVersion: s.SHOPIFY_API_VERSION,
    ...(adminUrl ? { adminUrl } : {}),
    auth,
  };
  if (auth === 'static_token') {
    const accessToken = s.SHOPIFY_ADMIN_TOKEN || undefined;
    return accessToken ? { ...base, accessToken } : null;
  }
  const clientId = s.SHOPIFY_CLIENT_ID || undefined;
  const clientSecret = s.SHOPIFY_CLIENT_SECRET || undefined;
  return clientId && clientSecret ? { ...base, clientId, clientSecret } : null;
}

/** Does this site's store take Admin API calls (reconciliation, tracking back)? */
export const hasShopifyAdmin = (site: EnvLike): boolean => shopifyAdminSettingsOf(site) !== null;

export type ShopifyAdminErrorKind = 'auth' | 'throttled' | 'user-errors' | 'graphql' | 'http' | 'network';

export interface ShopifyUserError {
  field: string[] | null;
  message: string;
}

export class ShopifyAdminError extends Error {
  readonly kind: ShopifyAdminErrorKind;
  /** The HTTP status, when Shopify answered. */
  readonly status?: number;
  readonly userErrors?: ShopifyUserError[];
  /** A mutation that got no answer: it may have been applied. */
  readonly mayHaveLanded?: boolean;
  /** Shopify refused the store's grant (or the app was uninstalled): nothing is tried until an admin reconnects it. */
  readonly needsReconnect?: boolean;
  /** The token works but lacks a scope this call needs (ACCESS_DENIED): other calls still go. */
  readonly missingScope?: boolean;
  constructor(kind: ShopifyAdminErrorKind, message: string, extra: { status?: number; userErrors?: ShopifyUserError[]; mayHaveLanded?: boolean; needsReconnect?: boolean; missingScope?: boolean } = {}) {
    super(message);
    this.name = 'ShopifyAdminError';
    this.kind = kind;
    if (extra.status !== undefined) this.status = extra.status;
    if (extra.userErrors) this.userErrors = extra.userErrors;
    if (extra.mayHaveLanded) this.mayHaveLanded = true;
    if (extra.needsReconnect) this.needsReconnect = true;
    if (extra.missingScope) this.missingScope = true;
  }
}

/** A mutation payload's userErrors as a thrown error; the payload itself when there are none. */
export function userErrorsOf<P extends { userErrors?: ShopifyUserError[] | null } | null | undefined>(payload: P, what = 'Shopify'): NonNullable<P> {
  if (!payload) throw new ShopifyAdminError('graphql', `${what} answered no result`);
  const errors = payload.userErrors ?? [];
  if (errors.length > 0) {
    const text = errors.map((e) => (e.field?.length ? `${e.field.join('.')}: ${e.message}` : e.message)).join('; ');
    throw new ShopifyAdminError('user-errors', `${what} refused it: ${text}`, { userErrors: errors.map((e) => ({ field: e.field ?? null, message: e.message })) });
  }
  return payload as NonNullable<P>;
}

/**
 * Where an app connection's access token comes from (modules/orders/storeTokens.ts): a token good
 * for a call now, and a fresh one once the store refused one (401). Either may throw a
 * ShopifyAdminError of kind 'auth' whose message says why the store cannot be called.
 */
export interface AccessTokenSource {
  current(): Promise<string>;
  afterRefusal(refused: string): Promise<string>;
}

export interface ShopifyAdminDeps {
  /** An app connection's tokens (required unless the settings carry a static token). */
  tokens?: AccessTokenSource;
  /** The HTTP call (default: global fetch). */
  fetch?: typeof fetch;
  /** Waiting between tries (injected by tests: no real waiting). */
  sleep?: (ms: number) => Promise<void>;
  /** Tries of one request, the first included (default 5). */
  maxTries?: number;
  /** A single wait longer than this is not waited for: the call fails as throttled (default 30 s). */
  maxWaitMs?: number;
  /** Time limit of one HTTP call (default 20 s). */
  timeoutMs?: number;
  /** Told before each wait (logging, tests): never given the token. */
  onRetry?: (info: { attempt: number; waitMs: number; reason: 'throttled' | 'http-429' | 'network' | 'http-5xx' }) => void;
}

export interface ShopifyAdmin {
  request<T>(document: string, variables?: Record<string, unknown>): Promise<T>;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface ThrottleStatus {
  maximumAvailable?: number;
  currentlyAvailable?: number;
  restoreRate?: number;
}
interface CostExtension {
  cost?: { requestedQueryCost?: number; throttleStatus?: ThrottleStatus };
}
interface GraphQLErrorLike {
  message?: string;
  extensions?: { code?: string };
}

/** How long until the bucket holds the requested cost (ms); 1 s when Shopify did not say. */
export function throttleWaitMs(extensions: unknown): number {
  const cost = (extensions as CostExtension | undefined)?.cost;
  const status = cost?.throttleStatus;
  const requested = Number(cost?.requestedQueryCost);
  const available = Number(status?.currentlyAvailable);
  const rate = Number(status?.restoreRate);
  if (!(rate > 0) || !Number.isFinite(requested) || !Number.isFinite(available)) return 1_000;
  return Math.max(250, Math.ceil(((requested - available) / rate) * 1000));
}

/** Retry-After (seconds, possibly fractional, as Shopify writes "2.0") → ms. */
const retryAfterMs = (header: string | null | undefined) => {
  const s = Number(header);
  return header && Number.isFinite(s) && s >= 0 ? Math.ceil(s * 1000) : undefined;
};

const isMutation = (document: string) => {
  try {
    return parse(document).definitions.some((d) => d.kind === Kind.OPERATION_DEFINITION && d.operation === 'mutation');
  } catch {
    throw new ShopifyAdminError('graphql', 'The GraphQL document is not valid');
  }
};

const HTTP_MESSAGES: Record<number, string> = {
  400: 'Shopify refused the request as malformed (400)',
  402: 'The store is frozen: its Shopify bill is unpaid (402)',
  403: 'The store refused access to this call (403): check the app’s Admin API scopes',
  404: 'Shopify found no such store or API version (404): check the shop domain and SHOPIFY_API_VERSION',
  423: 'The store is locked by Shopify (423)',
};

function httpError(status: number, shop: string, app = false): ShopifyAdminError {
  if (status === 401 && app) return new ShopifyAdminError('auth', `The store refused a freshly granted access token (401): the app may have been uninstalled from ${shop}; reconnect it in Setup → Stores`, { status });
  if (status === 401) return new ShopifyAdminError('auth', `The store refused the access token (401): check SHOPIFY_ADMIN_TOKEN for ${shop}, or reinstall the app and paste its new token`, { status });
  if (status === 403) return new ShopifyAdminError('auth', HTTP_MESSAGES[403], { status });
  if (status >= 500) return new ShopifyAdminError('http', `Shopify had a problem answering (${status}); try again later`, { status });
  return new ShopifyAdminError('http', HTTP_MESSAGES[status] ?? `Shopify answered HTTP ${status}`, { status });
}

function graphqlError(errors: GraphQLErrorLike[], status: number | undefined): ShopifyAdminError {
  const codes = errors.map((e) => e.extensions?.code);
  const text = errors.map((e) => e.message ?? 'unknown error').join('; ');
  if (codes.includes('ACCESS_DENIED')) return new ShopifyAdminError('auth', `The access token lacks a scope this call needs: ${text}`, { status, missingScope: true });
  if (codes.includes('SHOP_INACTIVE')) return new ShopifyAdminError('http', `The store is not active: ${text}`, { status });
  return new ShopifyAdminError('graphql', `Shopify refused the query: ${text}`, { status });
}

/** The Admin API of one store. */
export function shopifyAdmin(settings: ShopifyAdminSettings, deps: ShopifyAdminDeps = {}): ShopifyAdmin {
  const fetchImpl = deps.fetch ?? fetch;
  const sleep = deps.sleep ?? realSleep;
  const maxTries = Math.max(1, deps.maxTries ?? 5);
  const maxWaitMs = deps.maxWaitMs ?? 30_000;
  const timeoutMs = deps.timeoutMs ?? 20_000;
  const shop = settings.shopDomain;
  const base = settings.adminUrl?.replace(/\/$/, '');
  const staticToken = settings.accessToken;
  const tokens: AccessTokenSource | undefined =
    deps.tokens ??
    (staticToken
      ? {
          current: async () => staticToken,
          // A static token cannot be renewed: the operator's sentence.
          afterRefusal: async () => {
            throw httpError(401, shop);
          },
        }
      : undefined);
  if (!tokens) throw new Error(`The store ${shop} has no access token and no token source`);

  // One client per token (a renewed token gets its own; the previous one is dropped).
  let clientToken: string | undefined;
  let cached: ReturnType<typeof createAdminApiClient> | undefined;
  const clientFor = (accessToken: string) => {
    if (cached && clientToken === accessToken) return cached;
    clientToken = accessToken;
    cached = createAdminApiClient({
      storeDomain: settings.shopDomain,
      apiVersion: settings.apiVersion,
      accessToken,
      userAgentPrefix: 'Presswork',
      retries: 0,
      // Its logger sees request headers (the token): nothing is passed on.
      logger: () => undefined,
      customFetchApi: (url, init) => {
        const target = base ? `${base}${new URL(url).pathname}` : url;
        return fetchImpl(target, { ...init, signal: AbortSignal.timeout(timeoutMs) } as RequestInit);
      },
    });
    return cached;
  };

  async function request<T>(document: string, variables?: Record<string, unknown>): Promise<T> {
    const mutation = isMutation(document);
    let token = await tokens!.current();
    let renewed = false;
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= maxTries;
      const retry = async (waitMs: number, reason: 'throttled' | 'http-429' | 'network' | 'http-5xx', fail: ShopifyAdminError) => {
        if (last || waitMs > maxWaitMs) throw fail;
        deps.onRetry?.({ attempt, waitMs, reason });
        await sleep(waitMs);
      };

      const answer = await clientFor(token).request<T>(document, variables ? { variables } : undefined);
      const errors = answer.errors;
      if (!errors) return answer.data as T;

      const status = errors.networkStatusCode;
      const gqlErrors = (errors.graphQLErrors ?? []) as GraphQLErrorLike[];
      if (status === undefined) {
        // No HTTP answer. A query is simply asked again; a mutation may have been applied.
        const cause = errors.message?.replace(/^GraphQL Client: /, '') || 'no answer';
        if (mutation) throw new ShopifyAdminError('network', `No answer from ${shop} (${cause}): the change may or may not have been made in Shopify`, { mayHaveLanded: true });
        await retry(1_000 * attempt, 'network', new ShopifyAdminError('network', `No answer from ${shop} (${cause})`));
        continue;
      }
      if (gqlErrors.some((e) => e.extensions?.code === 'THROTTLED')) {
        await retry(throttleWaitMs(answer.extensions), 'throttled', new ShopifyAdminError('throttled', `Shopify is limiting calls to ${shop} (throttled); try again in a minute`, { status }));
        continue;
      }
      if (status === 429) {
        let body: { extensions?: unknown } | undefined;
        try {
          body = (await errors.response?.json()) as { extensions?: unknown };
        } catch {
          body = undefined;
        }
        const wait = retryAfterMs(errors.response?.headers.get('Retry-After')) ?? throttleWaitMs(body?.extensions);
        await retry(wait, 'http-429', new ShopifyAdminError('throttled', `Shopify is limiting calls to ${shop} (429); try again in a minute`, { status }));
        continue;
      }
      // Refused before it ran (a mutation too): once with a fresh token, for a token that can be renewed.
      if (status === 401 && !renewed) {
        renewed = true;
        token = await tokens!.afterRefusal(token);
        attempt--;
        continue;
      }
      if (status >= 500 && !mutation) {
        await retry(1_000 * attempt, 'http-5xx', httpError(status, shop));
        continue;
      }
      if (status >= 500) throw new ShopifyAdminError('http', `Shopify had a problem answering (${status}): the change may or may not have been made in Shopify`, { status, mayHaveLanded: true });
      if (status !== 200 && gqlErrors.length === 0) throw httpError(status, shop, Boolean(deps.tokens));
      if (gqlErrors.length > 0) throw graphqlError(gqlErrors, status);
      throw new ShopifyAdminError('graphql', `Shopify answered no data (${status})`, { status });
    }
  }

  return { request };
}
