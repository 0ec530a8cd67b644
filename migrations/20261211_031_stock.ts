// Stock of blanks: items a site (or the whole instance, site_id null) keeps on its shelves, with
// what is on hand and what is reserved for jobs in the queue; each job's reservation of each item
// (one row a job and item, whose state moves reserved → consumed/released); and every movement,
// who, when and why. A job the stock cannot cover waits with its reason in print_jobs.stock_hold.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('stock_items', (t) => {
    t.increments('id').primary();
    t.integer('site_id').nullable().references('id').inTable('sites').onDelete('CASCADE');
    t.string('name', 200).notNullable();
    t.string('unit', 40).notNullable();
    t.integer('on_hand').notNullable().defaultTo(0);
    t.integer('reserved').notNullable().defaultTo(0);
    t.integer('reorder_point').notNullable().defaultTo(0);
    t.integer('reorder_quantity').notNullable().defaultTo(0);
    t.text('supplier_note').nullable();
    t.string('created_at', 40).notNullable();
    t.string('updated_at', 40).notNullable();
    t.index(['site_id'], 'stock_items_site');
  });
  await knex.schema.createTable('stock_reservations', (t) => {
    t.increments('id').primary();
    t.integer('job_id').notNullable();
    t.integer('item_id').notNullable().references('id').inTable('stock_items').onDelete('CASCADE');
    t.integer('quantity').notNullable();
    t.string('state', 16).notNullable();
    // The reprint's reason when this reservation is a reprint's: its use is recorded as waste.
    t.text('reason').nullable();
    t.string('updated_at', 40).notNullable();
    t.unique(['job_id', 'item_id'], { indexName: 'stock_reservations_job_item' });
  });
  await knex.schema.createTable('stock_movements', (t) => {
    t.increments('id').primary();
    t.integer('item_id').notNullable().references('id').inTable('stock_items').onDelete('CASCADE');
    t.string('kind', 16).notNullable();
    t.integer('quantity').notNullable();
    t.integer('on_hand_after').notNullable();
    t.integer('reserved_after').notNullable();
    t.integer('job_id').nullable();
    t.text('note').nullable();
    t.integer('by_user_id').nullable();
    t.string('by_name', 210).nullable();
    t.string('at', 40).notNullable();
    t.index(['item_id', 'at'], 'stock_movements_item_at');
  });
  await knex.schema.alterTable('print_jobs', (t) => {
    t.string('stock_hold', 500).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('print_jobs', (t) => {
    t.dropColumn('stock_hold');
  });
  await knex.schema.dropTableIfExists('stock_movements');
  await knex.schema.dropTableIfExists('stock_reservations');
  await knex.schema.dropTableIfExists('stock_items');
}
