// Batches and their jobs: the only SQL of the batches module.
import type { Knex } from 'knex';
import { BATCH_STATES, type BatchState } from '../../../../common/api/batches';
import type { CloseReason } from '../../../../common/api/batching';
import { isPostgres, type Db } from '../../db';

// The states are the admin's too (common/api).
export { BATCH_STATES, type BatchState };

export interface Batch {
  id: number;
  siteId: number;
  number: number;
  state: BatchState;
  sheet: string;
  /** The paper its jobs print on (their designs' stock); null: none set. */
  stock: string | null;
  /** In the order they are imposed. */
  jobIds: number[];
  /** Made by the automatic batching rule. */
  auto: boolean;
  /** Still taking the site's ready jobs of its kind (a batch made by the rule, until it closes). */
  filling: boolean;
  /** Slots it holds when full (the rule's batches). */
  capacity: number | null;
  closedAt: string | null;
  closeReason: CloseReason | null;
  createdAt: string;
  createdByUserId: number | null;
  createdByName: string | null;
  stateChangedAt: string;
  stateChangedByUserId: number | null;
  stateChangedByName: string | null;
}

interface Row {
  id: number;
  site_id: number;
  number: number;
  state: string;
  sheet: string;
  stock: string | null;
  auto: boolean | number;
  filling: boolean | number;
  capacity: number | null;
  closed_at: string | null;
  close_reason: string | null;
  created_by_user_id: number | null;
  created_by_name: string | null;
  created_at: string;
  state_changed_by_user_id: number | null;
  state_changed_by_name: string | null;
  state_changed_at: string;
}

const fromRow = (r: Row, jobIds: number[]): Batch => ({
  id: Number(r.id),
  siteId: Number(r.site_id),
  number: Number(r.number),
  state: r.state as BatchState,
  sheet: r.sheet,
  stock: r.stock ?? null,
  jobIds,
  auto: Boolean(r.auto),
  filling: Boolean(r.filling),
  capacity: r.capacity === null || r.capacity === undefined ? null : Number(r.capacity),
  closedAt: r.closed_at ?? null,
  closeReason: (r.close_reason as CloseReason | null) ?? null,
  createdAt: r.created_at,
  createdByUserId: r.created_by_user_id,
  createdByName: r.created_by_name,
  stateChangedAt: r.state_changed_at,
  stateChangedByUserId: r.state_changed_by_user_id,
  stateChangedByName: r.state_changed_by_name,
});

export interface NewBatch {
  siteId: number;
  sheet: string;
  stock?: string | null;
  jobIds: number[];
  at: string;
  /** null: the automatic batching rule made it. */
  byUserId: number | null;
  byName: string;
  /** A batch of the rule: its group (one filling batch per group) and the slots it holds. */
  filling?: { groupKey: string; capacity: number };
}

export function batchesRepo(db: Db | Knex.Transaction) {
  async function jobIdsOf(batchIds: number[]): Promise<Map<number, number[]>> {
    const out = new Map<number, number[]>(batchIds.map((id) => [id, []]));
    if (!batchIds.length) return out;
    const rows = (await db('batch_jobs').whereIn('batch_id', batchIds).orderBy('batch_id').orderBy('position').select('batch_id', 'print_job_id')) as Array<{ batch_id: number; print_job_id: number }>;
    for (const r of rows) out.get(Number(r.batch_id))!.push(Number(r.print_job_id));
    return out;
  }

  async function withJobs(rows: Row[]): Promise<Batch[]> {
    const jobs = await jobIdsOf(rows.map((r) => Number(r.id)));
    return rows.map((r) => fromRow(r, jobs.get(Number(r.id)) ?? []));
  }

  return {
    async byId(id: number): Promise<Batch | undefined> {
      const row = (await db('batches').where({ id }).first()) as Row | undefined;
      return row ? (await withJobs([row]))[0] : undefined;
    },

    async list(f: { siteId?: number; state?: BatchState; filling?: boolean }, limit: number, offset: number): Promise<{ rows: Batch[]; total: number }> {
      const q = db('batches');
      if (f.siteId !== undefined) q.where('site_id', f.siteId);
      if (f.state) q.where('state', f.state);
      if (f.filling !== undefined) q.where('filling', f.filling);
      const [{ n }] = (await q.clone().count({ n: '*' })) as Array<{ n: number | string }>;
      const rows = (await q.orderBy('id', 'desc').limit(limit).offset(offset).select('*')) as Row[];
      return { rows: await withJobs(rows), total: Number(n) };
    },

    /**
     * Holds the site's batch numbering until the transaction ends (PostgreSQL locks the site's row;
     * SQLite runs one write transaction at a time anyway): two batches made at once get the next
     * numbers in turn, and cannot both take the same job.
     */
    async lockNumbering(siteId: number): Promise<void> {
      if (isPostgres(db as Db)) await db('sites').where({ id: siteId }).forUpdate().first('id');
    },

    /** Of these jobs, those in an open batch, and its number. */
    async inOpenBatch(jobIds: number[]): Promise<Array<{ jobId: number; number: number }>> {
      if (!jobIds.length) return [];
      const rows = (await db('batch_jobs as bj')
        .join('batches as b', 'b.id', 'bj.batch_id')
        .where('b.state', 'open')
        .whereIn('bj.print_job_id', jobIds)
        .orderBy('bj.print_job_id')
        .select('bj.print_job_id', 'b.number')) as Array<{ print_job_id: number; number: number }>;
      return rows.map((r) => ({ jobId: Number(r.print_job_id), number: Number(r.number) }));
    },

    /** A new batch with the site's next number (the unique index refuses a number taken meanwhile). */
    async insert(b: NewBatch): Promise<number> {
      const [{ max }] = (await db('batches').where('site_id', b.siteId).max({ max: 'number' })) as Array<{ max: number | string | null }>;
      const number = Number(max ?? 0) + 1;
      const [r] = await db('batches')
        .insert({
          site_id: b.siteId,
          number,
          state: 'open',
          sheet: b.sheet,
          stock: b.stock ?? null,
          auto: Boolean(b.filling),
          filling: Boolean(b.filling),
          group_key: b.filling?.groupKey ?? null,
          capacity: b.filling?.capacity ?? null,
          created_by_user_id: b.byUserId,
          created_by_name: b.byName,
          created_at: b.at,
          state_changed_by_user_id: b.byUserId,
          state_changed_by_name: b.byName,
          state_changed_at: b.at,
        })
        .returning('id');
      const id = Number(typeof r === 'object' ? r.id : r);
      if (b.jobIds.length) await db('batch_jobs').insert(b.jobIds.map((jobId, position) => ({ batch_id: id, print_job_id: jobId, position })));
      return id;
    },

    /** The site's filling batches with their groups, oldest first. */
    async filling(siteId: number): Promise<Array<Batch & { groupKey: string }>> {
      const rows = (await db('batches').where({ site_id: siteId, filling: true }).orderBy('id').select('*')) as Array<Row & { group_key: string }>;
      const batches = await withJobs(rows);
      return batches.map((b, i) => ({ ...b, groupKey: rows[i].group_key }));
    },

    /** Sites with a filling batch (the pass closes them even when the site's rule was turned off). */
    async sitesFilling(): Promise<number[]> {
      const rows = (await db('batches').where('filling', true).distinct('site_id')) as Array<{ site_id: number }>;
      return rows.map((r) => Number(r.site_id));
    },

    /** Jobs joining a batch, after those it has. */
    async addJobs(batchId: number, jobIds: number[]): Promise<void> {
      if (!jobIds.length) return;
      const [{ max }] = (await db('batch_jobs').where('batch_id', batchId).max({ max: 'position' })) as Array<{ max: number | string | null }>;
      const start = max === null || max === undefined ? 0 : Number(max) + 1;
      await db('batch_jobs').insert(jobIds.map((jobId, i) => ({ batch_id: batchId, print_job_id: jobId, position: start + i })));
    },

    async removeJobs(batchId: number, jobIds: number[]): Promise<void> {
      if (jobIds.length) await db('batch_jobs').where('batch_id', batchId).whereIn('print_job_id', jobIds).delete();
    },

    /** A filling batch stops taking jobs; false when it was not filling (closed meanwhile). */
    async close(id: number, at: string, reason: CloseReason): Promise<boolean> {
      return (await db('batches').where({ id, filling: true }).update({ filling: false, closed_at: at, close_reason: reason })) === 1;
    },

    /** A filling batch no job is left in, closed before it printed anything. */
    async deleteEmpty(id: number): Promise<void> {
      await db('batches').where({ id, filling: true }).whereNotExists(db('batch_jobs').where('batch_id', id).select('batch_id')).delete();
    },

    /** Moves the batch on from `from`; false when someone moved it first. */
    async setState(id: number, from: BatchState, to: BatchState, by: { at: string; userId: number | null; name: string }): Promise<boolean> {
      const n = await db('batches')
        .where({ id, state: from })
        .update({ state: to, state_changed_at: by.at, state_changed_by_user_id: by.userId, state_changed_by_name: by.name });
      return n === 1;
    },

    /** The number of the newest batch a job was put in, if any. */
    async newestNumberOf(jobId: number): Promise<number | null> {
      const row = (await db('batch_jobs as bj').join('batches as b', 'b.id', 'bj.batch_id').where('bj.print_job_id', jobId).orderBy('b.id', 'desc').first('b.number')) as { number: number } | undefined;
      return row ? Number(row.number) : null;
    },

    /**
     * Each job's place among its order's items made in house and not withdrawn, in the order's
     * line order (then job id): "2 of 3". Jobs without an order are left out.
     */
    async itemNumbers(siteId: number, orderIds: string[]): Promise<Map<number, { number: number; count: number }>> {
      const out = new Map<number, { number: number; count: number }>();
      if (!orderIds.length) return out;
      const rows = (await db('print_jobs as j')
        .leftJoin('store_orders as o', function () {
          this.on('o.site_id', '=', 'j.client_id').andOn('o.store_order_id', '=', 'j.shopify_order_id');
        })
        .leftJoin('store_order_lines as l', function () {
          this.on('l.order_id', '=', 'o.id').andOn('l.line_id', '=', 'j.line_item_id');
        })
        .where('j.client_id', siteId)
        .whereIn('j.shopify_order_id', orderIds)
        .where('j.made_by', '<>', 'provider')
        .whereNull('j.withdrawn_at')
        .orderBy('j.shopify_order_id')
        .orderByRaw('CASE WHEN l.id IS NULL THEN 1 ELSE 0 END')
        .orderBy('l.id')
        .orderBy('j.id')
        .select('j.id', 'j.shopify_order_id')) as Array<{ id: number; shopify_order_id: string }>;
      const byOrder = new Map<string, number[]>();
      for (const r of rows) byOrder.set(r.shopify_order_id, [...(byOrder.get(r.shopify_order_id) ?? []), Number(r.id)]);
      for (const ids of byOrder.values()) ids.forEach((id, i) => out.set(id, { number: i + 1, count: ids.length }));
      return out;
    },
  };
}
