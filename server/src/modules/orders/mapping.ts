// Which design prints each order line: the site's design whose sku is the line's SKU, else a
// `product` record (field1 = store SKU) naming the design (docs/orders-fulfilment.md).
import type { Knex } from 'knex';
import type { Db } from '../../db';
import { designsRepo, type Design } from '../designs/repo';
import { generalDataRepo } from '../general-data/repo';
import { RECORD_TYPES } from '../general-data/types';
import type { OrderLine } from './shopify';

export const PRODUCT_TYPE = RECORD_TYPES.product;

export interface LineMapping {
  line: OrderLine;
  design: Design | null;
  /** How the design was found. */
  via: 'design' | 'product' | null;
  /** Why there is no design. */
  reason?: string;
}

/** The product record's design id: field2 (contract), else data.designId. */
export function productDesignId(record: { field2: string | null; data: Record<string, unknown> }): number | undefined {
  const raw = record.field2 ?? record.data.designId;
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/** `db` may be a transaction: inside one, every read must use it (SQLite has one connection). */
export async function mapLines(db: Db | Knex.Transaction, siteId: number, order: { line_items: OrderLine[] }): Promise<LineMapping[]> {
  const designs = designsRepo(db as Db);
  const records = generalDataRepo(db);
  const bySku = new Map<string, Promise<Omit<LineMapping, 'line'>>>();
  const lookup = async (sku: string): Promise<Omit<LineMapping, 'line'>> => {
    const design = await designs.bySku(siteId, sku);
    if (design) return { design, via: 'design' };
    const { rows } = await records.list({ type: PRODUCT_TYPE, siteId, field1: sku }, { field: 'id', order: 'desc' }, 1, 0);
    const product = rows[0];
    if (!product) return { design: null, via: null, reason: `No design or product has the SKU ${sku}` };
    const designId = productDesignId(product);
    const mapped = designId ? await designs.byId(designId) : undefined;
    if (!mapped || mapped.siteId !== siteId) return { design: null, via: null, reason: `The product ${sku} names a design that does not exist` };
    return { design: mapped, via: 'product' };
  };
  return Promise.all(
    order.line_items.map(async (line) => {
      if (!line.sku) return { line, design: null, via: null, reason: 'The line has no SKU' };
      if (!bySku.has(line.sku)) bySku.set(line.sku, lookup(line.sku));
      return { line, ...(await bySku.get(line.sku)!) };
    }),
  );
}

/** Auto-send rule: the order has lines and every one maps to a design with a provider SKU. */
export const readyForProvider = (mappings: LineMapping[]) => mappings.length > 0 && mappings.every((m) => Boolean(m.design?.hpSKU));

/** Why an order cannot go to the provider, per line (empty when it can). */
export function providerBlockers(mappings: LineMapping[]): Array<{ lineId: string; reason: string }> {
  return mappings
    .filter((m) => !m.design?.hpSKU)
    .map((m) => ({ lineId: m.line.id, reason: m.design ? `The design "${m.design.name}" has no provider SKU (hpSKU)` : (m.reason ?? 'No design') }));
}
