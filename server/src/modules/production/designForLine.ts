// Which design prints an order line. One order of precedence, used by every path that prints:
// 1. the site's design whose SKU is the line's SKU;
// 2. else a `product` record of the site (field1 = the store SKU) naming a design of the same site
//    (its field2, the contract's place; data.designId for records written before that).
// A line whose design is an E-card is never printed: it is e-mailed (the pipeline's sendEcard).
import type { Knex } from 'knex';
import { isEcard } from '../../../../common/design-doc/types';
import type { Db } from '../../db';
import { type Design, findDesign, findDesignBySku } from '../designs';
import { listRecords } from '../general-data';
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

/** The design of one SKU in a site, and how it was found. `db` may be a transaction (SQLite has one connection: reads inside one must use it). */
export async function designForSku(db: Db | Knex.Transaction, siteId: number, sku: string): Promise<Omit<LineMapping, 'line'>> {
  const design = await findDesignBySku(db, siteId, sku);
  if (design) return { design, via: 'design' };
  const { rows } = await listRecords(db, { type: PRODUCT_TYPE, siteId, field1: sku }, { field: 'id', order: 'desc' }, 1, 0);
  const product = rows[0];
  if (!product) return { design: null, via: null, reason: `No design or product has the SKU ${sku}` };
  const designId = productDesignId(product);
  const mapped = designId ? await findDesign(db, designId) : undefined;
  if (!mapped || mapped.siteId !== siteId) return { design: null, via: null, reason: `The product ${sku} names a design that does not exist` };
  return { design: mapped, via: 'product' };
}

/** The design of each line of an order (a SKU is looked up once). */
export async function mapLines<L extends LineRef>(db: Db | Knex.Transaction, siteId: number, order: { line_items: L[] }): Promise<Array<LineMapping<L>>> {
  const bySku = new Map<string, Promise<Omit<LineMapping, 'line'>>>();
  return Promise.all(
    order.line_items.map(async (line) => {
      if (unitsToMake(line) === 0) return { line, design: null, via: null, reason: NOTHING_LEFT, removed: true };
      const sku = typeof line.sku === 'string' ? line.sku.trim() : '';
      if (!sku) return { line, design: null, via: null, reason: 'The line has no SKU' };
      if (!bySku.has(sku)) bySku.set(sku, designForSku(db, siteId, sku));
      const found = await bySku.get(sku)!;
      // The design is kept: the e-card's front is drawn from it for the e-mail.
      return isEcardDesign(found.design) ? { line, ...found, reason: ECARD_NOT_PRINTED, ecard: true } : { line, ...found };
    }),
  );
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
