// A print job can leave the Jobs queue without being printed: its order was cancelled in the store,
// or every unit of its line was removed or refunded. The job keeps why and when, so it shows.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('print_jobs', (t) => {
    t.string('withdrawn_at', 40).nullable();
    t.string('withdrawn_reason', 255).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('print_jobs', (t) => {
    t.dropColumn('withdrawn_reason');
    t.dropColumn('withdrawn_at');
  });
}
