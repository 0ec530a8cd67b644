// Orders and provider events are general-data records that lists filter by status and search by
// order name or customer: columns for both, so no list reads JSON to find a row.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('general_data', (t) => {
    t.string('status', 32);
    t.text('search_text');
    t.index(['type', 'site_id', 'status', 'created_at'], 'general_data_type_site_status_created');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('general_data', (t) => {
    t.dropIndex(['type', 'site_id', 'status', 'created_at'], 'general_data_type_site_status_created');
    t.dropColumn('search_text');
    t.dropColumn('status');
  });
}
