// The SQL of store reconciliations: per site, the last run (when, what it found, its error) and the
// high-water mark the next one starts from (table store_reconciliations, written only here).
import type { Knex } from 'knex';
import type { Db } from '../../db';

export interface ReconcileState {
  siteId: number;
  lastRunAt: string;
  trigger: string;
  found: number;
  stored: number;
  alreadyKnown: number;
  error: string | null;
  highWaterMark: string | null;
}

interface Row {
  site_id: number;
  last_run_at: string;
  trigger: string;
  found: number;
  stored: number;
  already_known: number;
  error: string | null;
  high_water_mark: string | null;
}

const fromRow = (r: Row): ReconcileState => ({
  siteId: Number(r.site_id),
  lastRunAt: r.last_run_at,
  trigger: r.trigger,
  found: Number(r.found),
  stored: Number(r.stored),
  alreadyKnown: Number(r.already_known),
  error: r.error ?? null,
  highWaterMark: r.high_water_mark ?? null,
});

export function reconcileRepo(db: Db | Knex.Transaction) {
  return {
    async of(siteId: number): Promise<ReconcileState | undefined> {
      const r = await db<Row>('store_reconciliations').where({ site_id: siteId }).first();
      return r ? fromRow(r) : undefined;
    },
    async ofSites(siteIds: number[]): Promise<Map<number, ReconcileState>> {
      if (!siteIds.length) return new Map();
      const rows = await db<Row>('store_reconciliations').whereIn('site_id', siteIds);
      return new Map(rows.map((r) => [Number(r.site_id), fromRow(r)]));
    },
    /** A run's outcome; the mark only moves forward (a manual run from long ago never moves it back). */
    async record(s: ReconcileState): Promise<void> {
      const before = await this.of(s.siteId);
      const mark = [before?.highWaterMark, s.highWaterMark].filter((m): m is string => Boolean(m)).sort((a, b) => Date.parse(a) - Date.parse(b)).pop() ?? null;
      const row = { last_run_at: s.lastRunAt, trigger: s.trigger, found: s.found, stored: s.stored, already_known: s.alreadyKnown, error: s.error, high_water_mark: mark };
      await db('store_reconciliations')
        .insert({ site_id: s.siteId, ...row })
        .onConflict('site_id')
        .merge(row);
    },
  };
}

export type ReconcileRepo = ReturnType<typeof reconcileRepo>;
