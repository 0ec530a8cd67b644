// HP Site Flow client (docs/connect-hp-siteflow.md): HMAC-SHA256 request signing in either of HP's two
// schemes (the PrintOS gateway's and current Site Flow's), order submission to a separate host
// when one is set, a time limit per call, retries with exponential backoff and full jitter on
// network errors, timeouts, 429 (Retry-After honoured) and 5xx — never on another 4xx — and
// typed errors.
import crypto from 'node:crypto';
import type { Clock } from '../lib/clock';

export interface HpValidation {
  path: string;
  message: string;
}

/** Any failed call: `status` 0 means no HTTP answer (network error or timeout). */
export class HpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly validations: HpValidation[];
  /** The provider's answer body, when there was one. */
  readonly body: unknown;
  constructor(status: number, code: string, message: string, validations: HpValidation[] = [], body?: unknown) {
    super(message);
    this.name = 'HpError';
    this.status = status;
    this.code = code;
    this.validations = validations;
    this.body = body;
  }

  /** Worth another try later: no answer, 429 or 5xx. */
  get retryable(): boolean {
    return this.status === 0 || this.status === 429 || this.status >= 500;
  }
}

/** 400 "Source Order ID already exists": the order was sent before — counts as sent. */
export class HpDuplicateOrder extends HpError {
  constructor(status: number, code: string, message: string, validations: HpValidation[] = [], body?: unknown) {
    super(status, code, message, validations, body);
    this.name = 'HpDuplicateOrder';
  }
}

export const DUPLICATE_MESSAGE = /source order id already exists/i;

export interface HpRetryOptions {
  /** Retries after the first try (default 3). */
  retries: number;
  /** Backoff base: the n-th retry waits up to min(maxMs, baseMs · 2^(n-1)), uniformly (full jitter). */
  baseMs: number;
  maxMs: number;
  /** A Retry-After longer than this is not waited for: the call fails (the outbox retries later). */
  maxRetryAfterMs?: number;
}

/** `printos`: the PrintOS gateway's x-hp-hmac-* headers; `oneflow`: current Site Flow's x-oneflow-* headers. */
export const HP_AUTH_SCHEMES = ['printos', 'oneflow'] as const;
export type HpAuthScheme = (typeof HP_AUTH_SCHEMES)[number];

export interface HpClientOptions {
  baseUrl: string;
  /** Where orders are submitted: a base (`/api/order` is added) or the full `…/api/order` URL. Default: baseUrl. */
  submitUrl?: string;
  scheme?: HpAuthScheme;
  key: string;
  secret: string;
  fetchImpl?: typeof fetch;
  clock?: Clock;
  retry?: Partial<HpRetryOptions>;
  /** Time limit of one HTTP call (default 15 s). */
  timeoutMs?: number;
  /** Injected for tests: waiting between tries, and the jitter's random source in [0, 1). */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** Called before each retry (logging, tests). */
  onRetry?: (info: { attempt: number; delayMs: number; error: HpError }) => void;
}

export const DEFAULT_RETRY: HpRetryOptions = { retries: 3, baseMs: 500, maxMs: 8_000, maxRetryAfterMs: 60_000 };

/** `2026-11-21T10:00:00Z`: ISO-8601 UTC without milliseconds. */
export function hpDate(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** PrintOS: hex HMAC-SHA256(secret, "<METHOD> <path><timestamp>"), `path` the API path without the base URL's own path. */
export function hpSignature(secret: string, method: string, path: string, timestamp: string): string {
  return crypto.createHmac('sha256', secret).update(`${method.toUpperCase()} ${path}${timestamp}`).digest('hex');
}

/** Site Flow: hex HMAC-SHA256(secret, "<METHOD> <pathname> <timestamp>"), `pathname` the URL's full pathname. */
export function oneflowSignature(secret: string, method: string, pathname: string, timestamp: string): string {
  return crypto.createHmac('sha256', secret).update(`${method.toUpperCase()} ${pathname} ${timestamp}`).digest('hex');
}

/**
 * The signing headers of one call. `apiPath` is what PrintOS signs (`/api/order`), `pathname` what
 * Site Flow signs (the URL's whole pathname). The algorithm header is always sent: without it HP
 * assumes SHA1, which it refuses.
 */
export function hpAuthHeaders(o: { scheme?: HpAuthScheme; key: string; secret: string; method: string; apiPath: string; pathname: string; date: Date }): Record<string, string> {
  const timestamp = hpDate(o.date);
  if (o.scheme === 'oneflow') {
    return {
      'x-oneflow-authorization': `${o.key}:${oneflowSignature(o.secret, o.method, o.pathname, timestamp)}`,
      'x-oneflow-date': timestamp,
      'x-oneflow-algorithm': 'SHA256',
    };
  }
  return {
    'x-hp-hmac-authentication': `${o.key}:${hpSignature(o.secret, o.method, o.apiPath, timestamp)}`,
    'x-hp-hmac-date': timestamp,
    'x-hp-hmac-algorithm': 'SHA256',
  };
}

/** Retry-After: seconds or an HTTP date → milliseconds from now (undefined when absent or unreadable). */
export function parseRetryAfter(value: string | null, now: Date): number | undefined {
  if (!value) return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now.getTime());
}

/** Full jitter: uniform in [0, min(maxMs, baseMs · 2^(retry-1))]. */
export function backoffDelay(retry: number, o: Pick<HpRetryOptions, 'baseMs' | 'maxMs'>, random: () => number = Math.random): number {
  const cap = Math.min(o.maxMs, o.baseMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(random() * cap);
}

/**
 * A call's answer. The PrintOS submit answers the created order (`{success, order}`); Site Flow's
 * submit host only acknowledges (`{_id, url, timestamp, sourceAccountId}`) and validates later.
 */
export interface HpOrderAnswer {
  success?: boolean;
  order?: { _id: string; orderData?: { status?: string; sourceOrderId?: string; [k: string]: unknown }; [k: string]: unknown };
  _id?: string;
  url?: string;
  timestamp?: string;
  sourceAccountId?: string;
  [k: string]: unknown;
}

/** An acknowledgement: taken in, not yet validated (errors come later as an "Order Submission Error" postback). */
export function isAcknowledgement(answer: unknown): boolean {
  const a = answer as HpOrderAnswer | null | undefined;
  return !!a && typeof a === 'object' && !a.order && typeof a._id === 'string';
}

/** The provider's order id of a submit answer. Ids are hex, so whitespace (HP's published sample has some) is dropped. */
export function providerOrderIdOf(answer: unknown): string | null {
  const a = answer as HpOrderAnswer | null | undefined;
  const id = a?.order?._id ?? a?._id;
  const clean = typeof id === 'string' ? id.replace(/\s+/g, '') : '';
  return clean || null;
}

export type HpClient = ReturnType<typeof createHpClient>;

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function errorFromAnswer(status: number, body: unknown, text: string): HpError {
  const e = (body as { error?: { message?: unknown; name?: unknown; code?: unknown; validations?: unknown } } | null)?.error;
  const message = typeof e?.message === 'string' && e.message ? e.message : `HP Site Flow answered ${status}${text && !body ? `: ${text.slice(0, 200)}` : ''}`;
  const code = typeof e?.code === 'string' || typeof e?.code === 'number' ? String(e.code) : typeof e?.name === 'string' ? e.name : `HTTP_${status}`;
  const validations = Array.isArray(e?.validations)
    ? (e.validations as Array<{ path?: unknown; message?: unknown }>).map((v) => ({ path: String(v?.path ?? ''), message: String(v?.message ?? '') }))
    : [];
  const duplicate = status === 400 && (DUPLICATE_MESSAGE.test(message) || validations.some((v) => DUPLICATE_MESSAGE.test(v.message)));
  return duplicate ? new HpDuplicateOrder(status, code, message, validations, body) : new HpError(status, code, message, validations, body);
}

export function createHpClient(options: HpClientOptions) {
  const fetchImpl = options.fetchImpl ?? fetch;
  const now = () => options.clock?.now() ?? new Date();
  const retry: HpRetryOptions = { ...DEFAULT_RETRY, ...options.retry };
  const timeoutMs = options.timeoutMs ?? 15_000;
  const sleep = options.sleep ?? realSleep;
  const random = options.random ?? Math.random;
  const scheme: HpAuthScheme = options.scheme ?? 'printos';
  const urlOf = (name: string, value: string) => {
    try {
      return new URL(value);
    } catch {
      throw new HpError(0, 'CONFIG', `${name} is not a valid URL: ${value}`);
    }
  };
  const base = urlOf('HP_BASE_URL', options.baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  // The submit host: a base like HP_BASE_URL, or the endpoint itself (…/api/order).
  const submit = options.submitUrl ? urlOf('HP_SUBMIT_URL', options.submitUrl) : base;
  const submitPath = submit.pathname.replace(/\/+$/, '');
  const submitEndpoint = `${submit.origin}${submitPath.endsWith('/api/order') ? submitPath : `${submitPath}/api/order`}`;

  /** One HTTP call, no retries. `apiPath` is the API's own path (`/api/order/…`). */
  async function once(method: string, url: string, apiPath: string, body: unknown): Promise<unknown> {
    const headers: Record<string, string> = {
      Accept: 'application/json',
      ...hpAuthHeaders({ scheme, key: options.key, secret: options.secret, method, apiPath, pathname: new URL(url).pathname, date: now() }),
    };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    let res: Response;
    let text: string;
    try {
      res = await fetchImpl(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: controller.signal });
      text = await res.text();
    } catch (err) {
      if (controller.signal.aborted) throw new HpError(0, 'TIMEOUT', `HP Site Flow did not answer within ${timeoutMs} ms`);
      throw new HpError(0, 'NETWORK', `HP Site Flow could not be reached: ${(err as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (res.ok) {
      if ((parsed as { success?: unknown } | undefined)?.success === false) throw errorFromAnswer(400, parsed, text);
      return parsed ?? {};
    }
    const error = errorFromAnswer(res.status, parsed, text);
    if (res.status === 429 || res.status === 503) (error as HpError & { retryAfterMs?: number }).retryAfterMs = parseRetryAfter(res.headers.get('retry-after'), now());
    throw error;
  }

  /** The call with retries: network errors, timeouts, 429 and 5xx, `retries` times. */
  async function call<T>(method: string, path: string, body?: unknown, url = `${base.origin}${prefix}${path}`): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return (await once(method, url, path, body)) as T;
      } catch (err) {
        if (!(err instanceof HpError) || !err.retryable || attempt >= retry.retries) throw err;
        const retryAfter = (err as HpError & { retryAfterMs?: number }).retryAfterMs;
        if (retryAfter !== undefined && retry.maxRetryAfterMs !== undefined && retryAfter > retry.maxRetryAfterMs) throw err;
        const delayMs = retryAfter ?? backoffDelay(attempt + 1, retry, random);
        options.onRetry?.({ attempt: attempt + 1, delayMs, error: err });
        await sleep(delayMs);
      }
    }
  }

  const enc = encodeURIComponent;
  return {
    /** POST /api/order (on the submit host) → `{success, order:{_id, orderData:{status, …}}}`, or an acknowledgement `{_id, url, …}`. */
    submitOrder: (order: unknown) => call<HpOrderAnswer>('POST', '/api/order', order, submitEndpoint),
    validateOrder: (order: unknown) => call<HpOrderAnswer>('POST', '/api/order/validate', order),
    getOrder: (id: string) => call<HpOrderAnswer>('GET', `/api/order/${enc(id)}`),
    cancelOrder: (sourceAccount: string, sourceOrderId: string) => call<HpOrderAnswer>('PUT', `/api/order/${enc(sourceAccount)}/${enc(sourceOrderId)}/cancel`),
  };
}
