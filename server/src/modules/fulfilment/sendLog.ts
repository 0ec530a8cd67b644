// The shopify-hp-log record of a send (automatic, explicit or manual): what went, what came back.
import type { Knex } from 'knex';
import { insertProviderSend } from '../orders';

export interface SendLogEntry {
  siteId: number;
  orderId: string;
  lineId: string | null;
  status: 'sent' | 'failed';
  data: Record<string, unknown>;
  userId: number | null;
}

export async function writeSendLog(trx: Knex | Knex.Transaction, r: SendLogEntry, at: string): Promise<void> {
  await insertProviderSend(trx, {
    orderId: r.orderId,
    field2: r.lineId ?? '',
    name: 'send',
    status: r.status,
    data: r.data,
    siteId: r.siteId,
    userId: r.userId,
    createdAt: at,
    updatedAt: at,
  });
}
