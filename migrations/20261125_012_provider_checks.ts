// When Presswork last asked the provider about an order itself. Postbacks can be lost, so orders
// with no news are polled (GET /api/order/{id}); this column keeps each poll pass moving on to the
// orders it has not asked about lately instead of asking about the same ones again.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('store_orders', (t) => {
    t.string('provider_checked_at', 30);
    t.index(['status', 'updated_at'], 'store_orders_status_updated');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('store_orders', (t) => {
    t.dropIndex(['status', 'updated_at'], 'store_orders_status_updated');
    t.dropColumn('provider_checked_at');
  });
}
