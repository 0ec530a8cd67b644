// Sending orders to the print-fulfilment provider (HP Site Flow) through the outbox, the manual
// send, the provider's postbacks, and the provider-event screens.
//
// A send: enqueueOrderSend writes an outbox row in the caller's transaction; a worker (or sendNow)
// claims it under a lease with one atomic UPDATE, builds the provider body (print PDF per line,
// stored once under an unguessable /files key), calls the client and records the outcome. Success
// and "Source Order ID already exists" → sent (+ shopify-hp-log + the order record, one
// transaction); a provider 4xx → failed (visible, not retried); no answer, 429, 5xx → pending with
// backoff, failed after maxAttempts.
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import { toJson, type Db } from '../../db';
import type { Deps } from '../../deps';
import type { Page } from '../../http/envelope';
import { HttpError, badRequest, conflict, forbidden, notFound, unauthorized } from '../../http/errors';
import type { Actor } from '../../http/types';
import { isoNow } from '../../lib/clock';
import { pageWindow } from '../../lib/paging';
import { createHpClient, HpDuplicateOrder, HpError, type HpOrderAnswer, type HpRetryOptions } from '../../integrations/hpSiteflow';
import { isAdmin } from '../auth/permissions';
import { createInbox, type Handled, type Inbox } from '../inbox/service';
import { generalDataRepo, type DataRecord, type RecordFilter, type RecordSortField } from '../general-data/repo';
import { RECORD_TYPES } from '../general-data/types';
import { orderTablesRepo } from '../orders/tablesRepo';
import { printJobsRepo } from '../print-jobs/repo';
import { providerBlocker } from '../production/designForLine';
import type { ProductionService } from '../production/service';
import { sitesRepo, type Site } from '../sites/repo';
import {
  buildManualBody,
  buildOrderBody,
  shipToOf,
  sourceOrderIdOf,
  type HpOrderBody,
  type ManualInput,
  type MappedLine,
  type PreGeneratedItem,
  type StoreOrder,
} from './orderBody';
import { enqueueOrderSend, hpDedupeKey, HP_ORDER_KIND, outboxFromRow, outboxRepo, type EnqueueOrderSend, type OutboxRow } from './outbox';
import type { PostbackBody } from './schema';
import { hpSettingsOf, type HpSettings } from './settings';
import { highestProgress, nextOrderStatus } from './status';

export const ORDER_TYPE = RECORD_TYPES.order;
export const HP_LOG = RECORD_TYPES.providerEvent;
export const SEND_LOG = RECORD_TYPES.providerSend;
/** The inbox source of HP Site Flow postbacks. */
export const HP_SOURCE = 'hp';

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
}

export const DEFAULT_OPTIONS: FulfilmentOptions = {
  timeoutMs: 15_000,
  leaseMs: 5 * 60_000,
  maxAttempts: 8,
  backoff: { baseMs: 30_000, maxMs: 60 * 60_000 },
  waitForOtherMs: 10_000,
  batchSize: 10,
};

export type SendOutcome =
  | { status: 'sent' | 'already-sent'; hpOrderId: string | null; outboxId: number }
  | { status: 'queued'; outboxId: number; error?: string; nextAttemptAt?: string }
  | { status: 'failed'; outboxId: number; error: string; errorMes?: unknown };

/** A failure before or at the provider: `permanent` is not retried. */
class SendFailure extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));


/** Line send refused: the whole order's failed send may be at HP all the same. */
export const MAYBE_AT_PROVIDER_WHOLE =
  'HP Site Flow may already have this order: a send of the whole order got no answer before it failed. Send the whole order again (HP refuses a repeat, so nothing prints twice) instead of this line on its own';

/** A row whose calls all failed, but one went unanswered (timeout, lost connection, 5xx), is carried in its result. */
function wasUnanswered(row: OutboxRow): boolean {
  return (row.result as { unanswered?: unknown } | null)?.unanswered === true;
}

/** Sent, still going, or failed after an unanswered call: the provider may hold it. */
export function mayBeAtProvider(row: OutboxRow): boolean {
  return row.status !== 'failed' || wasUnanswered(row);
}

/** The details stored with a failed attempt, keeping "a call went unanswered" from earlier attempts. */
function withUnanswered(row: OutboxRow, details: unknown, unanswered: boolean): unknown {
  const base = details && typeof details === 'object' && !Array.isArray(details) ? (details as Record<string, unknown>) : details == null ? {} : { details };
  return unanswered || wasUnanswered(row) ? { ...base, unanswered: true } : (details ?? null);
}

/** `inbox`: where postbacks are stored and applied (default: an inbox of its own). */
export function fulfilmentService(deps: Deps, production: ProductionService, initial: Partial<FulfilmentOptions> = {}, inbox: Inbox = createInbox(deps)) {
  const { db, clock, config, log } = deps;
  // OUTBOX_LEASE_SECONDS / OUTBOX_RETRY_BASE_SECONDS (config.outbox) set the lease and the first retry delay.
  const fromConfig: Partial<FulfilmentOptions> = config.outbox
    ? { leaseMs: config.outbox.leaseSeconds * 1000, backoff: { baseMs: config.outbox.retryBaseSeconds * 1000, maxMs: DEFAULT_OPTIONS.backoff.maxMs } }
    : {};
  const options: FulfilmentOptions = { ...DEFAULT_OPTIONS, ...fromConfig, ...initial };
  const records = generalDataRepo(db);
  const sites = sitesRepo(db);
  const outbox = outboxRepo(db);

  const nowIso = () => isoNow(clock);
  const later = (ms: number) => new Date(clock.now().getTime() + ms).toISOString();

  function clientFor(settings: HpSettings) {
    return createHpClient({
      baseUrl: settings.baseUrl,
      key: settings.key,
      secret: settings.secret,
      clock,
      fetchImpl: options.fetchImpl,
      retry: options.retry,
      sleep: options.sleep,
      timeoutMs: options.timeoutMs,
      onRetry: ({ attempt, delayMs, error }) => log.warn({ attempt, delayMs, status: error.status, code: error.code }, 'HP Site Flow call failed; retrying'),
    });
  }

  async function siteSettings(siteId: number): Promise<{ site: Site; settings: HpSettings }> {
    const site = await sites.byId(siteId);
    if (!site) throw new SendFailure('The site of this order no longer exists', true);
    const { settings, missing } = hpSettingsOf(site.settings.env);
    if (missing.length) throw new SendFailure(`HP Site Flow is not set up for site "${site.name}": set ${missing.join(', ')} in its settings`, true);
    return { site, settings };
  }

  // --- orders ---------------------------------------------------------------------------

  /** The order record of a store order id (newest when several), in one site or any. */
  async function findOrder(orderId: string, siteId?: number, trx: Db | Knex.Transaction = db): Promise<DataRecord<StoreOrder> | undefined> {
    return (await orderTablesRepo(trx).newestOrder(orderId, siteId)) as DataRecord<StoreOrder> | undefined;
  }

  /** send-hp's `id`/`orderId`: a store order id (or the order record's id), within what the actor may see. */
  async function resolveOrder(actor: Actor, ref: string, siteId?: number): Promise<DataRecord<StoreOrder>> {
    if (siteId !== undefined && !isAdmin(actor) && siteId !== actor.siteId) throw forbidden('You cannot send orders of another site');
    const scope = isAdmin(actor) ? siteId : actor.siteId;
    let order = await findOrder(ref, scope);
    if (!order && /^[1-9]\d{0,9}$/.test(ref) && Number(ref) <= 2_147_483_647) {
      const byId = await orderTablesRepo(db).orderById(Number(ref));
      if (byId && (scope === undefined || byId.siteId === scope)) order = byId as DataRecord<StoreOrder>;
    }
    if (!order) throw notFound('Order not found');
    return order;
  }

  interface Prepared {
    body: HpOrderBody;
    items: PreGeneratedItem[];
    skipped: Array<{ lineId: string; reason: string }>;
    settings: HpSettings;
  }

  /** Outbox rows of single-line sends of an order (dedupe keys hp:<site>:<order>:<line>, a key range). */
  async function lineRowsOf(trx: Db | Knex.Transaction, siteId: number, orderId: string): Promise<OutboxRow[]> {
    const prefix = `${hpDedupeKey(siteId, orderId)}:`;
    const rows = await trx('outbox')
      .where({ kind: HP_ORDER_KIND, site_id: siteId })
      .where('dedupe_key', '>=', prefix)
      .where('dedupe_key', '<', `${prefix.slice(0, -1)};`)
      .orderBy('id');
    return rows.map(outboxFromRow).filter((r) => r.payload.orderId === orderId && r.payload.lineId);
  }

  /**
   * Lines of an order with a single-line send that is sent, still going, or failed after a call whose
   * answer never came (HP may have it): a whole-order send must leave them out.
   */
  async function linesSentOnTheirOwn(trx: Db | Knex.Transaction, siteId: number, orderId: string): Promise<Map<string, string>> {
    const rows = (await lineRowsOf(trx, siteId, orderId)).filter(mayBeAtProvider);
    return new Map(rows.map((r) => [r.payload.lineId!, r.status === 'failed' ? 'its own send got no answer, so HP may have it: send the line again on its own' : 'sent on its own (send-hp-single-line)']));
  }

  /** Everything before the provider call: settings, the order, its lines' designs and print files, the body. */
  async function prepare(row: OutboxRow): Promise<Prepared> {
    const { siteId, orderId, lineId, actorId } = row.payload;
    const { settings } = await siteSettings(siteId);
    const order = await findOrder(orderId, siteId);
    if (!order) throw new SendFailure(`Order ${orderId} not found`, true);
    const data = order.data;
    if (!shipToOf(data)) throw new SendFailure('The order has no shipping address', true);
    const allLines = Array.isArray(data.line_items) ? data.line_items : [];
    // A whole-order send leaves out the lines sent (or being sent) on their own: one print per line.
    const ownSends = lineId ? new Map<string, string>() : await linesSentOnTheirOwn(db, siteId, orderId);
    const lines = lineId ? allLines.filter((l) => text(l.id) === lineId) : allLines.filter((l) => !ownSends.has(text(l.id)));
    if (lineId && !lines.length) throw new SendFailure(`Line ${lineId} is not in order ${orderId}`, true);
    const sourceOrderId = sourceOrderIdOf(orderId, lineId);
    const mapped: MappedLine[] = [];
    const skipped: Array<{ lineId: string; reason: string }> = [...ownSends].map(([id, reason]) => ({ lineId: id, reason }));
    const items: PreGeneratedItem[] = [];
    const mappings = await production.mapLines(siteId, { line_items: lines });
    for (const m of mappings) {
      const { line } = m;
      const id = text(line.id);
      const reason = providerBlocker(m);
      const design = m.design;
      if (reason || !design?.hpSKU) {
        skipped.push({ lineId: id, reason: reason ?? 'no design' });
        continue;
      }
      let pdfUrl: string;
      let printJobId: number;
      try {
        // The line's own job: personalised with the line's properties, the file the operators see.
        const { job } = await production.jobForLine({ siteId, orderId, line, design, actorId, madeBy: 'provider' });
        if (job.madeBy === 'inHouse') {
          // Queued here after the send was asked for: an untouched job moves to the provider; one
          // being printed here stays, and the line is left out rather than made twice.
          if (job.isPDFDownloaded || job.isPrinted) {
            skipped.push({ lineId: id, reason: `it is being printed in house (job #${job.id}); send it again to choose` });
            continue;
          }
          await production.moveToProvider(job, actorId);
        }
        pdfUrl = await production.printFileUrl(job);
        printJobId = job.id;
      } catch (err) {
        if (err instanceof HttpError) throw new SendFailure(`Line ${id}: ${err.message}`, err.status < 500);
        throw err;
      }
      const quantity = Math.max(1, Math.floor(Number(line.quantity) || 1));
      mapped.push({ line, lineId: id, hpSKU: design.hpSKU, quantity, pdfUrl, hpAdditionData: design.hpAdditionData });
      items.push({ lineId: id, sourceOrderId, sourceItemId: id, sku: design.hpSKU, quantity, path: pdfUrl, printJobId, hpOrderId: null, sentAt: '' });
    }
    if (!mapped.length) {
      const why = skipped.map((s) => `line ${s.lineId}: ${s.reason}`).join('; ');
      throw new SendFailure(lineId ? `This line cannot be sent to HP (${why})` : `No line of this order can be sent to HP${why ? ` (${why})` : ''}`, true, { skipped });
    }
    const body = buildOrderBody({ sourceOrderId, order: data, lines: mapped, settings });
    return { body, items, skipped, settings };
  }

  // --- the outbox ----------------------------------------------------------------------

  /**
   * Claims a row: one atomic UPDATE that only succeeds while the row is pending and not leased
   * (or its lease has run out). `force` ignores next_attempt_at (an explicit click).
   */
  async function claim(id: number, force: boolean): Promise<OutboxRow | undefined> {
    const at = nowIso();
    const q = db('outbox')
      .where({ id, status: 'pending' })
      .where((w) => w.whereNull('locked_until').orWhere('locked_until', '<', at));
    if (!force) q.where('next_attempt_at', '<=', at);
    const n = await q.update({ locked_until: later(options.leaseMs), attempts: db.raw('attempts + 1'), updated_at: at });
    return n === 1 ? outbox.byId(id) : undefined;
  }

  /** Locks an order record for a read-modify-write of its JSON (PostgreSQL; SQLite has one writer). */
  async function lockedOrder(trx: Knex.Transaction, id: number): Promise<DataRecord<StoreOrder> | undefined> {
    return (await orderTablesRepo(trx).orderById(id, true)) as DataRecord<StoreOrder> | undefined;
  }

  async function writeSendLog(trx: Knex | Knex.Transaction, r: { siteId: number; orderId: string; lineId: string | null; status: 'sent' | 'failed'; data: Record<string, unknown>; userId: number | null }) {
    const at = nowIso();
    await orderTablesRepo(trx).insertProviderSend({
      orderId: r.orderId,
      field2: r.lineId ?? '',
      name: 'send',
      status: r.status,
      data: r.data,
      siteId: r.siteId,
      userId: r.userId,
      createdAt: at,
      updatedAt: at,
    });
  }

  async function markSent(row: OutboxRow, prepared: Prepared, answer: unknown, duplicate: boolean): Promise<SendOutcome> {
    const { siteId, orderId, lineId, actorId } = row.payload;
    const hpOrderId = duplicate ? null : text((answer as HpOrderAnswer)?.order?._id) || null;
    const at = nowIso();
    return db.transaction(async (trx) => {
      const n = await trx('outbox')
        .where({ id: row.id, status: 'pending' })
        .update({ status: 'sent', result: toJson({ hpOrderId, duplicate, answer }), error: null, locked_until: null, updated_at: at });
      if (n !== 1) return outcomeOf(outboxFromRow(await trx('outbox').where({ id: row.id }).first()));
      await writeSendLog(trx, {
        siteId,
        orderId,
        lineId,
        status: 'sent',
        data: { sentData: prepared.body, results: answer, attempts: row.attempts, duplicate, skipped: prepared.skipped, outboxId: row.id },
        userId: actorId,
      });
      const order = await findOrder(orderId, siteId, trx);
      const locked = order && (await lockedOrder(trx, order.id));
      let knownId = hpOrderId;
      if (locked) {
        const data = { ...locked.data };
        const previous = Array.isArray(data.preGeneratedHPItems) ? data.preGeneratedHPItems : [];
        // A duplicate answer carries no provider id: keep the one we knew, if any.
        knownId = hpOrderId ?? (text(data.hpOrderId) || null);
        const items = prepared.items.map((i) => ({ ...i, hpOrderId: hpOrderId ?? previous.find((p) => p.lineId === i.lineId)?.hpOrderId ?? knownId, sentAt: at }));
        data.preGeneratedHPItems = [...previous.filter((p) => !items.some((i) => i.lineId === p.lineId)), ...items];
        if (hpOrderId) data.hpOrderId = hpOrderId;
        const hpOrders = { ...((data.hpOrders as Record<string, unknown>) ?? {}) };
        hpOrders[prepared.body.orderData.sourceOrderId] = { hpOrderId: knownId, lineId, sentAt: at };
        data.hpOrders = hpOrders;
        const next = nextOrderStatus(locked.status ?? text(data.status), 'sent', text(data.hpProgress) || null);
        if (next) data.status = next;
        data.hpProgress = highestProgress(text(data.hpProgress) || null, 'sent');
        await orderTablesRepo(trx).updateOrder(locked.id, { data, status: next ?? undefined, before: locked.data, updatedAt: at });
      }
      return { status: duplicate ? 'already-sent' : 'sent', hpOrderId: knownId, outboxId: row.id } as SendOutcome;
    });
  }

  async function markFailed(row: OutboxRow, error: string, details: unknown, sentData: unknown, unanswered = false): Promise<SendOutcome> {
    const { siteId, orderId, lineId, actorId } = row.payload;
    const at = nowIso();
    return db.transaction(async (trx) => {
      const n = await trx('outbox')
        .where({ id: row.id, status: 'pending' })
        .update({ status: 'failed', result: toJson(withUnanswered(row, details, unanswered)), error, locked_until: null, updated_at: at });
      if (n !== 1) return outcomeOf(outboxFromRow(await trx('outbox').where({ id: row.id }).first()));
      await writeSendLog(trx, { siteId, orderId, lineId, status: 'failed', data: { sentData: sentData ?? null, results: details ?? { error }, error, attempts: row.attempts, outboxId: row.id }, userId: actorId });
      return { status: 'failed', error, errorMes: details, outboxId: row.id } as SendOutcome;
    });
  }

  async function reschedule(row: OutboxRow, error: string, details: unknown, sentData: unknown, unanswered = false): Promise<SendOutcome> {
    if (row.attempts >= options.maxAttempts) return markFailed(row, `${error} (gave up after ${row.attempts} attempts)`, details, sentData, unanswered);
    const cap = Math.min(options.backoff.maxMs, options.backoff.baseMs * 2 ** Math.max(0, row.attempts - 1));
    const delay = Math.floor(cap / 2 + (Math.random() * cap) / 2);
    const next = later(delay);
    await db('outbox')
      .where({ id: row.id, status: 'pending' })
      .update({ error, result: toJson(withUnanswered(row, details, unanswered)), next_attempt_at: next, locked_until: null, updated_at: nowIso() });
    return { status: 'queued', outboxId: row.id, error, nextAttemptAt: next };
  }

  /** One attempt of a claimed row. */
  async function attempt(row: OutboxRow): Promise<SendOutcome> {
    let prepared: Prepared | undefined;
    try {
      prepared = await prepare(row);
      const answer = await clientFor(prepared.settings).submitOrder(prepared.body);
      return await markSent(row, prepared, answer, false);
    } catch (err) {
      if (err instanceof HpDuplicateOrder && prepared) return markSent(row, prepared, { success: false, error: { message: err.message, code: err.code, validations: err.validations } }, true);
      if (err instanceof HpError) {
        const details = { status: err.status, code: err.code, message: err.message, validations: err.validations, answer: err.body ?? null };
        // No answer (timeout, connection lost) or a 5xx: HP may have taken the order all the same.
        const unanswered = err.status === 0 || err.status >= 500;
        if (err.retryable) return reschedule(row, err.message, details, prepared?.body, unanswered);
        return markFailed(row, err.message, details, prepared?.body, unanswered);
      }
      if (err instanceof SendFailure) {
        if (err.permanent) return markFailed(row, err.message, err.details ?? { message: err.message }, prepared?.body);
        return reschedule(row, err.message, err.details ?? { message: err.message }, prepared?.body);
      }
      log.error({ err, outboxId: row.id }, 'HP send failed unexpectedly');
      return reschedule(row, `Unexpected error: ${(err as Error).message}`, null, prepared?.body, prepared !== undefined);
    }
  }

  function outcomeOf(row: OutboxRow): SendOutcome {
    if (row.status === 'sent') {
      const r = row.result as { hpOrderId?: string | null } | null;
      return { status: 'already-sent', hpOrderId: r?.hpOrderId ?? null, outboxId: row.id };
    }
    if (row.status === 'failed') return { status: 'failed', error: row.error ?? 'The send failed', errorMes: row.result ?? undefined, outboxId: row.id };
    return { status: 'queued', outboxId: row.id, error: row.error ?? undefined, nextAttemptAt: row.nextAttemptAt };
  }

  /** One attempt now (an explicit send). Another sender holding the row: wait for it, then answer its outcome. */
  async function sendNow(outboxId: number): Promise<SendOutcome> {
    const claimed = await claim(outboxId, true);
    if (claimed) return attempt(claimed);
    const deadline = Date.now() + options.waitForOtherMs;
    for (;;) {
      const row = await outbox.byId(outboxId);
      if (!row) throw notFound('Outbox entry not found');
      if (row.status !== 'pending') return outcomeOf(row);
      if (!row.lockedUntil || row.lockedUntil < nowIso()) {
        const again = await claim(outboxId, true);
        if (again) return attempt(again);
      }
      if (Date.now() >= deadline) return outcomeOf(row);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** The worker's pass: every due, unleased row, claimed one by one. */
  async function processDue(): Promise<{ claimed: number; outcomes: SendOutcome[] }> {
    const at = nowIso();
    const due = (await db('outbox')
      .where({ kind: HP_ORDER_KIND, status: 'pending' })
      .where('next_attempt_at', '<=', at)
      .where((w) => w.whereNull('locked_until').orWhere('locked_until', '<', at))
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(options.batchSize)
      .select('id')) as Array<{ id: number }>;
    const outcomes: SendOutcome[] = [];
    for (const { id } of due) {
      const row = await claim(Number(id), false);
      if (row) outcomes.push(await attempt(row));
    }
    return { claimed: outcomes.length, outcomes };
  }

  // --- send-hp, send-hp-single-line ------------------------------------------------------

  /** `sendFromJobs`: the operator's yes to sending lines that are queued (or printed) in house. */
  async function sendOrder(actor: Actor, input: { orderRef: string; lineId?: string; siteId?: number; sendFromJobs?: boolean }): Promise<SendOutcome> {
    const order = await resolveOrder(actor, input.orderRef, input.siteId);
    const orderId = order.field1 ?? text(order.data.id);
    if (input.lineId && !(order.data.line_items ?? []).some((l) => text(l.id) === input.lineId)) throw notFound('Line item not found in this order');
    // Under the order's lock (PostgreSQL; SQLite has one writer): a line is in one provider order
    // only — the whole order's, or its own. A line send while the whole order's send is sent or
    // going answers that send; a whole-order send leaves out lines sent on their own.
    const row = await db.transaction(async (trx) => {
      await lockedOrder(trx, order.id);
      const whole = await outboxRepo(trx).byKey(hpDedupeKey(order.siteId, orderId));
      if (input.lineId && whole && whole.status !== 'failed') return whole;
      // The whole order's send failed, but one of its calls went unanswered: HP may hold the order
      // with this line in it. Sending the line on its own (another source order id) could print it twice.
      if (input.lineId && whole && mayBeAtProvider(whole)) throw conflict(MAYBE_AT_PROVIDER_WHOLE);
      if (!input.lineId && !whole) {
        const own = (await lineRowsOf(trx, order.siteId, orderId)).filter(mayBeAtProvider);
        const lineIds = (order.data.line_items ?? []).map((l) => text(l.id));
        if (own.length && lineIds.every((id) => own.some((r) => r.payload.lineId === id))) return own.find((r) => r.status !== 'sent') ?? own[0];
      }
      // A line is made in one place: lines in the Jobs queue go only on the operator's yes.
      if (!whole || whole.status === 'failed') await production.takeLinesFromQueue(trx, order.siteId, orderId, input.lineId ? [input.lineId] : undefined, actor.id, input.sendFromJobs === true);
      const [queued] = await enqueueOrderSend(trx, { siteId: order.siteId, orderId, lineIds: input.lineId ? [input.lineId] : undefined }, actor.id, clock.now());
      if (queued.status === 'failed') {
        // A failed send is tried again when asked explicitly (after the design or settings were fixed).
        await trx('outbox').where({ id: queued.id, status: 'failed' }).update({ status: 'pending', attempts: 0, locked_until: null, next_attempt_at: nowIso(), updated_at: nowIso() });
        return { ...queued, status: 'pending' };
      }
      return queued;
    });
    if (row.status === 'sent') return outcomeOf(row);
    return sendNow(row.id);
  }

  // --- the manual send -------------------------------------------------------------------

  async function manualSend(actor: Actor, input: ManualInput & { siteId?: number }): Promise<{ ok: boolean; status: number; answer: unknown; error?: string; errorMes?: unknown }> {
    const siteId = input.siteId ?? actor.siteId;
    if (siteId !== actor.siteId && !isAdmin(actor)) throw forbidden('You cannot send with the settings of another site');
    let settings: HpSettings;
    try {
      ({ settings } = await siteSettings(siteId));
    } catch (err) {
      if (err instanceof SendFailure) throw badRequest(err.message);
      throw err;
    }
    const body = buildManualBody(input, settings);
    const orderId = text(input.orderData.sourceOrderId);
    let result: { ok: boolean; status: number; answer: unknown; error?: string; errorMes?: unknown };
    try {
      const answer = await clientFor(settings).submitOrder(body);
      result = { ok: true, status: 200, answer };
    } catch (err) {
      if (!(err instanceof HpError)) throw err;
      const answer = err.body ?? { success: false, error: { message: err.message, code: err.code, validations: err.validations } };
      result = { ok: false, status: err.status >= 400 && err.status < 500 && err.status !== 429 ? 422 : 502, answer, error: err.message, errorMes: { status: err.status, code: err.code, validations: err.validations } };
    }
    await writeSendLog(db, {
      siteId,
      orderId,
      lineId: null,
      status: result.ok ? 'sent' : 'failed',
      data: { sentData: body, results: result.answer, attempts: 1, manual: true, ...(result.error ? { error: result.error } : {}) },
      userId: actor.id,
    });
    return result;
  }

  // --- postbacks -------------------------------------------------------------------------

  /** Is this caller the provider of `slug`? (the site's HP_POSTBACK_TOKEN, compared timing-safe) */
  async function postbackSite(slug: string | undefined, token: string | undefined): Promise<Site> {
    const site = slug ? await sites.bySlug(slug) : undefined;
    const expected = site ? hpSettingsOf(site.settings.env).settings.postbackToken : '';
    const a = crypto.createHash('sha256').update(`hp-postback\n${expected}`).digest();
    const b = crypto.createHash('sha256').update(`hp-postback\n${token ?? ''}`).digest();
    const same = crypto.timingSafeEqual(a, b);
    if (!site || !expected || !token || !same) throw unauthorized('Invalid postback token');
    return site;
  }

  /** Store order id (+ line id) of a provider sourceOrderId: `<order>` or `<order>-<line>`. */
  async function orderOfSource(siteId: number, sourceOrderId: string, trx: Knex.Transaction) {
    const whole = await findOrder(sourceOrderId, siteId, trx);
    if (whole) return { order: whole, orderId: sourceOrderId, lineId: null as string | null };
    const cut = sourceOrderId.lastIndexOf('-');
    if (cut > 0) {
      const orderId = sourceOrderId.slice(0, cut);
      const order = await findOrder(orderId, siteId, trx);
      if (order) return { order, orderId, lineId: sourceOrderId.slice(cut + 1) };
    }
    return { order: undefined, orderId: sourceOrderId, lineId: null };
  }

  type PostbackAnswer = { duplicate: boolean; orderStatus: string | null; found: boolean };

  /** A postback: stored once in the inbox (a repeat is a duplicate) and applied before the answer, which says what it did. */
  async function receivePostback(site: Site, body: PostbackBody): Promise<PostbackAnswer> {
    const eventId = crypto.createHash('sha256').update(JSON.stringify([body.sourceOrderId, body.event, body.status, body.timestamp])).digest('hex');
    const out = await inbox.receiveNow<PostbackAnswer>({
      source: HP_SOURCE,
      eventId,
      deliveryId: body.orderId ? text(body.orderId).slice(0, 128) : null,
      siteId: site.id,
      topic: text(body.event).slice(0, 64),
      payload: body,
      status: 'received',
      receivedAt: nowIso(),
    });
    if (out.duplicate) return { duplicate: true, orderStatus: null, found: false };
    return out.answer ?? { duplicate: false, orderStatus: null, found: false };
  }

  // The inbox handler of postbacks: the event's log record and the order's update, in the
  // transaction that claimed the delivery.
  inbox.register({
    source: HP_SOURCE,
    mode: 'transaction',
    async apply(trx, delivery): Promise<Handled<PostbackAnswer>> {
      const body = delivery.payload as PostbackBody;
      const site = delivery.siteId === null ? undefined : await sitesRepo(trx).byId(delivery.siteId);
      if (!site) throw new Error('The postback has no site (the site was deleted)');
      const at = nowIso();
      const { order, orderId, lineId } = await orderOfSource(site.id, body.sourceOrderId, trx);
      const carrier = body.shipment?.carrier;
      const trackingNumber = text(body.shipment?.trackingNumber) || null;
      const shippingMethod = text(carrier?.service) || text(carrier?.alias) || text(carrier?.code) || null;
      await orderTablesRepo(trx).insertProviderEvent({
        orderId,
        field2: text(body.orderId) || null,
        name: text(body.event).slice(0, 255),
        status: text(body.status).slice(0, 32),
        data: {
          timestamp: body.timestamp,
          status: body.status,
          shopifyOrderId: orderId,
          trackingNumber,
          shippingMethod,
          event: body.event,
          sourceOrderId: body.sourceOrderId,
          lineId,
          raw: body,
        },
        siteId: site.id,
        userId: null,
        createdAt: at,
        updatedAt: at,
      });
      if (!order) return { note: `No order ${orderId} in site ${site.slug}`, answer: { duplicate: false, orderStatus: null, found: false } };
      const locked = (await lockedOrder(trx, order.id))!;
      const data = { ...locked.data };
      const current = locked.status ?? (text(data.status) || null);
      const next = nextOrderStatus(current, text(body.status), text(data.hpProgress) || null);
      if (next) data.status = next;
      data.hpProgress = highestProgress(text(data.hpProgress) || null, text(body.status));
      // Tracking is kept: a later postback without it never erases it.
      if (trackingNumber || body.shipment?.trackingUrl) {
        const prev = data.tracking ?? {};
        data.tracking = { number: trackingNumber ?? prev.number ?? null, method: shippingMethod ?? prev.method ?? null, url: text(body.shipment?.trackingUrl) || prev.url || null };
      }
      if (body.orderId && !data.hpOrderId) data.hpOrderId = text(body.orderId);
      const hpOrders = { ...((data.hpOrders as Record<string, Record<string, unknown>>) ?? {}) };
      const entry = hpOrders[body.sourceOrderId] ?? {};
      const entryNext = nextOrderStatus(text(entry.status) || null, text(body.status), text(entry.progress) || null);
      hpOrders[body.sourceOrderId] = {
        ...entry,
        hpOrderId: entry.hpOrderId ?? (text(body.orderId) || null),
        lineId,
        status: entryNext ?? entry.status ?? null,
        progress: highestProgress(text(entry.progress) || null, text(body.status)),
        ...(trackingNumber ? { trackingNumber } : {}),
      };
      data.hpOrders = hpOrders;
      await orderTablesRepo(trx).updateOrder(locked.id, { data, status: next ?? undefined, before: locked.data, updatedAt: at });
      return { answer: { duplicate: false, orderStatus: next ?? current, found: true } };
    },
  });

  // --- provider events screens --------------------------------------------------------------

  function scopeOf(actor: Actor, siteId: number | undefined): number | undefined {
    if (siteId !== undefined && !isAdmin(actor) && siteId !== actor.siteId) throw forbidden('You can only see the provider events of your own site');
    return isAdmin(actor) ? siteId : actor.siteId;
  }

  async function listEvents(actor: Actor, q: { page?: number; pageSize?: number; siteId?: number; orderId?: string; status?: string }): Promise<Page<DataRecord>> {
    const w = pageWindow(q.page, q.pageSize);
    const filter: RecordFilter = { type: HP_LOG, siteId: scopeOf(actor, q.siteId), field1: q.orderId, status: q.status };
    const { rows, total } = await records.list(filter, { field: 'createdAt', order: 'desc' }, w.limit, w.offset);
    return { list: rows, hasNext: w.offset + rows.length < total, total };
  }

  async function orderDetail(actor: Actor, orderId: string, siteId?: number) {
    const scope = scopeOf(actor, siteId);
    const order = await findOrder(orderId, scope);
    const site = order?.siteId ?? scope;
    const all = async (type: string) =>
      (await records.list({ type, field1: orderId, siteId: site }, { field: 'createdAt', order: 'desc' }, 500, 0)).rows;
    const [events, sent] = await Promise.all([all(HP_LOG), all(SEND_LOG)]);
    if (!order && !events.length && !sent.length) throw notFound('Order not found');
    const preGenerated = Array.isArray(order?.data.preGeneratedHPItems) ? order!.data.preGeneratedHPItems : [];
    const jobs = order ? await printJobsRepo(db).ofOrder(order.siteId, orderId) : [];
    const lines = await Promise.all(
      (order?.data.line_items ?? []).map(async (l) => {
        const lineId = text(l.id);
        const job = jobs.find((j) => j.lineItemId === lineId);
        const design = order ? ((await production.designForLine(order.siteId, l)).design ?? undefined) : undefined;
        return {
          lineId,
          sku: l.sku ?? null,
          quantity: l.quantity ?? null,
          productName: text(l.name) || text(l.title) || job?.productName || design?.name || '',
          productId: l.product_id === undefined || l.product_id === null ? (job?.productId ?? null) : text(l.product_id),
          previewUrl: job?.previewUrl ?? design?.image ?? null,
          pdfUrl: preGenerated.find((p) => p.lineId === lineId)?.path ?? null,
          printJobId: job?.id ?? null,
          // Where the line is made: the provider, the Jobs queue, or not decided yet (no job).
          madeBy: job?.madeBy ?? null,
          hpSKU: design?.hpSKU ?? null,
        };
      }),
    );
    return { order: order ?? null, lines, events, sent };
  }

  /** /api/admin/hp-logs: the provider events (hp-log; `filter.type` = shopify-hp-log lists the sends). */
  async function adminLogs(actor: Actor, filter: RecordFilter, sort: { field: RecordSortField; order: 'asc' | 'desc' }, limit: number, offset: number) {
    const type = filter.type === SEND_LOG ? SEND_LOG : HP_LOG;
    return records.list({ ...filter, type, siteId: isAdmin(actor) ? filter.siteId : actor.siteId }, sort, limit, offset);
  }

  async function adminLog(actor: Actor, id: number) {
    const r = await records.byId(id);
    if (!r || (r.type !== HP_LOG && r.type !== SEND_LOG) || (!isAdmin(actor) && r.siteId !== actor.siteId)) throw notFound('Record not found');
    return r;
  }

  return {
    /** Queue the provider send in the caller's transaction (dedupe key hp:<siteId>:<orderId>[:<lineId>]); answers the rows (existing ones when already queued). */
    enqueueOrderSend: (trx: Knex | Knex.Transaction, input: EnqueueOrderSend, actorId?: number | null): Promise<OutboxRow[]> => enqueueOrderSend(trx, input, actorId, clock.now()),
    sendNow,
    processDue,
    sendOrder,
    manualSend,
    postbackSite,
    receivePostback,
    listEvents,
    orderDetail,
    adminLogs,
    adminLog,
    findOrder,
    /** Tests and main.ts: change timing and the provider's HTTP. */
    configure(next: Partial<FulfilmentOptions>) {
      Object.assign(options, next);
    },
    options,
  };
}

export type FulfilmentService = ReturnType<typeof fulfilmentService>;

/** Runs processDue every intervalMs (no overlapping passes). */
export function startOutboxWorker(service: Pick<FulfilmentService, 'processDue'>, opts: { intervalMs?: number; log?: Deps['log'] } = {}) {
  let running = false;
  let stopped = false;
  const tick = async () => {
    if (running || stopped) return;
    running = true;
    try {
      await service.processDue();
    } catch (err) {
      opts.log?.error({ err }, 'outbox worker pass failed');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), opts.intervalMs ?? 5_000);
  timer.unref();
  void tick();
  return {
    tick,
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
