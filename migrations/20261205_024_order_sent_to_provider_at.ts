// When an order last went to HP Site Flow (the send that moved it to `sent`). "HP has not
// acknowledged it" counts from then: updated_at moves with any later change (a store webhook, a
// note), which restarted that clock. Orders already waiting in `sent` take their latest known send
// time (our_data.hpOrders[…].sentAt), else updated_at as before.
import type { Knex } from 'knex';

function parse(v: unknown): Record<string, unknown> {
  if (v && typeof v === 'object') return v as Record<string, unknown>;
  try {
    const o = JSON.parse(String(v ?? '{}')) as unknown;
    return o && typeof o === 'object' && !Array.isArray(o) ? (o as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The latest send time kept on the order, if any. */
function latestSentAt(ours: Record<string, unknown>): string | null {
  const sends = ours.hpOrders && typeof ours.hpOrders === 'object' ? Object.values(ours.hpOrders as Record<string, unknown>) : [];
  const times = sends.map((s) => (s && typeof s === 'object' ? (s as { sentAt?: unknown }).sentAt : null)).filter((t): t is string => typeof t === 'string' && !Number.isNaN(Date.parse(t)));
  return times.length ? times.sort()[times.length - 1] : null;
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('store_orders', (t) => {
    t.string('sent_to_provider_at', 30).nullable();
  });
  const waiting = (await knex('store_orders').where('status', 'sent').select('id', 'our_data', 'updated_at')) as Array<{ id: number; our_data: unknown; updated_at: string }>;
  for (const o of waiting) {
    await knex('store_orders').where({ id: o.id }).update({ sent_to_provider_at: latestSentAt(parse(o.our_data)) ?? o.updated_at });
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('store_orders', (t) => {
    t.dropColumn('sent_to_provider_at');
  });
}
