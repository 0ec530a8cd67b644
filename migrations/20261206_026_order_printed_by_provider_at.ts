// When HP Site Flow's word that an order printed reached us (the postback or poll that moved it to
// `printed`). "Printed by HP and has not shipped" counts from then: updated_at moves with any
// later change (a store webhook, a note), which restarted that clock. Orders already in `printed`
// take the first `printed` event HP sent for them (the one that moved the order; later ones are
// other lines or repeats), else updated_at as before.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('store_orders', (t) => {
    t.string('printed_by_provider_at', 30).nullable();
  });
  const printed = (await knex('store_orders').where('status', 'printed').select('id', 'site_id', 'store_order_id', 'updated_at')) as Array<{ id: number; site_id: number; store_order_id: string; updated_at: string }>;
  for (const o of printed) {
    const first = (await knex('provider_events').where({ site_id: o.site_id, store_order_id: o.store_order_id, status: 'printed' }).min({ at: 'created_at' }).first()) as { at: string | null } | undefined;
    await knex('store_orders').where({ id: o.id }).update({ printed_by_provider_at: first?.at ?? o.updated_at });
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('store_orders', (t) => {
    t.dropColumn('printed_by_provider_at');
  });
}
