import type { Db } from '../../db';
import { canBeRowId, countOf, fromJson, toJson } from '../../db';
import type { Design, DesignData } from '../../../../common/api/printProduction';
import type { HpAdditionData, ProductType } from './schema';

// A design and its data as the API answers them: the same types the admin reads (common/api).
export type { Design, DesignData } from '../../../../common/api/printProduction';

/** Most values bound in one IN (...) list (SQLite's variable limit and PostgreSQL's plan stay small). */
const IN_LIST_MAX = 500;

interface Row {
  id: number;
  site_id: number;
  created_by_user_id: number | null;
  name: string;
  image: string | null;
  sku: string | null;
  is_customizable: boolean | number;
  product_pdf: string | null;
  product_id: string | null;
  product_type: ProductType | null;
  stock?: string | null;
  hp_sku: string | null;
  hp_addition_data: unknown;
  data: unknown;
  created_at: string;
  updated_at: string;
}

const fromRow = (r: Row): Design => {
  const hp = fromJson<Partial<HpAdditionData>>(r.hp_addition_data, {});
  return {
    id: r.id,
    name: r.name,
    image: r.image,
    sku: r.sku,
    isCustomizable: Boolean(r.is_customizable),
    productPdf: r.product_pdf,
    createdByUserId: r.created_by_user_id,
    productId: r.product_id,
    productType: r.product_type,
    stock: r.stock ?? null,
    hpSKU: r.hp_sku,
    hpAdditionData: { attributes: hp.attributes ?? [], stockItems: hp.stockItems ?? [], ...(hp.componentCode ? { componentCode: hp.componentCode } : {}) },
    data: fromJson<DesignData>(r.data, {}),
    siteId: r.site_id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
};

const toRow = (d: Partial<Omit<Design, 'id'>>) => {
  const row: Record<string, unknown> = {};
  if (d.siteId !== undefined) row.site_id = d.siteId;
  if (d.createdByUserId !== undefined) row.created_by_user_id = d.createdByUserId;
  if (d.name !== undefined) row.name = d.name;
  if (d.image !== undefined) row.image = d.image;
  if (d.sku !== undefined) row.sku = d.sku || null;
  if (d.isCustomizable !== undefined) row.is_customizable = d.isCustomizable;
  if (d.productPdf !== undefined) row.product_pdf = d.productPdf;
  if (d.productId !== undefined) row.product_id = d.productId;
  if (d.productType !== undefined) row.product_type = d.productType;
  if (d.stock !== undefined) row.stock = d.stock || null;
  if (d.hpSKU !== undefined) row.hp_sku = d.hpSKU;
  if (d.hpAdditionData !== undefined) row.hp_addition_data = toJson(d.hpAdditionData);
  if (d.data !== undefined) row.data = toJson(d.data);
  if (d.createdAt !== undefined) row.created_at = d.createdAt;
  if (d.updatedAt !== undefined) row.updated_at = d.updatedAt;
  return row;
};

export interface DesignFilter {
  ids?: number[];
  siteId?: number;
  createdByUserId?: number;
  productType?: ProductType;
  q?: string;
}

export type DesignSortField = 'id' | 'name' | 'sku' | 'productType' | 'createdAt' | 'updatedAt' | 'siteId';
const COLUMN: Record<DesignSortField, string> = {
  id: 'id',
  name: 'name',
  sku: 'sku',
  productType: 'product_type',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  siteId: 'site_id',
};

export function designsRepo(db: Db) {
  const filtered = (f: DesignFilter) => {
    const q = db<Row>('designs');
    if (f.ids) q.whereIn('id', f.ids);
    if (f.siteId !== undefined) q.where('site_id', f.siteId);
    if (f.createdByUserId !== undefined) q.where('created_by_user_id', f.createdByUserId);
    if (f.productType !== undefined) q.where('product_type', f.productType);
    if (f.q) {
      const like = `%${f.q.toLowerCase()}%`;
      q.where((w) => w.whereRaw('lower(name) like ?', [like]).orWhereRaw('lower(sku) like ?', [like]));
    }
    return q;
  };
  return {
    async byId(id: number) {
      const r = await db<Row>('designs').where({ id }).first();
      return r ? fromRow(r) : undefined;
    },
    async list(f: DesignFilter, sort: { field: DesignSortField; order: 'asc' | 'desc' }, limit: number, offset: number) {
      const q = filtered(f);
      const [rows, total] = await Promise.all([
        q.clone().select('*').orderBy(COLUMN[sort.field], sort.order).orderBy('id', sort.order).limit(limit).offset(offset),
        countOf(q),
      ]);
      return { rows: (rows as Row[]).map(fromRow), total };
    },
    async bySku(siteId: number, sku: string) {
      const r = await db<Row>('designs').where({ site_id: siteId, sku }).first();
      return r ? fromRow(r) : undefined;
    },
    /** A site's designs of these SKUs, by SKU (a SKU is unique in its site), in one statement per 500 SKUs. */
    async bySkus(siteId: number, skus: string[]): Promise<Map<string, Design>> {
      const out = new Map<string, Design>();
      const wanted = [...new Set(skus)];
      for (let i = 0; i < wanted.length; i += IN_LIST_MAX) {
        for (const r of (await db<Row>('designs').where('site_id', siteId).whereIn('sku', wanted.slice(i, i + IN_LIST_MAX))) as Row[]) out.set(r.sku!, fromRow(r));
      }
      return out;
    },
    /** Designs by id, in one statement per 500 ids (ids no row can have are left out). */
    async byIds(ids: number[]): Promise<Map<number, Design>> {
      const out = new Map<number, Design>();
      const wanted = [...new Set(ids)].filter(canBeRowId);
      for (let i = 0; i < wanted.length; i += IN_LIST_MAX) {
        for (const r of (await db<Row>('designs').whereIn('id', wanted.slice(i, i + IN_LIST_MAX))) as Row[]) out.set(Number(r.id), fromRow(r));
      }
      return out;
    },
    async insert(d: Omit<Design, 'id' | 'stock'> & { stock?: string | null }): Promise<number> {
      const [r] = await db('designs').insert(toRow(d)).returning('id');
      return typeof r === 'object' ? r.id : r;
    },
    update: (id: number, d: Partial<Omit<Design, 'id'>>) => db('designs').where({ id }).update(toRow(d)),
    delete: (id: number) => db('designs').where({ id }).delete(),
    /** Every design with a SKU, and its product type (the orders screen labels line items with it). */
    /** The product type of each of these SKUs among a site's designs (the oldest design of a SKU wins, as bySku finds it). */
    async productTypesOfSkus(siteId: number, skus: string[]): Promise<Map<string, ProductType | null>> {
      if (!skus.length) return new Map();
      const rows = (await db<Row>('designs').where('site_id', siteId).whereIn('sku', skus).select('sku', 'product_type').orderBy('id', 'desc')) as Array<{ sku: string; product_type: ProductType | null }>;
      return new Map(rows.map((r) => [r.sku, r.product_type]));
    },
    async skusWithProductType(siteId: number | undefined) {
      const q = db<Row>('designs').whereNotNull('sku').select('sku', 'product_type').orderBy('sku').orderBy('id');
      if (siteId !== undefined) q.where('site_id', siteId);
      return ((await q) as Array<{ sku: string; product_type: ProductType | null }>).map((r) => ({ sku: r.sku, productType: r.product_type }));
    },
  };
}

export type DesignsRepo = ReturnType<typeof designsRepo>;
