// Batches of print jobs imposed together on press sheets: a number per site, the sheet, the
// floor's state (open → printed → cut → packed) and who moved it last; batch_jobs keeps the
// jobs in the order they are imposed.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('batches', (t) => {
    t.increments('id').primary();
    t.integer('site_id').notNullable().references('id').inTable('sites').onDelete('CASCADE');
    t.integer('number').notNullable();
    t.string('state', 16).notNullable();
    t.string('sheet', 40).notNullable();
    t.integer('created_by_user_id').nullable();
    t.string('created_by_name', 210).nullable();
    t.string('created_at', 40).notNullable();
    t.integer('state_changed_by_user_id').nullable();
    t.string('state_changed_by_name', 210).nullable();
    t.string('state_changed_at', 40).notNullable();
    t.unique(['site_id', 'number'], { indexName: 'batches_site_number' });
    t.index(['site_id', 'state'], 'batches_site_state');
  });
  await knex.schema.createTable('batch_jobs', (t) => {
    t.integer('batch_id').notNullable().references('id').inTable('batches').onDelete('CASCADE');
    t.integer('print_job_id').notNullable().references('id').inTable('print_jobs').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.primary(['batch_id', 'print_job_id']);
    t.index(['print_job_id'], 'batch_jobs_job');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('batch_jobs');
  await knex.schema.dropTable('batches');
}
