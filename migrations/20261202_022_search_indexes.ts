// The header search (GET /api/search): an order is found by the prefix of its name, number, store
// order id, customer name, customer surname or email, at a million orders, without scanning. The
// lower-cased keys are columns written with the order (orders/searchKeys.ts, by the orders repo),
// filled here for the orders already stored.
//
// Each key has two indexes: (site_id, key) for staff, whose search is one site's, and (key) for
// admins, who search every site. A prefix is searched as a range (key >= 'abc' and key < 'abd')
// in byte order: PostgreSQL's indexes and queries say collate "C" (a locale's order would put other
// strings inside the range), SQLite's default (binary) is that order already.
import type { Knex } from 'knex';

// Frozen copies, as they were when this migration was written: a migration must do the same thing
// on every database, whatever the live code (orders/searchKeys.ts, db.ts) later becomes.
function fromJson<T>(value: unknown, fallback: T): T {
  if (value === null || value === undefined) return fallback;
  if (typeof value === 'string') {
    try {
      return JSON.parse(value) as T;
    } catch {
      return fallback;
    }
  }
  return value as T;
}

function searchKey(text: unknown, max = 255): string | null {
  if (text === null || text === undefined) return null;
  const key = String(text).trim().replace(/\s+/g, ' ').toLowerCase().slice(0, max);
  return key === '' ? null : key;
}

const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** An order's search keys from its name and store data (customer, else shipping address; email). */
function orderSearchColumns(name: string | null | undefined, data: Record<string, unknown>) {
  const customer = obj(data.customer);
  const person = customer.first_name || customer.last_name ? customer : obj(data.shipping_address);
  return {
    name_lower: searchKey(name ?? data.name),
    customer_lower: searchKey([person.first_name, person.last_name].filter((v) => v !== null && v !== undefined && v !== '').join(' ')),
    surname_lower: searchKey(person.last_name),
    email_lower: searchKey(data.email ?? customer.email),
  };
}

const isPg = (knex: Knex) => knex.client.config.client === 'pg';

const NEW_KEYS = ['name_lower', 'customer_lower', 'surname_lower', 'email_lower'] as const;
/** Every searched column of store_orders and its index names' stem. */
const SEARCHED = [...NEW_KEYS, 'order_number', 'store_order_id'] as const;

const indexNames = (column: string) => ({ site: `store_orders_search_site_${column}`, all: `store_orders_search_${column}` });

export async function up(knex: Knex): Promise<void> {
  const pg = isPg(knex);
  const collate = pg ? 'collate "C"' : 'collate binary';
  await knex.schema.alterTable('store_orders', (t) => {
    for (const c of NEW_KEYS) t.string(c, 255);
  });

  // Backfill before the indexes exist (cheaper than updating them row by row).
  const BATCH = 1000;
  let after = 0;
  let filled = 0;
  for (;;) {
    const rows = (await knex('store_orders').where('id', '>', after).orderBy('id').limit(BATCH).select('id', 'order_name', 'store_data')) as Array<{ id: number; order_name: string | null; store_data: unknown }>;
    if (!rows.length) break;
    await knex.transaction(async (trx) => {
      for (const r of rows) await trx('store_orders').where({ id: r.id }).update(orderSearchColumns(r.order_name, fromJson<Record<string, unknown> | null>(r.store_data, {}) ?? {}));
    });
    filled += rows.length;
    after = Number(rows[rows.length - 1].id);
  }
  if (filled) console.info(`[migration 20261202_022_search_indexes] search keys of ${filled} orders filled`);

  for (const c of SEARCHED) {
    const n = indexNames(c);
    // (site_id, store_order_id) is already the unique index of a site's store orders.
    if (c !== 'store_order_id') await knex.raw(`create index ${n.site} on store_orders (site_id, ${c} ${collate})`);
    await knex.raw(`create index ${n.all} on store_orders (${c} ${collate})`);
  }
  // Designs by SKU are few per site; a job is found through its order (print_jobs_order_line_unique).
}

export async function down(knex: Knex): Promise<void> {
  for (const c of SEARCHED) {
    const n = indexNames(c);
    if (c !== 'store_order_id') await knex.raw(`drop index if exists ${n.site}`);
    await knex.raw(`drop index if exists ${n.all}`);
  }
  await knex.schema.alterTable('store_orders', (t) => {
    for (const c of NEW_KEYS) t.dropColumn(c);
  });
}
