// Scheduled sync jobs: what the job lease row must remember so that each scheduled run
// happens once across instances, a missed run is caught up at start, and a crashed run is visible.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('job_leases', (t) => {
    // When this job was first scheduled (a run "missed" before that is not caught up).
    t.string('registered_at', 30);
    // The scheduled time the last run was for: a run for the same slot never starts twice.
    t.string('last_slot', 30);
    t.string('last_finished_at', 30);
    // The run log record (general_data) of the last run, marked failed if the run dies.
    t.integer('last_record_id');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('job_leases', (t) => {
    t.dropColumn('last_record_id');
    t.dropColumn('last_finished_at');
    t.dropColumn('last_slot');
    t.dropColumn('registered_at');
  });
}
