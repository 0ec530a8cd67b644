// Running outbox rows: one now (an explicit send), every due one (the worker's pass), and the
// worker that makes those passes. Each attempt holds its row under a lease (outboxRepo.claim).
import type { Deps } from '../../deps';
import { notFound } from '../../http/errors';
import { attempt, outcomeOf } from './attempt';
import { later, nowIso, type FulfilmentContext, type SendOutcome } from './context';
import { claimingStopped, outboxRepo } from './outbox';

function claim(ctx: FulfilmentContext, id: number, force: boolean) {
  return outboxRepo(ctx.db).claim(id, nowIso(ctx), later(ctx, ctx.options.leaseMs), force);
}

/** One attempt now (an explicit send). Another sender holding the row: wait for it, then answer its outcome. */
export async function sendNow(ctx: FulfilmentContext, outboxId: number): Promise<SendOutcome> {
  const claimed = await claim(ctx, outboxId, true);
  if (claimed) return attempt(ctx, claimed);
  const deadline = Date.now() + ctx.options.waitForOtherMs;
  for (;;) {
    const row = await outboxRepo(ctx.db).byId(outboxId);
    if (!row) throw notFound('Outbox entry not found');
    if (row.status !== 'pending' || claimingStopped(ctx.db)) return outcomeOf(row);
    if (!row.lockedUntil || row.lockedUntil < nowIso(ctx)) {
      const again = await claim(ctx, outboxId, true);
      if (again) return attempt(ctx, again);
    }
    if (Date.now() >= deadline) return outcomeOf(row);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The worker's pass: every due, unleased row, claimed one by one. */
export async function processDue(ctx: FulfilmentContext): Promise<{ claimed: number; outcomes: SendOutcome[] }> {
  const due = await outboxRepo(ctx.db).dueIds(nowIso(ctx), ctx.options.batchSize);
  const outcomes: SendOutcome[] = [];
  for (const id of due) {
    const row = await claim(ctx, id, false);
    if (row) outcomes.push(await attempt(ctx, row));
  }
  return { claimed: outcomes.length, outcomes };
}

/** Runs processDue every intervalMs (no overlapping passes). */
export function startOutboxWorker(service: { processDue(): Promise<unknown> }, opts: { intervalMs?: number; log?: Deps['log'] } = {}) {
  return startRepeating(() => service.processDue(), { intervalMs: opts.intervalMs ?? 5_000, log: opts.log, what: 'outbox worker pass' });
}

/** Runs `pass` now and every intervalMs, never two at once; a failed pass is logged. */
export function startRepeating(pass: () => Promise<unknown>, opts: { intervalMs: number; log?: Deps['log']; what: string }) {
  let current: Promise<void> | undefined;
  let stopped = false;
  const run = async () => {
    try {
      await pass();
    } catch (err) {
      opts.log?.error({ err }, `${opts.what} failed`);
    }
  };
  const tick = async () => {
    if (current || stopped) return;
    current = run();
    try {
      await current;
    } finally {
      current = undefined;
    }
  };
  const timer = setInterval(() => void tick(), opts.intervalMs);
  timer.unref();
  void tick();
  return {
    tick,
    /** No further pass; resolves when the one under way (if any) has finished. */
    stop(): Promise<void> {
      stopped = true;
      clearInterval(timer);
      return current ?? Promise.resolve();
    },
  };
}
