// SQL of the header search: a few rows of each kind whose words start with the query, one site's
// (siteId) or every site's (undefined). Orders are a million rows: each of their keys is searched
// as a range over its own index (migrations/20261202_022_search_indexes.ts), never scanned. Designs,
// sites and users are a site's hundreds of rows: a LIKE over them is enough.
import type { Knex } from 'knex';
import { fromJson, isPostgres, likeLiteral, prefixEnd, type Db } from '../../db';

/** The searched columns of store_orders, in the order their matches are shown. */
export type OrderKey = 'name_lower' | 'order_number' | 'store_order_id' | 'customer_lower' | 'surname_lower' | 'email_lower';

export interface OrderMatch {
  id: number;
  siteId: number;
  orderId: string;
  name: string | null;
  status: string;
  createdAt: string;
  storeData: Record<string, unknown>;
}

export interface JobMatch {
  id: number;
  siteId: number;
  productName: string;
  orderId: string | null;
  orderName: string | null;
  isPrinted: boolean;
  held: boolean;
  withdrawn: boolean;
}

export interface BatchMatch {
  id: number;
  siteId: number;
  number: number;
  state: string;
}

export interface DesignMatch {
  id: number;
  siteId: number;
  name: string;
  sku: string | null;
  productType: string | null;
}

export interface SiteMatch {
  id: number;
  name: string;
  slug: string;
}

export interface UserMatch {
  id: number;
  siteId: number;
  firstName: string;
  lastName: string;
  email: string;
  role: string;
}

const flag = (v: unknown) => v === true || v === 1 || v === '1';

export function searchRepo(db: Db) {
  // Byte order, as the indexes are built (see the migration).
  const C = isPostgres(db) ? 'collate "C"' : 'collate binary';
  const scoped = (q: Knex.QueryBuilder, column: string, siteId: number | undefined) => (siteId === undefined ? q : q.where(column, siteId));
  /** `lower(column)` starts with the query, or (words) one of its words does. */
  const startsWith = (w: Knex.QueryBuilder, column: string, key: string, words = false) => {
    w.orWhereRaw(`lower(${column}) like ? escape '!'`, [`${likeLiteral(key)}%`]);
    if (words) w.orWhereRaw(`lower(${column}) like ? escape '!'`, [`% ${likeLiteral(key)}%`]);
  };

  return {
    /**
     * Orders whose keys start with the given prefixes, each key's first `limit` in key order, in
     * the order of `prefixes` (an order matching twice comes back twice: the caller keeps the first).
     */
    async orders(siteId: number | undefined, prefixes: ReadonlyArray<[OrderKey, string]>, limit: number): Promise<OrderMatch[]> {
      if (!prefixes.length) return [];
      const branch = ([column, prefix]: [OrderKey, string], rank: number) =>
        db
          .select('*')
          .from(
            scoped(db('store_orders'), 'site_id', siteId)
              .select('id', 'site_id', 'store_order_id', 'order_name', 'status', 'created_at', 'store_data', db.raw(`${rank} as search_rank`))
              .whereRaw(`${column} ${C} >= ? and ${column} ${C} < ?`, [prefix, prefixEnd(prefix)])
              .orderByRaw(`${column} ${C}`)
              .limit(limit)
              .as(`k${rank}`),
          );
      const [first, ...rest] = prefixes.map(branch);
      const rows = (await (rest.length ? first.unionAll(rest) : first)) as Array<{ id: number; site_id: number; store_order_id: string; order_name: string | null; status: string; created_at: string; store_data: unknown; search_rank: number | string }>;
      return rows
        .sort((a, b) => Number(a.search_rank) - Number(b.search_rank))
        .map((r) => ({ id: Number(r.id), siteId: Number(r.site_id), orderId: r.store_order_id, name: r.order_name, status: r.status, createdAt: r.created_at, storeData: fromJson<Record<string, unknown>>(r.store_data, {}) }));
    },

    /** The job numbered `id` and the jobs of these orders (each of its own site), newest first. */
    async jobs(siteId: number | undefined, f: { id?: number; orders: ReadonlyArray<{ siteId: number; orderId: string }> }, limit: number): Promise<JobMatch[]> {
      // Each alternative carries the site itself, so each is one index lookup: the site as a condition
      // around them all would read every job of the site.
      const orders = f.orders.filter((o) => siteId === undefined || o.siteId === siteId);
      if (f.id === undefined && !orders.length) return [];
      const q = db('print_jobs as j')
        .where((w) => {
          if (f.id !== undefined) w.orWhere((and) => scoped(and.where('j.id', f.id), 'j.client_id', siteId));
          for (const o of orders) w.orWhere((and) => and.where('j.shopify_order_id', o.orderId).where('j.client_id', o.siteId));
        })
        .leftJoin('store_orders as o', (on) => on.on('o.site_id', '=', 'j.client_id').andOn('o.store_order_id', '=', 'j.shopify_order_id'))
        .select('j.id', 'j.client_id', 'j.product_name', 'j.shopify_order_id', 'j.is_printed', 'j.held', 'j.withdrawn_at', 'o.order_name')
        .orderBy('j.id', 'desc')
        .limit(limit);
      return ((await q) as Array<Record<string, unknown>>).map((r) => ({
        id: Number(r.id),
        siteId: Number(r.client_id),
        productName: String(r.product_name),
        orderId: (r.shopify_order_id as string | null) ?? null,
        orderName: (r.order_name as string | null) ?? null,
        isPrinted: flag(r.is_printed),
        held: flag(r.held),
        withdrawn: r.withdrawn_at !== null && r.withdrawn_at !== undefined,
      }));
    },

    /** Designs whose name (or a word of it) or SKU starts with `key` (lower case), by name. */
    async designs(siteId: number | undefined, key: string, limit: number): Promise<DesignMatch[]> {
      const rows = await scoped(db('designs'), 'site_id', siteId)
        .where((w) => {
          startsWith(w, 'name', key, true);
          startsWith(w, 'sku', key);
        })
        .orderBy('name')
        .orderBy('id')
        .limit(limit)
        .select('id', 'site_id', 'name', 'sku', 'product_type');
      return (rows as Array<Record<string, unknown>>).map((r) => ({ id: Number(r.id), siteId: Number(r.site_id), name: String(r.name), sku: (r.sku as string | null) ?? null, productType: (r.product_type as string | null) ?? null }));
    },

    /** Sites whose name (or a word of it) or slug starts with `key`, by name. */
    async sites(key: string, limit: number): Promise<SiteMatch[]> {
      const rows = await db('sites')
        .where((w) => {
          startsWith(w, 'name', key, true);
          startsWith(w, 'slug', key);
        })
        .orderBy('name')
        .orderBy('id')
        .limit(limit)
        .select('id', 'name', 'slug');
      return (rows as Array<Record<string, unknown>>).map((r) => ({ id: Number(r.id), name: String(r.name), slug: String(r.slug) }));
    },

    /** Users whose first name, last name, full name or email starts with `key`, by name. */
    async users(key: string, limit: number): Promise<UserMatch[]> {
      const rows = await db('users')
        .where((w) => {
          startsWith(w, 'first_name', key);
          startsWith(w, 'last_name', key, true);
          startsWith(w, "first_name || ' ' || last_name", key);
          startsWith(w, 'email', key);
        })
        .orderBy('first_name')
        .orderBy('last_name')
        .orderBy('id')
        .limit(limit)
        .select('id', 'site_id', 'first_name', 'last_name', 'email', 'role');
      return (rows as Array<Record<string, unknown>>).map((r) => ({ id: Number(r.id), siteId: Number(r.site_id), firstName: String(r.first_name), lastName: String(r.last_name ?? ''), email: String(r.email), role: String(r.role) }));
    },

    /** The batches numbered `number` (one a site), by site. */
    async batches(siteId: number | undefined, number: number, limit: number): Promise<BatchMatch[]> {
      const rows = await scoped(db('batches'), 'site_id', siteId).where('number', number).orderBy('site_id').limit(limit).select('id', 'site_id', 'number', 'state');
      return (rows as Array<Record<string, unknown>>).map((r) => ({ id: Number(r.id), siteId: Number(r.site_id), number: Number(r.number), state: String(r.state) }));
    },

    /** Names of these sites, by id. */
    async siteNames(ids: readonly number[]): Promise<Map<number, string>> {
      if (!ids.length) return new Map();
      const rows = (await db('sites').whereIn('id', [...new Set(ids)]).select('id', 'name')) as Array<{ id: number; name: string }>;
      return new Map(rows.map((r) => [Number(r.id), r.name]));
    },
  };
}

export type SearchRepo = ReturnType<typeof searchRepo>;
