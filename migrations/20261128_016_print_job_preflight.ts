// Preflight at intake: what a job's files were found to have (findings as JSON text), whether an
// error holds it, when it was checked, and who approved it anyway (their name as it was then).
// Jobs made before: never checked (null), not held.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('print_jobs', (t) => {
    t.text('preflight').nullable();
    t.boolean('held').notNullable().defaultTo(false);
    t.string('preflight_checked_at', 40).nullable();
    t.string('preflight_approved_at', 40).nullable();
    t.integer('preflight_approved_by_user_id').nullable();
    t.string('preflight_approved_by_name', 210).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('print_jobs', (t) => {
    t.dropColumn('preflight_approved_by_name');
    t.dropColumn('preflight_approved_by_user_id');
    t.dropColumn('preflight_approved_at');
    t.dropColumn('preflight_checked_at');
    t.dropColumn('held');
    t.dropColumn('preflight');
  });
}
