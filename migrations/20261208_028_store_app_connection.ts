// Connecting a store through a Shopify app (Dev Dashboard): the Admin API tokens each grant gives
// (client credentials: an access token for 24 hours; the OAuth install: a 1-hour access token and a
// 90-day refresh token, replaced at every refresh), whether the store needs reconnecting, the
// pending OAuth `state`s (one use, bound to a site, an admin and a shop), and the privacy requests
// Shopify sends (customers/data_request, customers/redact, shop/redact) with what was done.
import type { Knex } from 'knex';

function json(t: Knex.CreateTableBuilder, knex: Knex, name: string) {
  return knex.client.config.client === 'pg' ? t.jsonb(name) : t.text(name);
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('store_app_tokens', (t) => {
    t.integer('site_id').primary().references('id').inTable('sites').onDelete('CASCADE');
    t.string('auth', 32).notNullable();
    // The app and shop the tokens were granted for: another Client ID or shop makes them void.
    t.string('client_id', 255);
    t.string('shop_domain', 255);
    t.text('access_token');
    t.string('access_expires_at', 30);
    t.text('refresh_token');
    t.string('refresh_expires_at', 30);
    t.string('issued_at', 30);
    t.text('scopes');
    t.string('shop_name', 255);
    t.boolean('needs_reconnect').notNullable().defaultTo(false);
    t.text('reason');
    t.string('marked_at', 30);
    t.string('connected_at', 30);
    t.integer('connected_by').references('id').inTable('users').onDelete('SET NULL');
    t.string('updated_at', 30).notNullable();
  });

  await knex.schema.createTable('store_install_states', (t) => {
    // Only a hash is stored: a database reader cannot finish someone else's install.
    t.string('state_hash', 64).primary();
    t.integer('site_id').notNullable().references('id').inTable('sites').onDelete('CASCADE');
    t.integer('user_id').notNullable();
    t.string('shop_domain', 255).notNullable();
    t.string('redirect_uri', 1000).notNullable();
    t.string('created_at', 30).notNullable();
    t.string('expires_at', 30).notNullable();
    t.string('used_at', 30);
    t.index(['expires_at'], 'store_install_states_expires');
  });

  await knex.schema.createTable('store_privacy_requests', (t) => {
    t.increments('id').primary();
    t.integer('site_id').notNullable().references('id').inTable('sites').onDelete('CASCADE');
    t.string('topic', 40).notNullable();
    t.integer('delivery_id');
    t.string('shop_domain', 255);
    t.string('customer_id', 64);
    // Who to find (e-mail, phone): kept only until the redaction is done.
    json(t, knex, 'subject');
    json(t, knex, 'order_ids').notNullable();
    json(t, knex, 'report');
    // listed (a data request), redacted, or waiting (orders still in production: redacted once they ship).
    t.string('status', 20).notNullable();
    json(t, knex, 'waiting_order_ids').notNullable();
    t.string('received_at', 30).notNullable();
    t.string('done_at', 30);
    t.index(['site_id', 'received_at'], 'store_privacy_requests_site_received');
    t.index(['status'], 'store_privacy_requests_status');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('store_privacy_requests');
  await knex.schema.dropTableIfExists('store_install_states');
  await knex.schema.dropTableIfExists('store_app_tokens');
}
