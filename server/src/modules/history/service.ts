// Reading the history: a job's timeline, an order's (with its jobs' and sends'), and the admin
// trail. Each is scoped like its subject: another site's job or order answers 404.
import type { Deps } from '../../deps';
import type { Page } from '../../http/envelope';
import { notFound } from '../../http/errors';
import type { Actor } from '../../http/types';
import { pageWindow } from '../../lib/paging';
import { assertAdmin } from '../auth';
import { seesSite, siteScope, visibleTo } from '../auth';
import type { BatchMove, BatchState } from '../../../../common/api/batches';
import type { HistoryEntry, HistoryTrailEntry, OrderHistoryEntry } from '../../../../common/api/history';
import { historyRepo } from './repo';
import type { TrailQuery } from './schema';

const JOB_NOT_FOUND = 'Print job not found';
const DAY_MS = 24 * 60 * 60 * 1000;

const entryOf = (e: HistoryTrailEntry): HistoryEntry => ({ at: e.at, actor: e.actor, action: e.action, from: e.from, to: e.to, reason: e.reason });

/** What the history reads of jobs and orders, given at assembly: print jobs and orders sit above it. */
export interface HistoryPorts {
  /** A job by id, undefined once deleted: its site decides who sees its timeline. */
  jobOf(jobId: number): Promise<{ clientId: number } | undefined>;
  /** The order as the actor may see it (404 otherwise). */
  orderOf(actor: Actor, id: string, siteId?: number): Promise<{ siteId: number; field1: string | null }>;
}

export function historyService({ db }: Pick<Deps, 'db'>, ports: HistoryPorts) {
  const repo = historyRepo(db);

  /** A job's timeline, oldest first; a deleted job's stays readable by its site. */
  async function ofJob(actor: Actor, jobId: number): Promise<{ list: HistoryEntry[] }> {
    const job = await ports.jobOf(jobId);
    if (job) visibleTo(actor, job, JOB_NOT_FOUND);
    const rows = await repo.ofSubject('job', String(jobId));
    if (!job && (!rows.length || !seesSite(actor, rows[0].siteId))) throw notFound(JOB_NOT_FOUND);
    return { list: rows.map(entryOf) };
  }

  /** A store order's timeline with its jobs' and sends' entries, oldest first. */
  async function ofOrder(actor: Actor, id: string, siteId?: number): Promise<{ list: OrderHistoryEntry[] }> {
    const order = await ports.orderOf(actor, id, siteId);
    const rows = await repo.ofOrder(order.siteId, order.field1 ?? id);
    return { list: rows.map((e) => ({ ...entryOf(e), kind: e.kind, subjectId: e.subjectId })) };
  }

  /**
   * Who moved a batch into each state and when, oldest first, from its history. The caller has
   * checked the batch is the actor's to see (the batch answers with them).
   */
  async function movesOfBatch(batchId: number): Promise<BatchMove[]> {
    const rows = await repo.ofSubject('batch', String(batchId));
    return rows
      .filter((e) => e.action === 'moved' && e.to)
      .map((e) => ({ state: e.to as BatchState, at: e.at, byName: 'automatic' in e.actor ? e.actor.automatic : e.actor.name }));
  }

  /** The whole trail for admins, newest first. */
  async function trail(actor: Actor, q: TrailQuery): Promise<Page<HistoryTrailEntry>> {
    assertAdmin(actor);
    const w = pageWindow(q.page, q.pageSize ?? 50);
    const toAt = q.to ? new Date(Date.parse(`${q.to}T00:00:00Z`) + DAY_MS).toISOString() : undefined;
    const fromAt = q.from ? `${q.from}T00:00:00.000Z` : undefined;
    const { rows, total } = await repo.trail({ kind: q.kind as HistoryTrailEntry['kind'] | undefined, siteId: siteScope(actor, q.siteId), actor: q.actor, fromAt, toAt }, w.limit, w.offset);
    return { list: rows, hasNext: w.offset + rows.length < total, total };
  }

  return { ofJob, ofOrder, movesOfBatch, trail };
}

export type HistoryService = ReturnType<typeof historyService>;
