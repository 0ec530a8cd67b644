// The history's SQL. Append-only: an insert and reads, no update or delete (the table's trigger
// refuses them as well).
import type { Db } from '../../db';
import type { HistorySubjectKind, HistoryTrailEntry } from '../../../../common/api/history';

export interface HistoryRow {
  at: string;
  siteId: number;
  kind: HistorySubjectKind;
  subjectId: string;
  orderRef: string | null;
  actorUserId: number | null;
  actorName: string | null;
  automatic: string | null;
  action: string;
  from: string | null;
  to: string | null;
  reason: string | null;
}

export interface TrailFilter {
  kind?: HistorySubjectKind;
  siteId?: number;
  /** A user's id, or part of a user's name or of the automatic rule's name. */
  actor?: string;
  /** Inclusive ISO lower bound of `at`, exclusive upper bound. */
  fromAt?: string;
  toAt?: string;
}

interface Row {
  id: number;
  at: string;
  site_id: number;
  subject_kind: HistorySubjectKind;
  subject_id: string;
  order_ref: string | null;
  actor_user_id: number | null;
  actor_name: string | null;
  automatic: string | null;
  action: string;
  from_state: string | null;
  to_state: string | null;
  reason: string | null;
}

const cut = (v: string | null, n: number) => (v === null ? null : v.slice(0, n));

function fromRow(r: Row): HistoryTrailEntry {
  return {
    id: Number(r.id),
    at: r.at,
    siteId: Number(r.site_id),
    kind: r.subject_kind,
    subjectId: r.subject_id,
    orderRef: r.order_ref,
    actor: r.automatic !== null ? { automatic: r.automatic } : { id: r.actor_user_id === null ? null : Number(r.actor_user_id), name: r.actor_name ?? 'someone' },
    action: r.action,
    from: r.from_state,
    to: r.to_state,
    reason: r.reason,
  };
}

export function historyRepo(db: Db) {
  /** Entries in as few statements as the parameter limits allow (a batch of webhooks stores many orders at once). */
  async function insertMany(entries: HistoryRow[]): Promise<void> {
    for (let i = 0; i < entries.length; i += 50) {
      await db('history').insert(
        entries.slice(i, i + 50).map((e) => ({
          at: e.at,
          site_id: e.siteId,
          subject_kind: e.kind,
          subject_id: cut(e.subjectId, 100),
          order_ref: cut(e.orderRef, 64),
          actor_user_id: e.actorUserId,
          actor_name: cut(e.actorName, 210),
          automatic: cut(e.automatic, 120),
          action: e.action.slice(0, 40),
          from_state: cut(e.from, 40),
          to_state: cut(e.to, 40),
          reason: cut(e.reason, 500),
        })),
      );
    }
  }

  return {
    insert: (e: HistoryRow): Promise<void> => insertMany([e]),
    insertMany,
    /** One subject's entries, oldest first. */
    async ofSubject(kind: HistorySubjectKind, subjectId: string): Promise<HistoryTrailEntry[]> {
      const rows = (await db('history').where({ subject_kind: kind, subject_id: subjectId }).orderBy('at', 'asc').orderBy('id', 'asc')) as Row[];
      return rows.map(fromRow);
    },
    /** A store order's entries and those of its jobs and sends, oldest first. */
    async ofOrder(siteId: number, orderId: string): Promise<HistoryTrailEntry[]> {
      const rows = (await db('history')
        .where({ site_id: siteId })
        .where((w) => w.where({ order_ref: orderId }).orWhere((o) => o.where({ subject_kind: 'order', subject_id: orderId })))
        .orderBy('at', 'asc')
        .orderBy('id', 'asc')) as Row[];
      return rows.map(fromRow);
    },
    /** The admin trail, newest first, a page at a time. */
    async trail(f: TrailFilter, limit: number, offset: number): Promise<{ rows: HistoryTrailEntry[]; total: number }> {
      const q = db('history');
      if (f.kind) q.where('subject_kind', f.kind);
      if (f.siteId !== undefined) q.where('site_id', f.siteId);
      if (f.fromAt) q.where('at', '>=', f.fromAt);
      if (f.toAt) q.where('at', '<', f.toAt);
      if (f.actor) {
        const actor = f.actor;
        if (/^\d{1,9}$/.test(actor)) q.where('actor_user_id', Number(actor));
        else {
          const like = `%${actor.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
          q.where((w) => w.whereRaw("lower(actor_name) like ? escape '\\'", [like]).orWhereRaw("lower(automatic) like ? escape '\\'", [like]));
        }
      }
      const [{ n }] = (await q.clone().count({ n: '*' })) as Array<{ n: number | string }>;
      const rows = (await q.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset)) as Row[];
      return { rows: rows.map(fromRow), total: Number(n) };
    },
  };
}
