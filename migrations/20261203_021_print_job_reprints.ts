// Reprint with a reason: each reprint of a job is a row (why, whose fault, who sent it back, and
// the print it replaces), written in the transaction that puts the job back in the queue; and an
// index for the reports' shipments of a period.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('print_job_reprints', (t) => {
    t.increments('id').primary();
    t.integer('job_id').notNullable().references('id').inTable('print_jobs').onDelete('CASCADE');
    t.integer('site_id').notNullable().references('id').inTable('sites').onDelete('RESTRICT');
    t.string('reason', 24).notNullable();
    t.string('responsible', 16).notNullable();
    t.string('note', 500).nullable();
    t.integer('by_user_id').references('id').inTable('users').onDelete('SET NULL');
    t.string('by_name', 210).nullable();
    t.string('at', 30).notNullable();
    // The print this reprint replaces (the job's printedAt and printer before it went back).
    t.string('original_printed_at', 30).nullable();
    t.integer('original_printed_by_user_id').references('id').inTable('users').onDelete('SET NULL');
    t.string('original_printed_by_name', 210).nullable();
    t.index(['job_id'], 'print_job_reprints_job');
    t.index(['site_id', 'at'], 'print_job_reprints_site_at');
    t.index(['at'], 'print_job_reprints_at');
  });
  // The reports read the shipments (store write-backs) of a period: by kind and when queued.
  await knex.schema.alterTable('outbox', (t) => t.index(['kind', 'created_at'], 'outbox_kind_created'));
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('outbox', (t) => t.dropIndex(['kind', 'created_at'], 'outbox_kind_created'));
  await knex.schema.dropTableIfExists('print_job_reprints');
}
