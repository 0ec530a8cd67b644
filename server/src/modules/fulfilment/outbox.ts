// The provider-send outbox: a row written in the caller's transaction (so a crash never loses a
// send), claimed by a worker under a lease (so two instances never send one row twice).
import type { Knex } from 'knex';
import type { Db } from '../../db';
import { fromJson, toJson } from '../../db';

export const HP_ORDER_KIND = 'hp-order';

export interface EnqueueOrderSend {
  siteId: number;
  /** The store order id (the order record's field1). */
  orderId: string;
  /** Only these line items, each its own provider order (`<order>-<line>`); absent: the whole order. */
  lineIds?: string[];
}

export interface HpOrderPayload {
  siteId: number;
  orderId: string;
  lineId: string | null;
  actorId: number | null;
}

export interface OutboxRow {
  id: number;
  kind: string;
  dedupeKey: string;
  siteId: number | null;
  payload: HpOrderPayload;
  status: 'pending' | 'sent' | 'failed' | string;
  attempts: number;
  nextAttemptAt: string;
  lockedUntil: string | null;
  result: unknown;
  error: string | null;
  createdAt: string;
  updatedAt: string;
}

interface Row {
  id: number;
  kind: string;
  dedupe_key: string;
  site_id: number | null;
  payload: unknown;
  status: string;
  attempts: number;
  next_attempt_at: string;
  locked_until: string | null;
  result: unknown;
  error: string | null;
  created_at: string;
  updated_at: string;
}

export const outboxFromRow = (r: Row): OutboxRow => ({
  id: Number(r.id),
  kind: r.kind,
  dedupeKey: r.dedupe_key,
  siteId: r.site_id,
  payload: fromJson<HpOrderPayload>(r.payload, { siteId: 0, orderId: '', lineId: null, actorId: null }),
  status: r.status,
  attempts: Number(r.attempts),
  nextAttemptAt: r.next_attempt_at,
  lockedUntil: r.locked_until,
  result: fromJson(r.result, null),
  error: r.error,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export const hpDedupeKey = (siteId: number, orderId: string, lineId?: string | null) => `hp:${siteId}:${orderId}${lineId ? `:${lineId}` : ''}`;

/**
 * Queue the provider send of an order (or of some of its lines, one row per line) inside the
 * caller's transaction. A row with the same dedupe key is kept as it is (ON CONFLICT DO NOTHING)
 * and returned, so a second click or a replayed webhook never queues a second send.
 */
export async function enqueueOrderSend(trx: Knex | Knex.Transaction, input: EnqueueOrderSend, actorId?: number | null, now: Date = new Date()): Promise<OutboxRow[]> {
  const at = now.toISOString();
  const lines: Array<string | null> = input.lineIds?.length ? [...new Set(input.lineIds.map(String))] : [null];
  const out: OutboxRow[] = [];
  for (const lineId of lines) {
    const payload: HpOrderPayload = { siteId: input.siteId, orderId: String(input.orderId), lineId, actorId: actorId ?? null };
    const dedupeKey = hpDedupeKey(input.siteId, payload.orderId, lineId);
    await trx('outbox')
      .insert({
        kind: HP_ORDER_KIND,
        dedupe_key: dedupeKey,
        site_id: input.siteId,
        payload: toJson(payload),
        status: 'pending',
        attempts: 0,
        next_attempt_at: at,
        locked_until: null,
        result: null,
        error: null,
        created_at: at,
        updated_at: at,
      })
      .onConflict('dedupe_key')
      .ignore();
    const row = (await trx<Row>('outbox').where({ dedupe_key: dedupeKey }).first())!;
    out.push(outboxFromRow(row));
  }
  return out;
}

export function outboxRepo(db: Db | Knex.Transaction) {
  return {
    async byId(id: number) {
      const r = await db<Row>('outbox').where({ id }).first();
      return r ? outboxFromRow(r) : undefined;
    },
    async byKey(key: string) {
      const r = await db<Row>('outbox').where({ dedupe_key: key }).first();
      return r ? outboxFromRow(r) : undefined;
    },
  };
}
