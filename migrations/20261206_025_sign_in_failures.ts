// Failed sign-ins, in the database so every instance counts the same failures and a restart
// forgets none. One row per failure and per thing counted (the email, the client address): a
// successful sign-in clears the email's rows and leaves the address's. Rows older than the
// throttle window are pruned as failures come in; the failed_at index finds them.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sign_in_failures', (t) => {
    t.increments('id').primary();
    // 'email' or 'address'.
    t.string('kind', 10).notNullable();
    // SHA-256 (hex) of the email or address: a fixed length whatever was typed, and a password
    // typed into the email box is not kept in clear.
    t.string('subject', 64).notNullable();
    t.string('failed_at', 30).notNullable();
    t.index(['kind', 'subject', 'failed_at'], 'sign_in_failures_subject');
    t.index(['failed_at'], 'sign_in_failures_failed_at');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('sign_in_failures');
}
