// The history (audit trail): every state change of a job, order, batch, send or sync run, who made
// it (a user, or "automatic" naming the rule or webhook), when, from → to and why. Written in the
// transaction of the change; never updated nor deleted (a trigger refuses both on each database),
// so it outlives the records it tells of (no foreign keys: a deleted job keeps its history).
import type { Knex } from 'knex';

const REFUSAL = 'history is append-only: entries are never changed or deleted';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('history', (t) => {
    t.increments('id').primary();
    t.string('at', 30).notNullable();
    t.integer('site_id').notNullable();
    t.string('subject_kind', 8).notNullable(); // job | order | batch | send | sync
    t.string('subject_id', 100).notNullable();
    // The store order the entry belongs to (a job's, a send's): an order's timeline gathers them.
    t.string('order_ref', 64).nullable();
    t.integer('actor_user_id').nullable();
    t.string('actor_name', 210).nullable();
    t.string('automatic', 120).nullable();
    t.string('action', 40).notNullable();
    t.string('from_state', 40).nullable();
    t.string('to_state', 40).nullable();
    t.string('reason', 500).nullable();
    t.index(['subject_kind', 'subject_id', 'at'], 'history_subject_at');
    t.index(['site_id', 'at'], 'history_site_at');
    t.index(['site_id', 'order_ref', 'at'], 'history_order_at');
  });

  if (knex.client.config.client === 'pg') {
    await knex.raw(`create function history_refuse_change() returns trigger language plpgsql as $$
      begin raise exception '${REFUSAL}'; end $$`);
    await knex.raw('create trigger history_append_only before update or delete on history for each row execute function history_refuse_change()');
  } else {
    await knex.raw(`create trigger history_no_update before update on history begin select raise(abort, '${REFUSAL}'); end`);
    await knex.raw(`create trigger history_no_delete before delete on history begin select raise(abort, '${REFUSAL}'); end`);
  }

  // The print jobs' past events (kept by print_job_events for the reports) start their timelines.
  const events = (await knex('print_job_events as e')
    .join('print_jobs as j', 'j.id', 'e.job_id')
    .leftJoin('users as u', 'u.id', 'e.user_id')
    .select('e.job_id', 'e.kind', 'e.at', 'e.user_id', 'e.site_id', 'j.shopify_order_id', 'u.first_name', 'u.last_name', 'u.email')
    .orderBy('e.id', 'asc')) as Array<{ job_id: number; kind: string; at: string; user_id: number | null; site_id: number; shopify_order_id: string | null; first_name: string | null; last_name: string | null; email: string | null }>;
  const rows = events.map((e) => ({
    at: e.at,
    site_id: e.site_id,
    subject_kind: 'job',
    subject_id: String(e.job_id),
    order_ref: e.shopify_order_id,
    actor_user_id: e.user_id,
    actor_name: e.user_id ? [e.first_name, e.last_name].filter(Boolean).join(' ').trim() || e.email : null,
    automatic: e.user_id ? null : 'Presswork',
    action: e.kind,
    from_state: null,
    to_state: null,
    reason: null,
  }));
  for (let i = 0; i < rows.length; i += 500) await knex('history').insert(rows.slice(i, i + 500));
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client === 'pg') {
    await knex.raw('drop trigger if exists history_append_only on history');
    await knex.raw('drop function if exists history_refuse_change()');
  }
  await knex.schema.dropTableIfExists('history');
}
