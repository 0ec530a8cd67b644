// When each site's store was last asked for the orders it changed (missed webhooks are pulled):
// the answer's counts, its error, and the high-water mark (the newest updated_at seen) the next
// reconciliation starts from, less a safety overlap.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('store_reconciliations', (t) => {
    t.integer('site_id').primary().references('id').inTable('sites').onDelete('CASCADE');
    t.string('last_run_at', 30).notNullable();
    t.string('trigger', 16).notNullable();
    t.integer('found').notNullable().defaultTo(0);
    t.integer('stored').notNullable().defaultTo(0);
    t.integer('already_known').notNullable().defaultTo(0);
    t.text('error');
    t.string('high_water_mark', 40);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('store_reconciliations');
}
