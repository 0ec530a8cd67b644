// recordChange: the one way an entry enters the history, called inside the transaction that makes
// the change, so the entry and the change are kept or rolled back together.
import type { Knex } from 'knex';
import type { Db } from '../../db';
import type { Actor } from '../../http/types';
import type { HistorySubjectKind } from '../../../../common/api/history';
import { nameOf, findUser } from '../users';
import { historyRepo } from './repo';

/** Who made a change: a user (their name as it is now, kept as it was then), or a rule or webhook. */
export type HistoryBy = { id: number | null; name: string } | { automatic: string };

/** The rules and webhooks that change things on their own, as the history names them. */
export const AUTOMATIC = {
  presswork: 'Presswork',
  hpPostback: 'HP Site Flow postback',
  providerSend: 'HP Site Flow send',
  autoSend: 'Auto-send rule (HP Site Flow)',
  routingRules: 'Routing rules',
  storeWriteBack: 'Store write-back (Shopify)',
  scheduledSync: 'Scheduled sync',
  shopifyWebhook: (topic: string | null | undefined) => `Shopify webhook ${topic || 'order'}`.trim(),
} as const;

export const byUser = (actor: Actor): HistoryBy => ({ id: actor.id, name: nameOf(actor) });

/** A change made for a user known by id only (null: by a rule, named `automatic`). */
export async function byUserId(db: Db | Knex.Transaction, userId: number | null, automatic: string = AUTOMATIC.presswork): Promise<HistoryBy> {
  if (userId === null) return { automatic };
  const row = await findUser(db, userId);
  return { id: userId, name: row ? nameOf({ firstName: row.first_name, lastName: row.last_name, email: row.email }) : 'someone' };
}

export interface ChangeEntry {
  at: string;
  siteId: number;
  kind: HistorySubjectKind;
  subjectId: string | number;
  /** The store order the subject belongs to (a job's, a send's), so the order's timeline shows it. */
  orderRef?: string | null;
  by: HistoryBy;
  action: string;
  from?: string | null;
  to?: string | null;
  reason?: string | null;
}

export async function recordChange(trx: Db | Knex.Transaction, e: ChangeEntry): Promise<void> {
  await recordChanges(trx, [e]);
}

/** Several entries in one statement, in the transaction that makes the changes. */
export async function recordChanges(trx: Db | Knex.Transaction, entries: ChangeEntry[]): Promise<void> {
  await historyRepo(trx).insertMany(entries.map(rowOf));
}

function rowOf(e: ChangeEntry) {
  const automatic = 'automatic' in e.by ? e.by.automatic : null;
  return {
    at: e.at,
    siteId: e.siteId,
    kind: e.kind,
    subjectId: String(e.subjectId),
    orderRef: e.kind === 'order' ? String(e.subjectId) : (e.orderRef ?? null),
    actorUserId: 'automatic' in e.by ? null : e.by.id,
    actorName: 'automatic' in e.by ? null : e.by.name,
    automatic,
    action: e.action,
    from: e.from ?? null,
    to: e.to ?? null,
    reason: e.reason ?? null,
  };
}
