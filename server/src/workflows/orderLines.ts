// The order screens' line actions: order-to-arwork, a line's print file and its pages. A use case
// of orders and production together: orders find the order and the line (and its holds), production
// says what prints it.
import type { Db } from '../db';
import { HttpError, badRequest, conflict, notFound } from '../http/errors';
import type { Actor } from '../http/types';
import type { PrintJob } from '../modules/print-jobs';
import { ECARD_NOT_PRINTED, routeLine, type LineMapping, type ProductionService } from '../modules/production';
import { ORDER_CANCELLED, ORDER_UNPAID, orderFor, printHold, sendWhenOf, type OrderLine, type OrderLineInput, type OrderRecord } from '../modules/orders';
import { findSite } from '../modules/sites';
import { recordManualRoute } from '../modules/routing';
import type { MakeInHouseRefusal, MakeInHouseResult, OrderMadeInHouse } from '../../../common/api/orders';
import { fieldError } from '../http/fieldErrors';

export interface LinesContext {
  db: Db;
  production: ProductionService;
}

/** A cancelled order is not printed in house either: refused, saying why. */
function refuseCancelled(order: OrderRecord): void {
  const hold = printHold(order.data, 'created');
  if (hold) throw conflict(hold.message);
}

/** order-to-arwork: each mapped line's print job (made if it has none, personalised with the line's properties). */
export async function orderToArtwork({ db, production }: LinesContext, actor: Actor, id: string, siteId?: number, ownOrigin?: string): Promise<{ jobs: PrintJob[]; skipped: Array<{ lineId: string; reason: string }> }> {
  const order = await orderFor(db, actor, id, siteId);
  refuseCancelled(order);
  const routes = await production.routeLines(db, order.siteId, { ...order.data, id: order.field1! });
  const jobs: PrintJob[] = [];
  const skipped: Array<{ lineId: string; reason: string }> = [];
  for (const { mapping: m, route: placed } of routes) {
    // A line in its change window or waiting for its proof is left out, saying until when.
    if (placed.code === 'waiting') {
      skipped.push({ lineId: String(m.line.id), reason: placed.reason });
      continue;
    }
    // Lines production says are never printed (units gone, e-cards, no design) are left out.
    const route = routeLine({ mapping: m });
    if (!m.design || route.goes === 'nowhere' || route.goes === 'email') {
      skipped.push({ lineId: String(m.line.id), reason: route.reason });
      continue;
    }
    try {
      const { job } = await production.jobForLine({ siteId: order.siteId, orderId: order.field1!, line: m.line, design: m.design, actorId: actor.id, madeBy: 'inHouse', ownOrigin });
      jobs.push(job);
    } catch (err) {
      // A design that cannot print yet (no artwork, a broken document) is this line's problem only.
      if (!(err instanceof HttpError) || err.status >= 500 || err.status === 409) throw err;
      skipped.push({ lineId: String(m.line.id), reason: err.message });
    }
  }
  return { jobs, skipped };
}

/**
 * One order of List Orders' Make in house: each line that may be printed here gets its print job
 * (made in house); the order is refused whole when it is cancelled, shipped or (on a site that
 * sends once paid) unpaid, and a line when HP Site Flow has it, it is an e-card or it cannot be made.
 */
async function makeOneInHouse({ db, production }: LinesContext, actor: Actor, order: OrderRecord, ownOrigin?: string): Promise<OrderMadeInHouse> {
  const orderId = order.field1!;
  const out: OrderMadeInHouse = { orderId, name: order.data.name ?? null, siteId: order.siteId, outcome: 'refused', made: [], already: [], refused: [] };
  const refuse = (r: MakeInHouseRefusal) => out.refused.push(r);
  const hold = printHold(order.data, sendWhenOf(await findSite(db, order.siteId)));
  if (hold?.code === ORDER_CANCELLED) refuse({ lineId: null, code: 'cancelled', reason: hold.message });
  else if ((order.status ?? order.data.status) === 'shipped') refuse({ lineId: null, code: 'shipped', reason: 'The order has shipped: reprint its jobs from Print History' });
  else if (hold?.code === ORDER_UNPAID) refuse({ lineId: null, code: 'unpaid', reason: `${hold.message}: it is made once paid` });
  if (out.refused.length) return out;
  // Where each line goes is production's to say; the order's own holds were answered above.
  for (const { mapping: m, job: existing, route } of await production.routeLines(db, order.siteId, { ...order.data, id: orderId })) {
    const lineId = String(m.line.id);
    if (route.goes === 'provider' && (existing || route.code === 'at-provider')) refuse({ lineId, code: 'at-provider', reason: existing ? `Sent to HP Site Flow (job #${existing.id}): HP makes it` : route.reason });
    else if (route.code === 'withdrawn') refuse({ lineId, code: 'cannot-make', reason: route.reason });
    else if (route.code === 'waiting') refuse({ lineId, code: 'waiting', reason: `${route.reason}: it is made once released` });
    else if (existing) out.already.push(existing.id);
    else if (route.code === 'ecard') refuse({ lineId, code: 'ecard', reason: route.reason });
    else if (!m.design) refuse({ lineId, code: 'cannot-make', reason: route.reason });
    else {
      try {
        const { job } = await production.jobForLine({ siteId: order.siteId, orderId, line: m.line, design: m.design, actorId: actor.id, madeBy: 'inHouse', ownOrigin });
        out.made.push(job.id);
        // Add to print jobs overrides the routing rules: the line's route says who chose.
        await recordManualRoute(db, { siteId: order.siteId, orderId, lineIds: [lineId], action: 'inHouse', actorId: actor.id, at: new Date().toISOString() });
      } catch (err) {
        // A design that cannot print yet (no artwork, a broken document) is this line's problem only.
        if (!(err instanceof HttpError) || err.status >= 500) throw err;
        refuse({ lineId, code: 'cannot-make', reason: err.message });
      }
    }
  }
  out.outcome = out.made.length ? 'made' : out.already.length ? 'already' : 'refused';
  return out;
}

/** order-to-arwork `{ids}`: each order made in house as far as it may be, one after the other; an unknown order is refused, not an error. */
export async function makeOrdersInHouse(ctx: LinesContext, actor: Actor, ids: string[], siteId?: number, ownOrigin?: string): Promise<MakeInHouseResult> {
  const orders: OrderMadeInHouse[] = [];
  for (const id of [...new Set(ids)]) {
    let order: OrderRecord;
    try {
      order = await orderFor(ctx.db, actor, id, siteId);
    } catch (err) {
      if (!(err instanceof HttpError) || err.status !== 404) throw err;
      orders.push({ orderId: id, name: null, siteId: siteId ?? null, outcome: 'refused', made: [], already: [], refused: [{ lineId: null, code: 'not-found', reason: err.message }] });
      continue;
    }
    orders.push(await makeOneInHouse(ctx, actor, order, ownOrigin));
  }
  return { orders };
}

async function lineOf({ db, production }: LinesContext, actor: Actor, input: OrderLineInput): Promise<{ order: OrderRecord; line: OrderLine; mapping: LineMapping<OrderLine> }> {
  const order = await orderFor(db, actor, input.id, input.siteId);
  const line = order.data.line_items?.find((l) => l.id === input.lineId);
  if (!line) throw notFound('The order has no such line');
  return { order, line, mapping: await production.designForLine(order.siteId, line) };
}

/** hood-download-pdf: the line's print file, as the Jobs download gives it (the line's job is made if it has none, and marked downloaded). */
export async function linePdf(ctx: LinesContext, actor: Actor, input: OrderLineInput & { printInHouse?: boolean }, ownOrigin: string): Promise<Buffer> {
  const { order, line, mapping } = await lineOf(ctx, actor, input);
  const { production } = ctx;
  refuseCancelled(order);
  if (mapping.removed) throw badRequest(mapping.reason ?? 'No units left to print');
  if (mapping.ecard) throw badRequest(ECARD_NOT_PRINTED);
  const existing = await production.jobOfLine(order.siteId, order.field1!, line.id);
  if (!existing && !mapping.design) throw badRequest(mapping.reason ?? 'No design');
  if (!existing) await production.refuseWaiting(ctx.db, order.siteId, order.field1!, [line.id]);
  return production.downloadLineFile(actor, { siteId: order.siteId, orderId: order.field1!, line, design: mapping.design ?? undefined, ownOrigin, printInHouse: input.printInHouse });
}

/**
 * hood-generate-image (every page) / hood-generate-page-content-image (`page`, 1-based). A line
 * with a print job answers its pages (what prints); otherwise a personalised design is drawn with
 * the line's properties (`missing` names those that drew their sample) and other designs answer
 * their artwork.
 */
export async function lineImages(ctx: LinesContext, actor: Actor, input: OrderLineInput & { page?: number }, ownOrigin?: string): Promise<{ images: string[]; preview: string | null; missing: string[] }> {
  const { order, line, mapping } = await lineOf(ctx, actor, input);
  const { production } = ctx;
  const job = await production.jobOfLine(order.siteId, order.field1!, line.id);
  const pick = (images: string[], preview: string | null, missing: string[]) => {
    if (input.page !== undefined && input.page > images.length) throw fieldError('page', `must be at most ${images.length} (the job has ${images.length} page${images.length === 1 ? '' : 's'})`);
    return { images: input.page === undefined ? images : [images[input.page - 1]], preview, missing };
  };
  if (job && job.artworkUrls.length) {
    const missing = Array.isArray(job.data.missingFields) ? job.data.missingFields.map(String) : [];
    return pick(job.artworkUrls, job.previewUrl, missing);
  }
  if (!mapping.design) throw badRequest(mapping.reason ?? 'No design');
  return production.linePages(actor, order.siteId, mapping.design, line, { page: input.page, ownOrigin });
}
