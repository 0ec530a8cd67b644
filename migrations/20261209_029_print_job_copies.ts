// The packing bench counts copies: each copy of a job (its slug reads PJ-<job>-<copy>) packed is a
// row, who and when, kept per print round (the job's reprint count then): a reprint starts the
// count again while the earlier packing stays on record. The job is packed (print_jobs.packed_at)
// once every copy of its round is. One row per copy and round: of two packers scanning the same
// copy at once, one packs it.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('print_job_copies', (t) => {
    t.increments('id').primary();
    t.integer('job_id').notNullable().references('id').inTable('print_jobs').onDelete('CASCADE');
    t.integer('round').notNullable();
    t.integer('copy').notNullable();
    t.string('packed_at', 40).notNullable();
    t.integer('packed_by_user_id').references('id').inTable('users').onDelete('SET NULL');
    t.string('packed_by_name', 210).nullable();
    t.unique(['job_id', 'round', 'copy'], { indexName: 'print_job_copies_copy' });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('print_job_copies');
}
