// The inbox: a delivery processed outside a transaction (the CRM's, which calls other services) is
// claimed under a lease, so two instances never process it at once and a dead one's claim runs out.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhook_deliveries', (t) => {
    t.string('locked_until', 30);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhook_deliveries', (t) => {
    t.dropColumn('locked_until');
  });
}
