// Where a print job's item is made: in house (the Jobs queue) or by the fulfilment provider. Jobs
// the provider makes never appear in the queue, so nobody prints what the provider also ships.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('print_jobs', (t) => {
    t.string('made_by', 16).notNullable().defaultTo('in_house');
  });
  // Jobs made for a provider send before this column existed sat in the queue unmarked: a line sent
  // on its own, or any line of an order sent whole that nobody has downloaded or printed yet.
  const sent = (await knex('outbox').where({ kind: 'hp-order', status: 'sent' }).select('payload')) as Array<{ payload: unknown }>;
  for (const { payload } of sent) {
    const p = (typeof payload === 'string' ? JSON.parse(payload) : payload) as { siteId?: number; orderId?: string; lineId?: string | null };
    if (!p?.siteId || !p.orderId) continue;
    const q = knex('print_jobs').where({ client_id: p.siteId, shopify_order_id: String(p.orderId), is_printed: false });
    if (p.lineId) q.where('line_item_id', String(p.lineId));
    else q.where('is_pdf_downloaded', false);
    await q.update({ made_by: 'provider' });
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('print_jobs', (t) => {
    t.dropColumn('made_by');
  });
}
