// The inbox: every inbound webhook (store orders, provider postbacks, CRM changes) is stored once
// (deduplicated by its event id in the storing statement), answered, claimed so that one instance
// processes it, processed by its source's handler, and retried by one recovery pass if that fails.
import type { Knex } from 'knex';
import type { Deps } from '../../deps';
import { deferredCommitSync, isPostgres, storageFault } from '../../db';
import { ageSeconds, isoNow } from '../../lib/clock';
import type { InboxBacklog } from '../../lib/metrics';
import { inboxRepo, type Delivery, type NewDelivery } from './repo';

export type { Delivery, NewDelivery } from './repo';

/** What a handler may tell the inbox: a note kept on the delivery (an unknown order), the caller's answer. */
export interface Handled<R = unknown> {
  note?: string | null;
  answer?: R;
}

/**
 * How one source's deliveries are processed, registered by the module that owns the source.
 * - 'transaction': applied inside the transaction that claimed the delivery and marks it processed
 *   (a throw rolls all of it back). `applyBatch` takes several of the source's deliveries at once.
 * - 'lease': processed outside a transaction (it calls other services) while the inbox holds a
 *   lease on the delivery; a throw marks it failed.
 */
export type InboxHandler =
  | {
      source: string;
      mode: 'transaction';
      apply(trx: Knex.Transaction, delivery: Delivery): Promise<Handled | void>;
      applyBatch?(trx: Knex.Transaction, deliveries: Delivery[]): Promise<void>;
    }
  | {
      source: string;
      mode: 'lease';
      process(delivery: Delivery): Promise<Handled | void>;
    };

export type ProcessOutcome = 'processed' | 'skipped' | 'failed';

/** A failed delivery is tried again by the recovery pass until it has failed this many times. */
export const MAX_DELIVERY_ATTEMPTS = 10;
export const RECOVERY_INTERVAL_MS = 60_000;
/** Deliveries one recovery pass takes (passes follow each other while they find a full batch). */
export const RECOVERY_BATCH = 500;
/**
 * Most deliveries processed in one transaction. SQLite: 32, as its statements hold the event loop
 * and webhooks wait to be answered meanwhile. PostgreSQL: 64, as a batch's statements are about as
 * many for 64 as for 32 (each order's reads and writes go together): half the round trips a burst.
 */
export const PROCESS_BATCH_MAX = 32;
export const PROCESS_BATCH_MAX_PG = 64;
/**
 * Batches processed at once on PostgreSQL (each its own transaction on its own pool connection;
 * orders are locked per order, so two batches touching one order take turns). Under a sale one
 * batch at a time left the database waiting on each round trip and fell behind the webhooks
 * answered; SQLite has one connection, so one batch.
 */
export const PROCESS_PARALLEL = 3;
/** Most deliveries stored by one INSERT, and how many such INSERTs may run at once on PostgreSQL. */
export const STORE_GROUP_MAX = 100;
export const STORE_PARALLEL = 4;
/** How long a leased delivery is ours; longer than one processing can take (retries with backoff included). */
export const LEASE_MS = 5 * 60_000;

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

export function createInbox(deps: Pick<Deps, 'db' | 'clock' | 'log' | 'metrics'>) {
  const { db, clock, log, metrics } = deps;
  const handlers = new Map<string, InboxHandler>();

  /** A module's handler of its source (registering the source again replaces it). */
  function register(handler: InboxHandler): void {
    handlers.set(handler.source, handler);
  }

  const inFlight = new Set<Promise<unknown>>();
  function track<T>(p: Promise<T>): Promise<T> {
    inFlight.add(p);
    void p.then(
      () => inFlight.delete(p),
      () => inFlight.delete(p),
    );
    return p;
  }

  /** Waits until every processing started so far has finished (tests, graceful shutdown). */
  async function idle(): Promise<void> {
    while (inFlight.size) await Promise.allSettled([...inFlight]);
  }

  // -------------------------------------------------------------------------------------------
  // Store. Deliveries arriving together are stored by one INSERT (one commit: SQLite writes the
  // shared pages to its log once, PostgreSQL flushes once); each answer still waits for the commit
  // of the statement holding its row. SQLite has one connection, so one statement at a time and the
  // next group gathers meanwhile (its fsync too, off the main thread: db.ts deferredCommitSync);
  // PostgreSQL runs up to STORE_PARALLEL groups on its pool.

  const toStore: Array<{ d: NewDelivery; resolve: (id: number | undefined) => void; reject: (err: unknown) => void }> = [];
  const storeParallel = isPostgres(db) ? STORE_PARALLEL : 1;
  // SQLite (synchronous=FULL): the commit's fsync runs off the main thread, before the answers.
  const commitSync = deferredCommitSync(db);
  let storing = 0;
  let storeScheduled = false;

  /** Counts a delivery that reached the inbox: `id` undefined when its event id was known. */
  function arrived(d: NewDelivery, id: number | undefined): number | undefined {
    metrics?.webhookReceived(d.source, id === undefined ? 'duplicate' : d.status === 'ignored' ? 'ignored' : 'stored');
    return id;
  }

  /** Stores a delivery unless its event id is known: answers its id, or undefined for a duplicate. */
  function store(d: NewDelivery): Promise<number | undefined> {
    return new Promise<number | undefined>((resolve, reject) => {
      toStore.push({ d, resolve, reject });
      scheduleStore();
    }).then((id) => arrived(d, id));
  }

  function scheduleStore(): void {
    if (storeScheduled || storing >= storeParallel || !toStore.length) return;
    storeScheduled = true;
    setImmediate(() => {
      storeScheduled = false;
      if (storing >= storeParallel || !toStore.length) return;
      const group = toStore.splice(0, STORE_GROUP_MAX);
      storing++;
      void storeGroup(group).finally(() => {
        storing--;
        scheduleStore();
      });
      scheduleStore();
    });
  }

  async function storeGroup(group: typeof toStore): Promise<void> {
    if (commitSync) {
      try {
        const ids = await commitSync.write((conn) => inboxRepo(db).insertMany(group.map((g) => g.d), conn));
        // Answered once on disk, duplicates too (the first copy may be in this commit). The thread
        // serves meanwhile, and the next group gathers until the fsync is done.
        await commitSync.sync().then(
          () => group.forEach((g, i) => g.resolve(ids[i])),
          (err: unknown) => group.forEach((g) => g.reject(err)),
        );
        return;
      } catch (err) {
        if (group.length > 1) log.warn({ err, deliveries: group.length }, 'storing webhook deliveries together failed; storing them one by one');
      }
    } else if (group.length > 1) {
      try {
        const ids = await inboxRepo(db).insertMany(group.map((g) => g.d));
        group.forEach((g, i) => g.resolve(ids[i]));
        return;
      } catch (err) {
        // Nothing of the statement was stored: each row again on its own, so only a bad one's request fails.
        log.warn({ err, deliveries: group.length }, 'storing webhook deliveries together failed; storing them one by one');
      }
    }
    await Promise.all(group.map((g) => inboxRepo(db).insert(g.d).then(g.resolve, g.reject)));
  }

  /**
   * Stores and processes a delivery of a 'transaction' source at once, in one transaction, for a
   * caller whose answer depends on the processing. A duplicate answers `{ duplicate: true }`. If the
   * processing fails, the delivery is stored as failed (the recovery pass retries it) and the error
   * is thrown: a repeat of it is then a duplicate, which the inbox still applies.
   */
  async function receiveNow<R>(d: NewDelivery): Promise<{ duplicate: true } | { duplicate: false; answer: R | undefined; deliveryId: number }> {
    const handler = handlers.get(d.source);
    if (handler?.mode !== 'transaction') throw new Error(`No transaction handler for webhook source ${d.source}`);
    try {
      const result = await db.transaction(async (trx) => {
        const repo = inboxRepo(trx);
        const id = await repo.insert(d);
        if (id === undefined) return { duplicate: true as const };
        const [delivery] = await repo.claimInTransaction([id]);
        const handled = (await handler.apply(trx, delivery)) ?? {};
        await repo.markProcessed([id], isoNow(clock), handled.note ?? null);
        return { duplicate: false as const, answer: handled.answer as R | undefined, deliveryId: id };
      });
      arrived(d, result.duplicate ? undefined : result.deliveryId);
      if (!result.duplicate) metrics?.webhooksProcessed(d.source);
      return result;
    } catch (err) {
      metrics?.webhookFailed(d.source);
      try {
        const fault = Boolean(storageFault(err));
        arrived(d, await inboxRepo(db).insert(d, { status: 'failed', attempts: fault ? 0 : 1, error: messageOf(err).slice(0, 2000) }));
      } catch (storeErr) {
        log.warn({ err: storeErr, source: d.source }, 'could not store the failed webhook delivery; the sender is told to retry');
      }
      throw err;
    }
  }

  // -------------------------------------------------------------------------------------------
  // Process. After the answer, in the background: the deliveries that arrived meanwhile together
  // in one transaction (the recovery pass retries whatever fails, or whatever a stop interrupted).

  const queued = new Set<number>();
  const processParallel = isPostgres(db) ? PROCESS_PARALLEL : 1;
  const batchMax = isPostgres(db) ? PROCESS_BATCH_MAX_PG : PROCESS_BATCH_MAX;
  let draining = 0;
  // Once stopped, nothing new is processed: what is left stays to process and the recovery pass of
  // the next start takes it. Leases held meanwhile (id → locked_until) are handed back at shutdown.
  let stopped = false;
  const heldLeases = new Map<number, string>();

  /** Process a stored delivery soon (after the answer has gone out), batched with others. */
  function processSoon(deliveryId: number): void {
    if (stopped) return;
    queued.add(deliveryId);
    moreDrains();
  }

  /** A drain when none runs; another (up to processParallel) while a full batch waits for the running ones. */
  function moreDrains(): void {
    if (stopped || !queued.size || draining >= processParallel) return;
    if (draining > 0 && queued.size < batchMax) return;
    draining++;
    void track(drainQueue());
  }

  async function drainQueue(): Promise<void> {
    try {
      // Let the answer go out first; deliveries answered meanwhile join the batch.
      await new Promise<void>((resolve) => setImmediate(resolve));
      while (queued.size && !stopped) {
        const ids = [...queued].slice(0, batchMax);
        for (const id of ids) queued.delete(id);
        moreDrains();
        await processBatch(ids);
        // Webhooks waiting to be answered go first (the batch's statements are synchronous on SQLite).
        if (queued.size) await new Promise<void>((resolve) => setImmediate(resolve));
      }
    } finally {
      draining--;
    }
  }

  /** Several deliveries in one transaction; if it fails, each again on its own, so one bad delivery holds back no other. */
  async function processBatch(ids: number[]): Promise<void> {
    let rest = ids;
    if (ids.length > 1) {
      try {
        const { done, later } = await db.transaction((trx) => applyClaimed(trx, ids));
        countProcessed(done);
        rest = later;
      } catch (err) {
        log.warn({ err, deliveries: ids.length }, 'webhook batch failed (rolled back); processing its deliveries one by one');
      }
    }
    for (const id of rest) await processDelivery(id);
  }

  /** Counted once their transaction has committed. */
  function countProcessed(done: Delivery[]): void {
    const bySource = new Map<string, number>();
    for (const d of done) bySource.set(d.source, (bySource.get(d.source) ?? 0) + 1);
    for (const [source, n] of bySource) metrics?.webhooksProcessed(source, n);
  }

  /**
   * The batch: claim, apply per source ('transaction' sources: in this transaction, a source's
   * deliveries together if it can), mark processed. Answers those processed, and the ids left to
   * process one by one (a 'lease' source's).
   */
  async function applyClaimed(trx: Knex.Transaction, ids: number[]): Promise<{ done: Delivery[]; later: number[] }> {
    const repo = inboxRepo(trx);
    const claimed = await repo.claimInTransaction(ids);
    const bySource = new Map<string, Delivery[]>();
    const later: number[] = [];
    for (const d of claimed) {
      const h = handlers.get(d.source);
      if (h?.mode !== 'transaction') later.push(d.id);
      else bySource.set(d.source, [...(bySource.get(d.source) ?? []), d]);
    }
    const done: Delivery[] = [];
    for (const [source, list] of bySource) {
      const h = handlers.get(source) as Extract<InboxHandler, { mode: 'transaction' }>;
      if (h.applyBatch) await h.applyBatch(trx, list);
      else for (const d of list) await h.apply(trx, d);
      done.push(...list);
    }
    if (done.length) await repo.markProcessed(done.map((d) => d.id), isoNow(clock));
    return { done, later };
  }

  /** One delivery: claimed (in its transaction, or under a lease), processed by its source's handler, marked. */
  async function processDelivery(id: number): Promise<ProcessOutcome> {
    let lease: string | undefined;
    let source: string | undefined;
    try {
      const found = await inboxRepo(db).byId(id);
      const handler = found && handlers.get(found.source);
      if (!found || !handler) return 'skipped';
      source = found.source;
      if (handler.mode === 'transaction') {
        const outcome = await db.transaction(async (trx): Promise<ProcessOutcome> => {
          const repo = inboxRepo(trx);
          const [delivery] = await repo.claimInTransaction([id]);
          if (!delivery) return 'skipped';
          const handled = (await handler.apply(trx, delivery)) ?? {};
          await repo.markProcessed([id], isoNow(clock), handled.note ?? null);
          return 'processed';
        });
        if (outcome === 'processed') metrics?.webhooksProcessed(source);
        return outcome;
      }
      const now = clock.now();
      lease = new Date(now.getTime() + LEASE_MS).toISOString();
      const delivery = await inboxRepo(db).claimLease(id, now.toISOString(), lease);
      if (!delivery) return 'skipped';
      heldLeases.set(id, lease);
      const handled = (await handler.process(delivery)) ?? {};
      await inboxRepo(db).markProcessed([id], isoNow(clock), handled.note ?? null);
      metrics?.webhooksProcessed(source);
      heldLeases.delete(id);
      return 'processed';
    } catch (err) {
      if (source) metrics?.webhookFailed(source);
      log.warn({ err, deliveryId: id }, 'webhook processing failed; the recovery pass will retry it');
      try {
        // A storage fault (disk full, database busy) says nothing about the delivery: it does not use
        // up one of its attempts, so a long outage cannot leave an acknowledged delivery unprocessed.
        await inboxRepo(db).markFailed(id, messageOf(err), !storageFault(err));
        heldLeases.delete(id);
      } catch (markErr) {
        log.error({ err: markErr, deliveryId: id }, 'could not mark the webhook delivery failed');
      }
      return 'failed';
    }
  }

  // -------------------------------------------------------------------------------------------
  // Recovery: one pass for every registered source.

  /** Deliveries left unprocessed (the process stopped after answering) or failed: processed again, oldest first. */
  async function recover(limit = RECOVERY_BATCH): Promise<{ processed: number; failed: number; skipped: number }> {
    const ids = await inboxRepo(db).pendingIds([...handlers.keys()], MAX_DELIVERY_ATTEMPTS, isoNow(clock), limit);
    const tally = { processed: 0, failed: 0, skipped: 0 };
    for (const id of ids) {
      if (stopped) break;
      tally[await track(processDelivery(id))]++;
    }
    return tally;
  }

  /** The recovery pass now and every minute. Answers a stop function. */
  function startRecovery(intervalMs = RECOVERY_INTERVAL_MS): () => void {
    let running = false;
    const run = async () => {
      if (running) return;
      running = true;
      try {
        // A full pass that got work done: more may be waiting (a long outage), so go on at once.
        for (let full = true; full; ) {
          const t = await recover(RECOVERY_BATCH);
          if (t.processed || t.failed) log.info(t, 'webhook recovery pass');
          full = t.processed > 0 && t.processed + t.failed + t.skipped >= RECOVERY_BATCH;
        }
      } catch (err) {
        log.error({ err }, 'webhook recovery pass failed');
      } finally {
        running = false;
      }
    };
    void run();
    const timer = setInterval(() => void run(), intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  /** What waits to be processed, per source and status, and how long the oldest has waited (GET /metrics). */
  async function backlog(): Promise<InboxBacklog[]> {
    const now = clock.now().getTime();
    return (await inboxRepo(db).backlog()).map((b) => ({ source: b.source, status: b.status, depth: b.count, oldestAgeSeconds: ageSeconds(now, b.oldest) }));
  }

  /** Shutdown, first step: no new processing; resolves when what is under way has finished. */
  function stop(): Promise<void> {
    stopped = true;
    return idle();
  }

  /** Shutdown, last step: leases still held (processing cut short) go back to claimable now. Answers how many. */
  async function handBack(): Promise<number> {
    stopped = true;
    let n = 0;
    for (const [id, lease] of heldLeases) {
      n += await inboxRepo(db).releaseLease(id, lease);
      heldLeases.delete(id);
    }
    return n;
  }

  return { register, store, receiveNow, processSoon, processDelivery, recover, startRecovery, idle, track, backlog, stop, handBack };
}

export type Inbox = ReturnType<typeof createInbox>;
