// Everything before the provider call: the site's settings, the order, each line's design, print
// job and print file (asked of modules/production), and the provider's order body.
import { HttpError } from '../../http/errors';
import { quantityOf, routeLine } from '../production';
import { siteSettings, SendFailure, text, type FulfilmentContext } from './context';
import { linesSentOnTheirOwn } from './lineSends';
import { buildOrderBody, shipToOf, sourceOrderIdOf, type HpOrderBody, type MappedLine, type PreGeneratedItem } from './orderBody';
import { linesOfSend, type OutboxRow } from './outbox';
import { findOrder } from './resolveOrder';
import type { HpSettings } from './settings';

export interface PreparedSend {
  body: HpOrderBody;
  items: PreGeneratedItem[];
  skipped: Array<{ lineId: string; reason: string }>;
  settings: HpSettings;
}

/** The provider body of an outbox row's send; a line that cannot go is skipped with the reason. */
export async function prepareSend(ctx: FulfilmentContext, row: OutboxRow): Promise<PreparedSend> {
  const { db, production } = ctx;
  const { siteId, orderId, lineId, actorId, destination } = row.payload;
  const site = await siteSettings(ctx, siteId);
  // A routing rule may name another destination account of the provider.
  const settings = destination ? { ...site.settings, destination } : site.settings;
  const order = await findOrder(db, orderId, siteId);
  if (!order) throw new SendFailure(`Order ${orderId} not found`, true);
  const data = order.data;
  if (!shipToOf(data)) throw new SendFailure('The order has no shipping address', true);
  const allLines = Array.isArray(data.line_items) ? data.line_items : [];
  // A whole-order send leaves out the lines sent (or being sent) on their own: one print per line.
  const ownSends = lineId ? new Map<string, string>() : await linesSentOnTheirOwn(db, siteId, orderId);
  const group = linesOfSend(row.payload);
  const lines = group ? allLines.filter((l) => group.includes(text(l.id))) : allLines.filter((l) => !ownSends.has(text(l.id)));
  if (group && !lines.length) throw new SendFailure(`Line ${group.join(', ')} is not in order ${orderId}`, true);
  const sourceOrderId = sourceOrderIdOf(orderId, lineId);
  const mapped: MappedLine[] = [];
  const skipped: Array<{ lineId: string; reason: string }> = [...ownSends].map(([id, reason]) => ({ lineId: id, reason }));
  const items: PreGeneratedItem[] = [];
  const mappings = await production.mapLines(siteId, { line_items: lines });
  for (const m of mappings) {
    const { line } = m;
    const id = text(line.id);
    // Asked before its job is found or made: a line only the floor can make (or none) is left out.
    const route = routeLine({ mapping: m });
    const design = m.design;
    if (route.goes !== 'provider' || !design?.hpSKU) {
      skipped.push({ lineId: id, reason: route.reason });
      continue;
    }
    let pdfUrl: string;
    let printJobId: number;
    try {
      // The line's own job: personalised with the line's properties, the file the operators see.
      const { job } = await production.jobForLine({ siteId, orderId, line, design, actorId, madeBy: 'provider' });
      const withJob = routeLine({ mapping: m, job });
      // A held job goes nowhere until someone approves it (or fixes the design and re-checks).
      if (withJob.code === 'held') {
        skipped.push({ lineId: id, reason: withJob.reason });
        continue;
      }
      // Queued here after the send was asked for: an untouched job moves to the provider; one
      // being printed here stays, and the line is left out rather than made twice.
      if (withJob.code === 'printing-in-house') {
        skipped.push({ lineId: id, reason: `${withJob.reason}; send it again to choose` });
        continue;
      }
      if (withJob.goes === 'in-house') await production.moveToProvider(job, actorId);
      pdfUrl = await production.printFileUrl(job);
      printJobId = job.id;
    } catch (err) {
      if (err instanceof HttpError) throw new SendFailure(`Line ${id}: ${err.message}`, err.status < 500);
      throw err;
    }
    const quantity = quantityOf(line);
    mapped.push({ line, lineId: id, hpSKU: design.hpSKU, quantity, pdfUrl, hpAdditionData: design.hpAdditionData });
    items.push({ lineId: id, sourceOrderId, sourceItemId: id, sku: design.hpSKU, quantity, path: pdfUrl, printJobId, hpOrderId: null, sentAt: '' });
  }
  if (!mapped.length) {
    const why = skipped.map((s) => `line ${s.lineId}: ${s.reason}`).join('; ');
    throw new SendFailure(lineId ? `This line cannot be sent to HP (${why})` : `No line of this order can be sent to HP${why ? ` (${why})` : ''}`, true, { skipped });
  }
  const body = buildOrderBody({ sourceOrderId, order: data, lines: mapped, settings });
  return { body, items, skipped, settings };
}
