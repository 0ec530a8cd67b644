// What every provider use case works with: the database, the clock, the production module, the
// timing options (one mutable object, so `configure` reaches every use case), and the provider
// client and settings of a site.
import type { Deps } from '../../deps';
import { formatDateTime, isoNow } from '../../lib/clock';
import { createHpClient, type HpRetryOptions } from '../../integrations/hpSiteflow';
import { RECORD_TYPES } from '../records';
import type { ProductionService } from '../production';
import { type Site, findSite } from '../sites';
import { hpSettingsOf, type HpSettings } from './settings';

export const ORDER_TYPE = RECORD_TYPES.order;
export const HP_LOG = RECORD_TYPES.providerEvent;
export const SEND_LOG = RECORD_TYPES.providerSend;

export interface FulfilmentOptions {
  /** HTTP for the provider client (tests inject one). */
  fetchImpl?: typeof fetch;
  retry?: Partial<HpRetryOptions>;
  sleep?: (ms: number) => Promise<void>;
  timeoutMs: number;
  /** How long a claimed outbox row is ours; longer than one attempt can take. */
  leaseMs: number;
  /** Attempts of one outbox row before it is failed. */
  maxAttempts: number;
  /** Outbox backoff between attempts (full jitter). */
  backoff: { baseMs: number; maxMs: number };
  /** How long send-hp waits for a concurrent sender of the same row before answering "queued". */
  waitForOtherMs: number;
  batchSize: number;
  /** An order at the provider with no news for this long is asked about (postbacks can be lost). */
  quietAfterMs: number;
}

export const DEFAULT_OPTIONS: FulfilmentOptions = {
  timeoutMs: 15_000,
  leaseMs: 5 * 60_000,
  maxAttempts: 8,
  backoff: { baseMs: 30_000, maxMs: 60 * 60_000 },
  waitForOtherMs: 10_000,
  batchSize: 10,
  quietAfterMs: 6 * 60 * 60_000,
};

/** The defaults, then the configuration, then what the caller asked for. */
export function optionsOf(config: Deps['config'], initial: Partial<FulfilmentOptions> = {}): FulfilmentOptions {
  // OUTBOX_LEASE_SECONDS / OUTBOX_RETRY_BASE_SECONDS (config.outbox) set the lease and the first retry delay.
  const fromConfig: Partial<FulfilmentOptions> = config.outbox
    ? { leaseMs: config.outbox.leaseSeconds * 1000, backoff: { baseMs: config.outbox.retryBaseSeconds * 1000, maxMs: DEFAULT_OPTIONS.backoff.maxMs } }
    : {};
  return { ...DEFAULT_OPTIONS, ...fromConfig, ...initial };
}

export interface FulfilmentContext extends Deps {
  production: ProductionService;
  options: FulfilmentOptions;
}

export type SendOutcome =
  | {
      status: 'sent' | 'already-sent';
      hpOrderId: string | null;
      outboxId: number;
      /** When the provider took it, when known (a duplicate answer from the provider does not say). */
      sentAt: string | null;
      /** The order's status after the send (send-hp answers it so the list need not reload). */
      orderStatus?: string | null;
    }
  | { status: 'queued'; outboxId: number; error?: string; nextAttemptAt?: string }
  | { status: 'failed'; outboxId: number; error: string; errorMes?: unknown };

/** A failure before or at the provider: `permanent` is not retried. */
export class SendFailure extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));

export const nowIso = (ctx: Pick<Deps, 'clock'>) => isoNow(ctx.clock);

/** The time `ms` from now on the context's clock. */
export const later = (ctx: Pick<Deps, 'clock'>, ms: number) => new Date(ctx.clock.now().getTime() + ms).toISOString();

/** What the history says of an attempt that failed and is tried again: when next (SYNC_TIMEZONE), which attempt, why. */
export const retryReason = (ctx: Pick<Deps, 'config'> & { options: FulfilmentOptions }, error: string, attempts: number, nextAttemptAt: string) =>
  `Next try at ${formatDateTime(nextAttemptAt, ctx.config.sync.timezone)} (attempt ${attempts} of ${ctx.options.maxAttempts}): ${error}`;

export function clientFor(ctx: FulfilmentContext, settings: HpSettings, retry?: Partial<HpRetryOptions>) {
  const { options, clock, log } = ctx;
  return createHpClient({
    baseUrl: settings.baseUrl,
    submitUrl: settings.submitUrl || undefined,
    scheme: settings.scheme,
    key: settings.key,
    secret: settings.secret,
    clock,
    fetchImpl: options.fetchImpl,
    retry: retry ? { ...options.retry, ...retry } : options.retry,
    sleep: options.sleep,
    timeoutMs: options.timeoutMs,
    onRetry: ({ attempt, delayMs, error }) => log.warn({ attempt, delayMs, status: error.status, code: error.code }, 'HP Site Flow call failed; retrying'),
  });
}

/** The site and its HP Site Flow settings; a missing site or setting is a permanent failure. */
export async function siteSettings(ctx: Pick<Deps, 'db'>, siteId: number): Promise<{ site: Site; settings: HpSettings }> {
  const site = await findSite(ctx.db, siteId);
  if (!site) throw new SendFailure('The site of this order no longer exists', true);
  const { settings, missing, invalid } = hpSettingsOf(site.settings.env);
  if (missing.length) throw new SendFailure(`HP Site Flow is not set up for site "${site.name}": set ${missing.join(', ')} in its settings`, true);
  if (invalid.length) throw new SendFailure(`HP Site Flow settings of site "${site.name}": ${invalid.join('; ')}`, true);
  return { site, settings };
}
