// Sites (tenants), users, the generic data records of the spec, and infrastructure tables.
// Portable: the same schema on SQLite and PostgreSQL. Timestamps are ISO-8601 UTC strings,
// which sort correctly as text on both engines. JSON columns are jsonb on PostgreSQL.
import type { Knex } from 'knex';

function json(t: Knex.CreateTableBuilder, knex: Knex, name: string) {
  return knex.client.config.client === 'pg' ? t.jsonb(name) : t.text(name);
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sites', (t) => {
    t.increments('id').primary();
    t.string('name', 200).notNullable();
    t.string('slug', 64).notNullable().unique();
    t.text('logo');
    json(t, knex, 'theme').notNullable();
    json(t, knex, 'settings').notNullable();
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
  });

  await knex.schema.createTable('users', (t) => {
    t.increments('id').primary();
    t.string('first_name', 100).notNullable();
    t.string('last_name', 100).notNullable().defaultTo('');
    t.string('email', 254).notNullable().unique();
    t.string('password_hash', 100).notNullable();
    t.string('role', 20).notNullable().defaultTo('user');
    t.integer('site_id').notNullable().references('id').inTable('sites').onDelete('RESTRICT');
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    t.index(['site_id']);
  });

  await knex.schema.createTable('general_data', (t) => {
    t.increments('id').primary();
    t.string('type', 64).notNullable();
    t.string('field1', 255);
    t.string('field2', 255);
    t.string('name', 255);
    json(t, knex, 'data').notNullable();
    t.integer('site_id').notNullable().references('id').inTable('sites').onDelete('RESTRICT');
    t.integer('user_id').references('id').inTable('users').onDelete('SET NULL');
    // publicPermission: what other users of the record's site may do (columns, so lists filter by index, not JSON).
    t.boolean('perm_create').notNullable().defaultTo(true);
    t.boolean('perm_read').notNullable().defaultTo(true);
    t.boolean('perm_update').notNullable().defaultTo(true);
    t.boolean('perm_delete').notNullable().defaultTo(false);
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    t.index(['type', 'site_id', 'created_at'], 'general_data_type_site_created');
    t.index(['type', 'field1'], 'general_data_type_field1');
    t.index(['type', 'field2'], 'general_data_type_field2');
    t.index(['type', 'created_at'], 'general_data_type_created');
  });

  // Signed-out tokens stay refused until they would have expired anyway.
  await knex.schema.createTable('revoked_tokens', (t) => {
    t.string('jti', 64).primary();
    t.string('expires_at', 30).notNullable();
    t.index(['expires_at']);
  });

  // Files received through signed upload URLs.
  await knex.schema.createTable('uploads', (t) => {
    t.increments('id').primary();
    t.string('key', 512).notNullable().unique();
    t.string('content_type', 100).notNullable();
    t.bigInteger('size').notNullable();
    t.integer('user_id').references('id').inTable('users').onDelete('SET NULL');
    t.integer('site_id').references('id').inTable('sites').onDelete('SET NULL');
    t.string('created_at', 30).notNullable();
  });

  // Inbound webhook deliveries, deduplicated by (source, event id).
  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.increments('id').primary();
    t.string('source', 32).notNullable();
    t.string('event_id', 128).notNullable();
    t.string('delivery_id', 128);
    t.integer('site_id').references('id').inTable('sites').onDelete('SET NULL');
    t.string('topic', 64);
    json(t, knex, 'payload').notNullable();
    t.string('status', 20).notNullable().defaultTo('received');
    t.text('error');
    t.integer('attempts').notNullable().defaultTo(0);
    t.string('received_at', 30).notNullable();
    t.string('processed_at', 30);
    t.unique(['source', 'event_id']);
    t.index(['status', 'received_at']);
  });

  // Outbound sends written in the same transaction as the change that causes them.
  await knex.schema.createTable('outbox', (t) => {
    t.increments('id').primary();
    t.string('kind', 64).notNullable();
    t.string('dedupe_key', 200).notNullable().unique();
    t.integer('site_id').references('id').inTable('sites').onDelete('SET NULL');
    json(t, knex, 'payload').notNullable();
    t.string('status', 20).notNullable().defaultTo('pending');
    t.integer('attempts').notNullable().defaultTo(0);
    t.string('next_attempt_at', 30).notNullable();
    t.string('locked_until', 30);
    json(t, knex, 'result');
    t.text('error');
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    t.index(['status', 'next_attempt_at']);
  });

  // One row per scheduled job: whoever holds an unexpired lease runs it.
  await knex.schema.createTable('job_leases', (t) => {
    t.string('name', 100).primary();
    t.string('holder', 100);
    t.string('lease_until', 30);
    t.string('last_run_at', 30);
    t.string('last_status', 20);
    t.text('last_error');
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['job_leases', 'outbox', 'webhook_deliveries', 'uploads', 'revoked_tokens', 'general_data', 'users', 'sites']) {
    await knex.schema.dropTableIfExists(table);
  }
}
