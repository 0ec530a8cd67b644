// Print production: product designs, print jobs and the history of what happened to each job.
// Portable as the foundation: ISO-8601 text timestamps, JSON through json(), real booleans.
import type { Knex } from 'knex';

function json(t: Knex.CreateTableBuilder, knex: Knex, name: string) {
  return knex.client.config.client === 'pg' ? t.jsonb(name) : t.text(name);
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('designs', (t) => {
    t.increments('id').primary();
    t.integer('site_id').notNullable().references('id').inTable('sites').onDelete('RESTRICT');
    t.integer('created_by_user_id').references('id').inTable('users').onDelete('SET NULL');
    t.string('name', 200).notNullable();
    t.text('image');
    // Empty SKUs are stored as NULL, so the unique index only binds real SKUs (NULLs are distinct on both engines).
    t.string('sku', 100);
    t.boolean('is_customizable').notNullable().defaultTo(true);
    t.text('product_pdf');
    t.string('product_id', 100);
    t.string('product_type', 20);
    t.string('hp_sku', 100);
    json(t, knex, 'hp_addition_data').notNullable();
    json(t, knex, 'data').notNullable();
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    t.unique(['site_id', 'sku'], { indexName: 'designs_site_sku_unique' });
    t.index(['created_by_user_id', 'created_at'], 'designs_creator_created');
    t.index(['site_id', 'created_at'], 'designs_site_created');
  });

  await knex.schema.createTable('print_jobs', (t) => {
    t.increments('id').primary();
    t.integer('client_id').notNullable().references('id').inTable('sites').onDelete('RESTRICT');
    t.integer('design_id').references('id').inTable('designs').onDelete('SET NULL');
    t.string('product_name', 255).notNullable();
    t.text('preview_url');
    t.integer('quantity').notNullable().defaultTo(1);
    t.string('product_id', 100);
    t.string('shopify_order_id', 64);
    t.string('line_item_id', 64);
    t.boolean('is_printed').notNullable().defaultTo(false);
    t.boolean('is_pdf_downloaded').notNullable().defaultTo(false);
    t.boolean('is_re_printed').notNullable().defaultTo(false);
    t.boolean('ready_for_print').notNullable().defaultTo(false);
    json(t, knex, 'artwork_urls').notNullable();
    json(t, knex, 'data').notNullable();
    t.string('downloaded_at', 30);
    t.integer('downloaded_by_user_id').references('id').inTable('users').onDelete('SET NULL');
    t.string('printed_at', 30);
    t.integer('printed_by_user_id').references('id').inTable('users').onDelete('SET NULL');
    t.integer('reprint_count').notNullable().defaultTo(0);
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    // An order line never gets two jobs (a double print costs real money). Rows without an order
    // (NULLs) are not bound; the index also serves "the jobs of this order" lookups.
    t.unique(['shopify_order_id', 'line_item_id'], { indexName: 'print_jobs_order_line_unique' });
    // The jobs queue and print history, all sites and one site.
    t.index(['ready_for_print', 'is_printed', 'created_at'], 'print_jobs_ready_printed_created');
    t.index(['client_id', 'is_printed', 'created_at'], 'print_jobs_client_printed_created');
    t.index(['is_printed', 'printed_at'], 'print_jobs_printed_at');
    t.index(['client_id', 'is_printed', 'printed_at'], 'print_jobs_client_printed_at');
    t.index(['design_id', 'is_printed'], 'print_jobs_design');
  });

  // What happened to each job and when: the source of the print reports.
  await knex.schema.createTable('print_job_events', (t) => {
    t.increments('id').primary();
    t.integer('job_id').notNullable().references('id').inTable('print_jobs').onDelete('CASCADE');
    t.string('kind', 20).notNullable(); // downloaded | printed | reset | reprinted
    t.string('at', 30).notNullable();
    t.integer('user_id').references('id').inTable('users').onDelete('SET NULL');
    t.integer('site_id').notNullable().references('id').inTable('sites').onDelete('RESTRICT');
    t.index(['job_id'], 'print_job_events_job');
    t.index(['kind', 'at'], 'print_job_events_kind_at');
    t.index(['site_id', 'kind', 'at'], 'print_job_events_site_kind_at');
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['print_job_events', 'print_jobs', 'designs']) await knex.schema.dropTableIfExists(table);
}
