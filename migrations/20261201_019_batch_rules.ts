// Paper stock and batches made by rule: a design's stock (its jobs print on it), a batch's stock,
// and what the automatic batching keeps on a batch: made by the rule, still filling (at most one
// per site and kind of item, its group), how many slots it holds, and when and why it closed.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('designs', (t) => {
    t.string('stock', 100).nullable();
  });
  await knex.schema.alterTable('batches', (t) => {
    t.string('stock', 100).nullable();
    t.boolean('auto').notNullable().defaultTo(false);
    t.boolean('filling').notNullable().defaultTo(false);
    t.string('group_key', 300).nullable();
    t.integer('capacity').nullable();
    t.string('closed_at', 40).nullable();
    t.string('close_reason', 16).nullable();
  });
  // One filling batch per site and group, whichever instance's pass opens it.
  await knex.raw('create unique index batches_one_filling on batches (site_id, group_key) where filling');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists batches_one_filling');
  await knex.schema.alterTable('batches', (t) => {
    t.dropColumn('close_reason');
    t.dropColumn('closed_at');
    t.dropColumn('capacity');
    t.dropColumn('group_key');
    t.dropColumn('filling');
    t.dropColumn('auto');
    t.dropColumn('stock');
  });
  await knex.schema.alterTable('designs', (t) => {
    t.dropColumn('stock');
  });
}
