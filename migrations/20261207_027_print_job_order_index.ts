// A site's jobs of some orders (the ship-by of every order line listed: List Orders, Check order,
// Needs attention, search) by (client_id, shopify_order_id). With only the (shopify_order_id,
// line_item_id) index, SQLite preferred the (client_id, …) indexes' equality and read every job
// of the site: a cost that grew with the shop's history.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('print_jobs', (t) => {
    t.index(['client_id', 'shopify_order_id'], 'print_jobs_client_order');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('print_jobs', (t) => {
    t.dropIndex(['client_id', 'shopify_order_id'], 'print_jobs_client_order');
  });
}
