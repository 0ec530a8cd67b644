// SQL of the order pipeline: its outbox rows (kind order-pipeline), one per (order, step[, e-card
// line]) for the automatic run, and one more per deliberate re-run.
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { PipelineStep } from '../../../../common/api/pipeline';
import type { Db } from '../../db';
import { toJson } from '../../db';
import { insertOnce, outboxFromRow, type HpOrderPayload, type OutboxRow, outboxRowsWithKeyPrefix, retryFailedOutboxRow } from '../fulfilment';

export const PIPELINE_KIND = 'order-pipeline';

export interface PipelinePayload extends HpOrderPayload {
  step: PipelineStep;
  /** Queued by an operator's Re-run (else by the paid order). */
  rerun: boolean;
}

const prefixOf = (siteId: number, orderId: string) => `pipeline:${siteId}:${orderId}:`;

/** The automatic run's key: one per order and step (and e-card line), whatever is redelivered. */
export const pipelineDedupeKey = (siteId: number, orderId: string, step: PipelineStep, lineId: string | null) => `${prefixOf(siteId, orderId)}${step}${lineId ? `:${lineId}` : ''}`;

export function pipelineRepo(db: Db | Knex.Transaction) {
  const byKey = async (key: string) => outboxFromRow((await db('outbox').where({ dedupe_key: key }).first())!);
  return {
    /** The automatic run of a step, queued once (a repeat keeps the first row); answers the row. */
    async enqueueOnce(payload: PipelinePayload, at: string, dueAt: string = at): Promise<OutboxRow> {
      const dedupeKey = pipelineDedupeKey(payload.siteId, payload.orderId, payload.step, payload.lineId);
      await insertOnce(db, { kind: PIPELINE_KIND, dedupeKey, siteId: payload.siteId, payload, at, dueAt });
      return byKey(dedupeKey);
    },
    /** A deliberate re-run: a row of its own, due now. */
    async enqueueAgain(payload: PipelinePayload, at: string): Promise<OutboxRow> {
      const dedupeKey = `${pipelineDedupeKey(payload.siteId, payload.orderId, payload.step, payload.lineId)}#${crypto.randomUUID()}`;
      await insertOnce(db, { kind: PIPELINE_KIND, dedupeKey, siteId: payload.siteId, payload, at });
      return byKey(dedupeKey);
    },
    /** Every pipeline row of an order, oldest first (keys pipeline:<site>:<order>:…, a key range). */
    ofOrder: (siteId: number, orderId: string): Promise<OutboxRow[]> => outboxRowsWithKeyPrefix(db, PIPELINE_KIND, siteId, prefixOf(siteId, orderId)),
    /** What an attempt has done so far, kept on the row it holds (a retry after a crash reads it). */
    async noteProgress(id: number, result: unknown, at: string): Promise<void> {
      await db('outbox').where({ id, status: 'pending' }).update({ result: toJson(result), updated_at: at });
    },
    /** A failed row asked for again: pending, attempts reset, due now. */
    retryFailed: (id: number, at: string): Promise<boolean> => retryFailedOutboxRow(db, PIPELINE_KIND, id, at),
  };
}
