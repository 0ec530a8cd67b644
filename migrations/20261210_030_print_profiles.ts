// The printers' own ICC output profiles: a site (or the whole instance, site_id null) uploads the
// CMYK profile its press or print provider prints with, and its print files carry it as their
// output intent. The file lives in the file store (local or bucket) under file_key; the row keeps
// what was read from its header when it was checked, and its hash names it in print-file keys.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('print_profiles', (t) => {
    t.increments('id').primary();
    t.integer('site_id').nullable().references('id').inTable('sites').onDelete('CASCADE');
    t.string('name', 200).notNullable();
    t.string('color_space', 8).notNullable();
    t.string('device_class', 8).notNullable();
    t.integer('icc_version').notNullable();
    t.string('file_key', 512).notNullable();
    t.bigInteger('size').notNullable();
    t.string('sha256', 64).notNullable();
    t.integer('uploaded_by_user_id').nullable().references('id').inTable('users').onDelete('SET NULL');
    t.string('created_at', 40).notNullable();
    t.index(['site_id'], 'print_profiles_site');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('print_profiles');
}
