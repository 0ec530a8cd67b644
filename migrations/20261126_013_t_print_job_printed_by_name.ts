// Who marked a job printed, kept as their name was then: Print History shows it without a lookup,
// and it stays right when the user is renamed or removed.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('print_jobs', (t) => {
    t.string('printed_by_name', 210).nullable();
  });
  // Jobs printed before: their printer's current name is the best there is.
  await knex('print_jobs')
    .whereNotNull('printed_by_user_id')
    .update({
      printed_by_name: knex.raw(`(select trim(u.first_name || ' ' || u.last_name) from users u where u.id = print_jobs.printed_by_user_id)`),
    });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('print_jobs', (t) => {
    t.dropColumn('printed_by_name');
  });
}
