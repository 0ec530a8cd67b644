// Connecting a site to Raiser's Edge NXT by the authorisation-code flow: the pending `state`s (one
// use, bound to a site and an admin, short-lived), and each site's connection health (whether
// Blackbaud revoked the refresh token, so an admin must connect again).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('re_connect_states', (t) => {
    // Only a hash is stored: a database reader cannot finish someone else's connection.
    t.string('state_hash', 64).primary();
    t.integer('site_id').notNullable().references('id').inTable('sites').onDelete('CASCADE');
    t.integer('user_id').notNullable();
    t.string('redirect_uri', 1000).notNullable();
    t.string('created_at', 30).notNullable();
    t.string('expires_at', 30).notNullable();
    t.string('used_at', 30);
  });
  await knex.schema.createTable('re_connections', (t) => {
    t.integer('site_id').primary().references('id').inTable('sites').onDelete('CASCADE');
    t.boolean('needs_reconnect').notNullable().defaultTo(false);
    t.text('reason');
    t.string('marked_at', 30);
    t.string('connected_at', 30);
    t.integer('connected_by');
    t.string('environment_name', 300);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('re_connections');
  await knex.schema.dropTableIfExists('re_connect_states');
}
