// Which design prints an order line. One order of precedence, used by every path that prints:
// 1. the site's design whose SKU is the line's SKU;
// 2. else a `product` record of the site (field1 = the store SKU) naming a design of the same site
//    (its field2, the contract's place; data.designId for records written before that).
// A line whose design is an E-card is never printed: it is e-mailed (the pipeline's sendEcard).
import type { Knex } from 'knex';
import { isEcard } from '../../../../common/design-doc/types';
import type { Db } from '../../db';
import { type Design, findDesignsByIds, findDesignsBySkus } from '../designs';
import { newestRecordsByField1 } from '../general-data';
import { RECORD_TYPES } from '../records';
import { NOTHING_LEFT, unitsToMake, type LineUnits } from '../../../../common/api/units';

/** What finding a line's design reads of a line: a stored store line or a normalised one. */
export interface LineRef extends LineUnits {
  id: string | number;
  sku?: string | null;
}

export const PRODUCT_TYPE = RECORD_TYPES.product;

export interface LineMapping<L extends LineRef = LineRef> {
  line: L;
  design: Design | null;
  /** How the design was found. */
  via: 'design' | 'product' | null;
  /** Why there is no design. */
  reason?: string;
  /** Every unit of the line was removed or refunded: it is not printed (and blocks nothing). */
  removed?: boolean;
  /** The line's design is an E-card: e-mailed to its recipient, not printed (and blocks nothing). */
  ecard?: boolean;
}

export const ECARD_NOT_PRINTED = 'An e-card is e-mailed to its recipient, never printed';
export const NOTHING_TO_PRINT_ECARDS = 'Nothing to send: e-cards are e-mailed to their recipients, never printed';

/** A design that is never printed, sent to the provider, or made into a print file. */
export const isEcardDesign = (design: Pick<Design, 'productType'> | null | undefined): boolean => isEcard(design?.productType);

/** A line that is not printed: its units are gone, or it is an e-card. */
const notPrinted = (m: LineMapping) => Boolean(m.removed || m.ecard);

/** The product record's design id: field2 (contract), else data.designId. */
export function productDesignId(record: { field2: string | null; data: Record<string, unknown> }): number | undefined {
  const raw = record.field2 || record.data.designId;
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/**
 * The design of each SKU in a site, and how it was found (`db` may be a transaction: SQLite has
 * one connection, so reads inside one must use it): the designs of every SKU in one
 * statement, then, for the SKUs no design has, their newest product records in one and the
 * designs those name in one. Sequential: one transaction is one connection (PostgreSQL's client
 * runs one query at a time, and concurrent queries on it are deprecated).
 */
export async function designsForSkus(db: Db | Knex.Transaction, siteId: number, skus: string[]): Promise<Map<string, Omit<LineMapping, 'line'>>> {
  const out = new Map<string, Omit<LineMapping, 'line'>>();
  const wanted = [...new Set(skus)];
  if (!wanted.length) return out;
  const designs = await findDesignsBySkus(db, siteId, wanted);
  for (const [sku, design] of designs) out.set(sku, { design, via: 'design' });
  const missing = wanted.filter((sku) => !designs.has(sku));
  if (!missing.length) return out;
  const products = await newestRecordsByField1(db, PRODUCT_TYPE, siteId, missing);
  const named = new Map([...products].map(([sku, product]) => [sku, productDesignId(product)]));
  const byId = await findDesignsByIds(db, [...named.values()].filter((id): id is number => id !== undefined));
  for (const sku of missing) {
    if (!products.has(sku)) {
      out.set(sku, { design: null, via: null, reason: `No design or product has the SKU ${sku}` });
      continue;
    }
    const designId = named.get(sku);
    const mapped = designId ? byId.get(designId) : undefined;
    out.set(sku, !mapped || mapped.siteId !== siteId ? { design: null, via: null, reason: `The product ${sku} names a design that does not exist` } : { design: mapped, via: 'product' });
  }
  return out;
}

/** The design of each line of an order (its SKUs looked up together). */
export async function mapLines<L extends LineRef>(db: Db | Knex.Transaction, siteId: number, order: { line_items: L[] }): Promise<Array<LineMapping<L>>> {
  const skuOf = (line: L) => (typeof line.sku === 'string' ? line.sku.trim() : '');
  const printed = order.line_items.filter((line) => unitsToMake(line) > 0);
  const found = await designsForSkus(db, siteId, printed.map(skuOf).filter(Boolean));
  return order.line_items.map((line): LineMapping<L> => {
    if (unitsToMake(line) === 0) return { line, design: null, via: null, reason: NOTHING_LEFT, removed: true };
    const sku = skuOf(line);
    if (!sku) return { line, design: null, via: null, reason: 'The line has no SKU' };
    const mapping = found.get(sku)!;
    // The design is kept: the e-card's front is drawn from it for the e-mail.
    return isEcardDesign(mapping.design) ? { line, ...mapping, reason: ECARD_NOT_PRINTED, ecard: true } : { line, ...mapping };
  });
}

/** The design of one line. */
export const designForLine = async <L extends LineRef>(db: Db | Knex.Transaction, siteId: number, line: L): Promise<LineMapping<L>> => (await mapLines(db, siteId, { line_items: [line] }))[0];

/** Auto-send rule: the order has lines to print and every one maps to a design with a provider SKU. */
export function readyForProvider(mappings: LineMapping[]): boolean {
  const printed = mappings.filter((m) => !notPrinted(m));
  return printed.length > 0 && printed.every((m) => Boolean(m.design?.hpSKU));
}

/** Why a line cannot go to the provider (undefined when it can). */
export function providerBlocker(m: LineMapping): string | undefined {
  if (m.ecard) return ECARD_NOT_PRINTED;
  if (m.design?.hpSKU) return undefined;
  return m.design ? `The design "${m.design.name}" has no provider SKU (hpSKU)` : (m.reason ?? 'No design');
}

/** Why an order cannot go to the provider, per line (empty when it can). */
export function providerBlockers(mappings: LineMapping[]): Array<{ lineId: string; reason: string }> {
  return mappings.flatMap((m) => {
    if (notPrinted(m)) return [];
    const reason = providerBlocker(m);
    return reason ? [{ lineId: String(m.line.id), reason }] : [];
  });
}

/** Why an order (or the lines asked for) has nothing to print or send: every line left is an e-card. Undefined when a line prints. */
export function nothingToPrint(mappings: LineMapping[]): string | undefined {
  const left = mappings.filter((m) => !m.removed);
  return left.length > 0 && left.every((m) => m.ecard) ? NOTHING_TO_PRINT_ECARDS : undefined;
}
