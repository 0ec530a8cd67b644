// The first answer of each user action (Idempotency-Key), so a double click or a retry of the same
// action answers it again instead of creating a second record. The unique (user, key) pair is the
// lock: the first request to insert it runs, any other with the same key waits or is refused.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('idempotency_keys', (t) => {
    t.increments('id').primary();
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('key', 255).notNullable();
    t.string('method', 10).notNullable();
    t.string('path', 1000).notNullable();
    t.string('body_hash', 64).notNullable();
    // Null while the first request runs.
    t.integer('status');
    t.text('response_body');
    t.string('created_at', 30).notNullable();
    t.unique(['user_id', 'key'], { indexName: 'idempotency_keys_user_key' });
    t.index(['created_at'], 'idempotency_keys_created');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('idempotency_keys');
}
