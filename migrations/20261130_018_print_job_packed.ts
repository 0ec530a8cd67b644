// The packing bench: when a printed job was packed and by whom (their name as it was then). Jobs
// printed before were never scanned at the bench: not packed. A reprint clears it.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('print_jobs', (t) => {
    t.string('packed_at', 40).nullable();
    t.integer('packed_by_user_id').nullable();
    t.string('packed_by_name', 210).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('print_jobs', (t) => {
    t.dropColumn('packed_by_name');
    t.dropColumn('packed_by_user_id');
    t.dropColumn('packed_at');
  });
}
