// What a paid order's line waits for before it is made: the site's change window (state hold,
// until hold_until), then the buyer's proof (proof-due: to send; proof: sent, awaiting the answer;
// change: the buyer asked for a change), or nothing any more (released). One row per line; every
// move is one conditional UPDATE from the state it leaves, so of two instances one makes it.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('line_waits', (t) => {
    t.increments('id').primary();
    t.integer('site_id').notNullable().references('id').inTable('sites').onDelete('CASCADE');
    t.string('order_id', 64).notNullable();
    t.string('line_id', 64).notNullable();
    t.string('state', 20).notNullable();
    t.string('hold_until', 40).nullable();
    t.boolean('proof_needed').notNullable().defaultTo(false);
    t.integer('proof_version').notNullable().defaultTo(0);
    t.string('proof_sent_at', 40).nullable();
    t.string('reminded_at', 40).nullable();
    t.string('opened_at', 40).nullable();
    t.string('released_at', 40).nullable();
    t.string('released_by', 210).nullable();
    t.text('message').nullable();
    t.string('created_at', 40).notNullable();
    t.string('updated_at', 40).notNullable();
    t.unique(['site_id', 'order_id', 'line_id'], { indexName: 'line_waits_line' });
    t.index(['state', 'hold_until'], 'line_waits_due');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('line_waits');
}
