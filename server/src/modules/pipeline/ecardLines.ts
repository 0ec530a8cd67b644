// Which lines of an order are e-cards: those whose design (found the way every printed line's is,
// production/designForLine.ts) is of product type E-card.
import type { Knex } from 'knex';
import type { Db } from '../../db';
import type { Design } from '../designs/repo';
import type { StoreLineItem } from '../fulfilment/orderBody';
import { mapLines } from '../production/designForLine';
import { text } from '../fulfilment/context';

export const isEcardDesign = (design: Pick<Design, 'productType'>) => design.productType === 'E-card';

/** The e-card lines of an order with units left (a removed or refunded line sends nothing). */
export async function ecardLinesOf(db: Db | Knex.Transaction, siteId: number, order: { line_items?: StoreLineItem[] }): Promise<Array<{ lineId: string; line: StoreLineItem; design: Design }>> {
  const mappings = await mapLines(db, siteId, { line_items: order.line_items ?? [] });
  return mappings.filter((m) => !m.removed && m.design && isEcardDesign(m.design)).map((m) => ({ lineId: text(m.line.id), line: m.line, design: m.design! }));
}
