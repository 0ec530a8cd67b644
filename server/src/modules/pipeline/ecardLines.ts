// Which lines of an order are e-cards (production/designForLine.ts marks them: their design is of
// product type E-card), with units left.
import type { Knex } from 'knex';
import type { Db } from '../../db';
import type { Design } from '../designs';
import type { StoreLineItem } from '../fulfilment';
import { mapLines } from '../production';
import { text } from '../fulfilment';

/** The e-card lines of an order with units left (a removed or refunded line sends nothing). */
export async function ecardLinesOf(db: Db | Knex.Transaction, siteId: number, order: { line_items?: StoreLineItem[] }): Promise<Array<{ lineId: string; line: StoreLineItem; design: Design }>> {
  const mappings = await mapLines(db, siteId, { line_items: order.line_items ?? [] });
  return mappings.filter((m) => m.ecard && m.design).map((m) => ({ lineId: text(m.line.id), line: m.line, design: m.design! }));
}
