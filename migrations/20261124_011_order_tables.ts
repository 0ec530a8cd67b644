// Store orders, their lines, provider events and provider sends in tables of their own (they were
// general_data records of types shopify-order-log, hp-log and shopify-hp-log). UNIQUE(site_id,
// store_order_id) makes "one order per store order" a rule of the database, not of the code.
//
// Ids: the API still shows these rows as general-data records, and the untyped admin resource
// (/api/admin/general-data/:id) finds a record by id alone, so the four tables share one id space:
// moved rows keep their general_data id, and new rows take theirs from general_data's counter
// (PostgreSQL: its sequence, as the column default; SQLite: its sqlite_sequence row, taken by the
// orders repo). An id is never reused across the four tables.
import type { Knex } from 'knex';

const ORDER = 'shopify-order-log';
const EVENT = 'hp-log';
const SEND = 'shopify-hp-log';

/** Keys of data that come from the store (the rest of an order's data is ours). */
const STORE_KEYS = ['id', 'name', 'order_number', 'created_at', 'updated_at', 'email', 'financial_status', 'fulfillment_status', 'customer', 'line_items', 'shipping_address', 'shipping_lines'];

function json(t: Knex.CreateTableBuilder, knex: Knex, name: string) {
  return knex.client.config.client === 'pg' ? t.jsonb(name) : t.text(name);
}

const isPg = (knex: Knex) => knex.client.config.client === 'pg';

function parse(v: unknown): Record<string, unknown> {
  if (v && typeof v === 'object') return v as Record<string, unknown>;
  try {
    const o = JSON.parse(String(v ?? '{}')) as unknown;
    return o && typeof o === 'object' && !Array.isArray(o) ? (o as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const str = (v: unknown, max: number): string | null => (v === null || v === undefined || v === '' ? null : String(v).slice(0, max));

interface OldRow {
  id: number;
  type: string;
  field1: string | null;
  field2: string | null;
  name: string | null;
  status: string | null;
  search_text: string | null;
  data: unknown;
  site_id: number;
  user_id: number | null;
  created_at: string;
  updated_at: string;
}

export async function up(knex: Knex): Promise<void> {
  const pg = isPg(knex);
  const idColumn = (t: Knex.CreateTableBuilder) => t.integer('id').primary();

  await knex.schema.createTable('store_orders', (t) => {
    idColumn(t);
    t.integer('site_id').notNullable().references('id').inTable('sites').onDelete('RESTRICT');
    t.string('store_order_id', 64).notNullable();
    t.string('order_name', 255);
    t.string('order_number', 32);
    // The one home of the order's status (the API shows it as data.status).
    t.string('status', 32).notNullable();
    t.text('search_text');
    json(t, knex, 'store_data').notNullable();
    json(t, knex, 'our_data').notNullable();
    t.integer('user_id').references('id').inTable('users').onDelete('SET NULL');
    // When the order was placed at the store (else when it reached us).
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    t.unique(['site_id', 'store_order_id'], { indexName: 'store_orders_site_order' });
    t.index(['site_id', 'created_at'], 'store_orders_site_created');
    t.index(['site_id', 'status', 'created_at'], 'store_orders_site_status_created');
    t.index(['created_at'], 'store_orders_created');
    t.index(['order_name'], 'store_orders_name');
  });

  await knex.schema.createTable('store_order_lines', (t) => {
    t.increments('id').primary();
    t.integer('order_id').notNullable().references('id').inTable('store_orders').onDelete('CASCADE');
    t.string('line_id', 64).notNullable();
    t.string('sku', 255);
    t.integer('quantity').notNullable().defaultTo(1);
    t.string('title', 255);
    t.unique(['order_id', 'line_id'], { indexName: 'store_order_lines_order_line' });
    t.index(['sku'], 'store_order_lines_sku');
  });

  for (const table of ['provider_events', 'provider_sends']) {
    await knex.schema.createTable(table, (t) => {
      idColumn(t);
      t.integer('site_id').notNullable().references('id').inTable('sites').onDelete('RESTRICT');
      t.string('store_order_id', 255);
      // Events: the provider's order id; sends: the line sent on its own ('' for the whole order).
      t.string(table === 'provider_events' ? 'provider_order_id' : 'line_id', 255);
      t.string('name', 255);
      t.string('status', 32);
      json(t, knex, 'data').notNullable();
      t.integer('user_id').references('id').inTable('users').onDelete('SET NULL');
      t.string('created_at', 30).notNullable();
      t.string('updated_at', 30).notNullable();
      t.index(['site_id', 'store_order_id'], `${table}_site_order`);
      t.index(['site_id', 'created_at'], `${table}_site_created`);
      t.index(['site_id', 'status', 'created_at'], `${table}_site_status_created`);
      t.index(['created_at'], `${table}_created`);
    });
  }

  if (pg) {
    const { rows } = (await knex.raw("select pg_get_serial_sequence('general_data', 'id') as seq")) as { rows: Array<{ seq: string }> };
    for (const table of ['store_orders', 'provider_events', 'provider_sends']) {
      await knex.raw(`alter table ?? alter column id set default nextval('${rows[0].seq}'::regclass)`, [table]);
    }
  } else {
    // The counter the orders repo takes ids from exists even before the first general_data row.
    await knex.raw(
      "insert into sqlite_sequence (name, seq) select 'general_data', coalesce((select max(id) from general_data), 0) where not exists (select 1 from sqlite_sequence where name = 'general_data')",
    );
  }

  await moveRecords(knex);
}

/** Old general_data rows → the new tables (same ids); orders deduplicated, newest update kept. */
async function moveRecords(knex: Knex): Promise<void> {
  const toJson = (v: unknown) => JSON.stringify(v ?? null);
  const old = (await knex('general_data').whereIn('type', [ORDER, EVENT, SEND]).orderBy('id').select('*')) as OldRow[];
  if (!old.length) return;

  const newest = new Map<string, OldRow>();
  const dropped: Array<{ id: number; keptId: number; siteId: number; storeOrderId: string }> = [];
  for (const r of old.filter((o) => o.type === ORDER)) {
    const data = parse(r.data);
    const storeOrderId = str(r.field1, 64) ?? str(data.id, 64) ?? `record-${r.id}`;
    const key = `${r.site_id}\n${storeOrderId}`;
    const seen = newest.get(key);
    const newer = !seen || r.updated_at > seen.updated_at || (r.updated_at === seen.updated_at && r.id > seen.id);
    if (seen) dropped.push(newer ? { id: seen.id, keptId: r.id, siteId: r.site_id, storeOrderId } : { id: r.id, keptId: seen.id, siteId: r.site_id, storeOrderId });
    if (newer) newest.set(key, { ...r, field1: storeOrderId });
  }
  for (const d of dropped) {
    console.warn(`[migration 20261124_011_order_tables] site ${d.siteId} had two records of store order ${d.storeOrderId}: kept record ${d.keptId} (newest update), dropped record ${d.id}`);
  }

  const orders = [...newest.values()].map((r) => {
    const data = parse(r.data);
    const storeData: Record<string, unknown> = {};
    const ourData: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(data)) {
      if (k === 'status') continue;
      if (STORE_KEYS.includes(k)) storeData[k] = v;
      else ourData[k] = v;
    }
    return {
      id: r.id,
      site_id: r.site_id,
      store_order_id: r.field1!,
      order_name: str(r.field2, 255),
      order_number: str(data.order_number, 32),
      status: str(r.status, 32) ?? str(data.status, 32) ?? 'received',
      search_text: r.search_text,
      store_data: toJson(storeData),
      our_data: toJson(ourData),
      user_id: r.user_id,
      created_at: r.created_at,
      updated_at: r.updated_at,
      lines: Array.isArray(data.line_items) ? (data.line_items as Array<Record<string, unknown>>) : [],
    };
  });
  for (let i = 0; i < orders.length; i += 200) {
    const chunk = orders.slice(i, i + 200);
    await knex('store_orders').insert(chunk.map(({ lines: _lines, ...o }) => o));
    const lines = new Map<string, Record<string, unknown>>();
    for (const o of chunk) {
      for (const l of o.lines) {
        const lineId = str(l?.id, 64);
        if (lineId && !lines.has(`${o.id}\n${lineId}`)) {
          lines.set(`${o.id}\n${lineId}`, { order_id: o.id, line_id: lineId, sku: str(l.sku, 255), quantity: Number.isSafeInteger(Number(l.quantity)) ? Number(l.quantity) : 1, title: str(l.name ?? l.title, 255) });
        }
      }
    }
    const rows = [...lines.values()];
    for (let j = 0; j < rows.length; j += 200) await knex('store_order_lines').insert(rows.slice(j, j + 200));
  }

  for (const [type, table, column] of [
    [EVENT, 'provider_events', 'provider_order_id'],
    [SEND, 'provider_sends', 'line_id'],
  ] as const) {
    const rows = old
      .filter((r) => r.type === type)
      .map((r) => ({
        id: r.id,
        site_id: r.site_id,
        store_order_id: r.field1,
        [column]: r.field2,
        name: r.name,
        status: r.status,
        data: toJson(parse(r.data)),
        user_id: r.user_id,
        created_at: r.created_at,
        updated_at: r.updated_at,
      }));
    for (let i = 0; i < rows.length; i += 200) await knex(table).insert(rows.slice(i, i + 200));
  }

  await knex('general_data').whereIn('type', [ORDER, EVENT, SEND]).delete();
  console.info(`[migration 20261124_011_order_tables] moved ${orders.length} orders (${dropped.length} duplicate records dropped), ${old.filter((r) => r.type === EVENT).length} provider events, ${old.filter((r) => r.type === SEND).length} provider sends out of general_data`);
}

export async function down(knex: Knex): Promise<void> {
  // Back into general_data, as the records the API shows.
  const orders = (await knex('store_orders').select('*')) as Array<Record<string, unknown>>;
  const rows: Array<Record<string, unknown>> = orders.map((o) => ({
    id: o.id,
    type: ORDER,
    field1: o.store_order_id,
    field2: o.order_name,
    name: 'order-log',
    status: o.status,
    search_text: o.search_text,
    data: JSON.stringify({ ...parse(o.store_data), ...parse(o.our_data), status: o.status }),
    site_id: o.site_id,
    user_id: o.user_id,
    perm_create: false,
    perm_read: true,
    perm_update: false,
    perm_delete: false,
    created_at: o.created_at,
    updated_at: o.updated_at,
  }));
  for (const [type, table, column] of [
    [EVENT, 'provider_events', 'provider_order_id'],
    [SEND, 'provider_sends', 'line_id'],
  ] as const) {
    for (const r of (await knex(table).select('*')) as Array<Record<string, unknown>>) {
      rows.push({
        id: r.id,
        type,
        field1: r.store_order_id,
        field2: r[column],
        name: r.name,
        status: r.status,
        search_text: null,
        data: JSON.stringify(parse(r.data)),
        site_id: r.site_id,
        user_id: r.user_id,
        perm_create: false,
        perm_read: true,
        perm_update: false,
        perm_delete: false,
        created_at: r.created_at,
        updated_at: r.updated_at,
      });
    }
  }
  for (let i = 0; i < rows.length; i += 200) await knex('general_data').insert(rows.slice(i, i + 200));
  for (const table of ['store_order_lines', 'provider_sends', 'provider_events', 'store_orders']) await knex.schema.dropTableIfExists(table);
}
