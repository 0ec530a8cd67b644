// The HTTP plumbing shared by the CRM (Raiser's Edge NXT) and email-platform (Adestra) clients:
// timeouts, Retry-After on 429 (and on the CRM's 403 "quota spent"), 5xx retried with
// exponential backoff and jitter, and every failure turned into a typed IntegrationError.
export type IntegrationService = 'raisers-edge' | 'adestra';

export type IntegrationErrorKind =
  /** Could not reach the service (refused, reset, DNS…). */
  | 'network'
  | 'timeout'
  /** 429 still answered after the retries, or a Retry-After longer than we wait. */
  | 'rate-limited'
  /** The CRM's daily quota is spent (403 with Retry-After). */
  | 'quota'
  /** 401, refused token or credentials. */
  | 'auth'
  /** The CRM revoked our refresh token (400 invalid_grant): an admin must connect again. */
  | 'reconnect'
  /** Missing or invalid settings. */
  | 'config'
  /** Any other answer that is not a success. */
  | 'http';

export class IntegrationError extends Error {
  constructor(
    readonly service: IntegrationService,
    readonly kind: IntegrationErrorKind,
    message: string,
    readonly info: { status?: number; url?: string; retryAfterSeconds?: number; body?: unknown } = {},
  ) {
    super(message);
    this.name = 'IntegrationError';
  }

  /** A failure that ends a run (the service cannot be used now), as opposed to one bad record. */
  get fatal(): boolean {
    return this.kind !== 'http' || (this.info.status ?? 0) >= 500;
  }

  toJSON() {
    return { service: this.service, kind: this.kind, message: this.message, ...this.info };
  }
}

export interface HttpSettings {
  fetch?: typeof fetch;
  /** Injected so tests never really wait. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => Date;
  timeoutMs: number;
  /** Retries of 5xx and network errors (idempotent calls only). */
  maxRetries?: number;
  /** Retries of 429 / 403-quota answers that carry a Retry-After. */
  maxRateLimitRetries?: number;
  /** A Retry-After longer than this is not waited for: the call fails with kind rate-limited / quota. */
  maxRetryAfterSeconds: number;
  backoffBaseMs?: number;
}

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** GETs and other safe calls: retry network errors and 5xx. Writes retry only a refused connection and rate limits. */
  idempotent: boolean;
  /** Whether a 403 with Retry-After means "quota spent, wait" (the CRM). */
  quota403?: boolean;
}

export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
  latencyMs: number;
}

export const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Retry-After as seconds: a number of seconds or an HTTP date. */
export function retryAfterSeconds(value: string | null, now: Date = new Date()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}

function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function networkCode(err: unknown): string | undefined {
  const e = err as { code?: string; cause?: { code?: string; cause?: { code?: string } } };
  return e?.cause?.code ?? e?.cause?.cause?.code ?? e?.code;
}

export function createHttp(service: IntegrationService, settings: HttpSettings) {
  const doFetch = settings.fetch ?? fetch;
  const sleep = settings.sleep ?? realSleep;
  const random = settings.random ?? Math.random;
  const now = settings.now ?? (() => new Date());
  const maxRetries = settings.maxRetries ?? 3;
  const maxRateLimitRetries = settings.maxRateLimitRetries ?? 5;
  const base = settings.backoffBaseMs ?? 500;
  const backoff = (attempt: number) => Math.round(base * 2 ** attempt * (0.5 + random() / 2));

  /** One call with the retry policy; answers the last answer (any status below 500 other than the retried ones). */
  async function send(req: HttpRequest): Promise<HttpAnswer> {
    let failures = 0;
    let limited = 0;
    for (;;) {
      const started = Date.now();
      let res: Response;
      try {
        res = await doFetch(req.url, { method: req.method, headers: req.headers, body: req.body, signal: AbortSignal.timeout(settings.timeoutMs), redirect: 'manual' });
      } catch (err) {
        const code = networkCode(err);
        const timedOut = (err as Error)?.name === 'TimeoutError' || (err as Error)?.name === 'AbortError';
        // A refused connection never reached the service: safe to retry even a write.
        const retriable = req.idempotent || code === 'ECONNREFUSED';
        if (retriable && failures < maxRetries) {
          await sleep(backoff(failures++));
          continue;
        }
        if (timedOut) throw new IntegrationError(service, 'timeout', `${service} did not answer within ${settings.timeoutMs} ms (${req.method} ${req.url})`, { url: req.url });
        throw new IntegrationError(service, 'network', `${service} could not be reached (${code ?? (err as Error)?.message ?? 'network error'}) at ${req.url}`, { url: req.url });
      }
      const text = await res.text().catch(() => '');
      const answer: HttpAnswer = { status: res.status, headers: res.headers, text, json: parseJson(text), latencyMs: Date.now() - started };
      const wait = retryAfterSeconds(res.headers.get('retry-after'), now());
      const isQuota = req.quota403 && res.status === 403 && wait !== undefined;
      if (res.status === 429 || isQuota) {
        const kind = isQuota ? 'quota' : 'rate-limited';
        const seconds = wait ?? 1;
        if (seconds > settings.maxRetryAfterSeconds || limited >= maxRateLimitRetries) {
          const what = isQuota ? 'daily call quota is spent' : 'rate limit was hit';
          // The service's own words (e.g. when the quota is replenished) go with ours.
          const said = (answer.json as { message?: unknown } | null)?.message;
          throw new IntegrationError(service, kind, `${service}: the ${what}; retry after ${seconds} s${typeof said === 'string' && said ? ` (${service} said: "${said.slice(0, 200)}")` : ''}`, { status: res.status, url: req.url, retryAfterSeconds: seconds, body: answer.json });
        }
        limited++;
        await sleep(seconds * 1000);
        continue;
      }
      if (res.status >= 500) {
        if (req.idempotent && failures < maxRetries) {
          await sleep(wait !== undefined && wait <= settings.maxRetryAfterSeconds ? wait * 1000 : backoff(failures++));
          continue;
        }
        throw new IntegrationError(service, 'http', `${service} answered ${res.status} to ${req.method} ${new URL(req.url).pathname}`, { status: res.status, url: req.url, body: answer.json });
      }
      return answer;
    }
  }

  return { send };
}

/** Turn a non-success answer into the typed error (401 → auth). */
export function answerError(service: IntegrationService, req: { method: string; url: string }, answer: HttpAnswer, what?: string): IntegrationError {
  const detail = typeof answer.json === 'object' && answer.json !== null ? JSON.stringify(answer.json).slice(0, 300) : String(answer.text).slice(0, 300);
  const kind = answer.status === 401 ? 'auth' : 'http';
  const message = `${service}${what ? ` (${what})` : ''} answered ${answer.status} to ${req.method} ${new URL(req.url).pathname}${detail ? `: ${detail}` : ''}`;
  return new IntegrationError(service, kind, message, { status: answer.status, url: req.url, body: answer.json });
}
