// Routing rules: each site's rule set (one row, saved whole so a save is atomic), the floor's units
// taken per product type and day (one counter row each, raised only while it stays within the
// capacity: two instances never take the last slot twice), and where each order line was routed
// and by whom. A site with HP_AUTO_SEND on gets the equivalent rule set (every line to HP Site
// Flow) and the setting leaves its env: the rule set is its one owner from now on.
import type { Knex } from 'knex';

const ON = ['1', 'true', 'yes', 'on'];

function json(t: Knex.CreateTableBuilder, knex: Knex, name: string) {
  return knex.client.config.client === 'pg' ? t.jsonb(name) : t.text(name);
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('routing_rule_sets', (t) => {
    t.integer('site_id').primary().references('id').inTable('sites').onDelete('CASCADE');
    json(t, knex, 'rule_set').notNullable();
    t.string('updated_at', 40).notNullable();
    t.integer('updated_by_user_id').nullable();
  });
  await knex.schema.createTable('routing_capacity_days', (t) => {
    t.integer('site_id').notNullable().references('id').inTable('sites').onDelete('CASCADE');
    t.string('product_type', 60).notNullable();
    t.string('day', 10).notNullable();
    t.integer('units').notNullable().defaultTo(0);
    t.primary(['site_id', 'product_type', 'day']);
  });
  await knex.schema.createTable('order_line_routes', (t) => {
    t.increments('id').primary();
    t.integer('site_id').notNullable().references('id').inTable('sites').onDelete('CASCADE');
    t.string('order_id', 40).notNullable();
    t.string('line_id', 40).notNullable();
    t.string('action', 20).notNullable();
    t.string('rule_id', 60).nullable();
    t.string('by', 10).notNullable();
    t.integer('by_user_id').nullable();
    t.string('by_name', 210).nullable();
    t.string('at', 40).notNullable();
    t.string('reason', 400).nullable();
    t.string('destination', 120).nullable();
    t.string('product_type', 60).nullable();
    t.integer('units').notNullable().defaultTo(0);
    /** The floor day an in-house line took capacity on (null: it took none). */
    t.string('day', 10).nullable();
    t.unique(['site_id', 'order_id', 'line_id'], { indexName: 'order_line_routes_line' });
    t.index(['site_id', 'at'], 'order_line_routes_site_at');
    t.index(['site_id', 'action'], 'order_line_routes_site_action');
  });

  const now = new Date().toISOString();
  const sites = (await knex('sites').select('id', 'settings')) as Array<{ id: number; settings: unknown }>;
  for (const site of sites) {
    const settings = (typeof site.settings === 'string' ? JSON.parse(site.settings) : site.settings) as { env?: Array<{ key: string; value: string }> } | null;
    const env = Array.isArray(settings?.env) ? settings.env : [];
    const flag = env.find((v) => v.key === 'HP_AUTO_SEND');
    if (!flag || !ON.includes(String(flag.value).trim().toLowerCase())) continue;
    const ruleSet = { rules: [], default: { action: 'provider' }, capacity: [] };
    await knex('routing_rule_sets').insert({ site_id: site.id, rule_set: JSON.stringify(ruleSet), updated_at: now, updated_by_user_id: null });
    const next = { ...settings, env: env.filter((v) => v.key !== 'HP_AUTO_SEND') };
    await knex('sites').where({ id: site.id }).update({ settings: JSON.stringify(next) });
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('order_line_routes');
  await knex.schema.dropTableIfExists('routing_capacity_days');
  await knex.schema.dropTableIfExists('routing_rule_sets');
}
