// A job's stock, called by the print jobs inside the transaction that changes the job: reserved
// when it enters the in-house queue, used when it is marked printed (a reprint's use is waste,
// with its reason), released when it leaves unprinted (withdrawn, cancelled, moved to HP Site
// Flow, deleted). Each move of a reservation happens once: it moves only from the state it was in.
import type { Knex } from 'knex';
import type { Db } from '../../db';
import { stockNeeded, type StockUse } from '../../../../common/api/stock';
import { stockRepo, type StockBy } from './repo';

/** An item a job cannot have enough of. */
export interface Shortage {
  itemId: number;
  name: string;
  unit: string;
  needed: number;
  available: number;
  shortBy: number;
}

/** What a job of some units of a site takes: whole units per item, the site's and shared items only, in id order (so two reservations lock items in the same order). */
async function needsOf(db: Db | Knex.Transaction, siteId: number, uses: readonly StockUse[], units: number) {
  const repo = stockRepo(db);
  const byItem = new Map<number, number>();
  for (const u of uses) byItem.set(Number(u.stockItemId), (byItem.get(Number(u.stockItemId)) ?? 0) + u.perUnit);
  const out: Array<{ itemId: number; name: string; unit: string; quantity: number }> = [];
  for (const [itemId, perUnit] of [...byItem].sort((a, b) => a[0] - b[0])) {
    const item = await repo.item(itemId);
    // An item of another site (or one deleted since the design listed it) is not this job's to take.
    if (!item || (item.siteId !== null && item.siteId !== siteId)) continue;
    const quantity = stockNeeded(perUnit, units);
    if (quantity > 0) out.push({ itemId, name: item.name, unit: item.unit, quantity });
  }
  return out;
}

/** What a job of `units` would be short of now (nothing: an empty list). Read only: routing asks it before choosing where a line goes. */
export async function stockShortage(db: Db | Knex.Transaction, siteId: number, uses: readonly StockUse[], units: number): Promise<Shortage[]> {
  const repo = stockRepo(db);
  const short: Shortage[] = [];
  for (const need of await needsOf(db, siteId, uses, units)) {
    const available = (await repo.item(need.itemId))?.available ?? 0;
    if (available < need.quantity) short.push({ itemId: need.itemId, name: need.name, unit: need.unit, needed: need.quantity, available, shortBy: need.quantity - Math.max(0, available) });
  }
  return short;
}

class ShortOfStock extends Error {
  constructor(readonly short: Shortage[]) {
    super('short of stock');
  }
}

/**
 * Reserves everything a job takes, or nothing: the answer lists what it is short of. `reason`
 * marks a reprint's reservation (its use is recorded as waste, with the reason). A job whose
 * items are reserved already is left as it is.
 */
export async function reserveJobStock(
  trx: Db | Knex.Transaction,
  job: { id: number; siteId: number; units: number },
  uses: readonly StockUse[],
  by: StockBy,
  at: string,
  reason: string | null = null,
): Promise<{ short: Shortage[] }> {
  const needs = await needsOf(trx, job.siteId, uses, job.units);
  if (!needs.length) return { short: [] };
  try {
    // A savepoint: a shortage of the second item undoes the first's reservation, not the caller's change.
    await trx.transaction(async (sp) => {
      const repo = stockRepo(sp);
      const short: Shortage[] = [];
      for (const need of needs) {
        if (!(await repo.claimReservation({ jobId: job.id, itemId: need.itemId, quantity: need.quantity, reason }, at))) continue;
        if (!(await repo.reserve(need.itemId, need.quantity, at))) {
          const available = (await repo.fresh(need.itemId)).available;
          short.push({ ...need, needed: need.quantity, available, shortBy: need.quantity - Math.max(0, available) });
          continue;
        }
        await repo.addMovement({ itemId: need.itemId, kind: 'reserve', quantity: need.quantity, item: await repo.fresh(need.itemId), jobId: job.id, note: reason, by, at });
      }
      if (short.length) throw new ShortOfStock(short);
    });
  } catch (err) {
    if (err instanceof ShortOfStock) return { short: err.short };
    throw err;
  }
  return { short: [] };
}

/** Frees what a job has reserved (it left the queue unprinted), saying why. */
export async function releaseJobStock(trx: Db | Knex.Transaction, jobId: number, by: StockBy, at: string, why: string): Promise<void> {
  const repo = stockRepo(trx);
  for (const r of await repo.reservationsOf(jobId)) {
    if (r.state !== 'reserved' || !(await repo.settleReservation(jobId, r.itemId, 'released', at))) continue;
    await repo.unreserve(r.itemId, r.quantity, at);
    await repo.addMovement({ itemId: r.itemId, kind: 'release', quantity: -r.quantity, item: await repo.fresh(r.itemId), jobId, note: why, by, at });
  }
}

/** The job was printed: what it reserved leaves the shelf; a reprint's is waste, with its reason. */
export async function useJobStock(trx: Db | Knex.Transaction, jobId: number, by: StockBy, at: string): Promise<void> {
  const repo = stockRepo(trx);
  for (const r of await repo.reservationsOf(jobId)) {
    if (r.state !== 'reserved' || !(await repo.settleReservation(jobId, r.itemId, 'consumed', at))) continue;
    await repo.use(r.itemId, r.quantity, at);
    await repo.addMovement({ itemId: r.itemId, kind: r.reason ? 'waste' : 'consume', quantity: -r.quantity, item: await repo.fresh(r.itemId), jobId, note: r.reason, by, at });
  }
}
