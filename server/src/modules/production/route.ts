// Where an order line goes, and whether it may go now: printed in house, made by the provider (HP
// Site Flow), e-mailed (an e-card), or nowhere — with the reason. One decision, asked by auto-send,
// the provider sends (Send HP, one line), Make in house (the Jobs queue) and Check order.
import type { PrintJob } from '../print-jobs';
import { firstError } from '../print-jobs';
import { ECARD_NOT_PRINTED, providerBlocker, type LineMapping } from './designForLine';
import { ORDER_CANCELLED, ORDER_UNPAID, type PrintHold } from '../orders';
import { NOTHING_LEFT } from '../../../../common/api/units';
import type { LineWaiting } from '../../../../common/api/waiting';

export type LineGoes = 'in-house' | 'provider' | 'email' | 'nowhere';

/** Why a line goes where it goes (or waits). */
export const ROUTE_CODES = [
  /** The order was cancelled in the store. */
  'cancelled',
  /** The order is not paid yet (SHOPIFY_SEND_WHEN=paid). */
  'unpaid',
  /** In the site's change window, or waiting for the buyer to approve its proof. */
  'waiting',
  /** Every unit of the line was removed or refunded. */
  'removed',
  /** An e-card: e-mailed to its recipient. */
  'ecard',
  /** The line's job left the queue. */
  'withdrawn',
  /** The line's job is held by preflight until someone approves it, or for stock until it is received. */
  'held',
  /** The provider has it (its job is the provider's, or the line was sent). */
  'at-provider',
  /** Its job is being printed in house (downloaded or printed). */
  'printing-in-house',
  /** Its job waits in the Jobs queue. */
  'queued-in-house',
  /** No design prints it. */
  'no-design',
  /** Its design has no provider SKU: only the floor can make it. */
  'no-provider-sku',
  /** Nothing stands in the way: the provider may make it now. */
  'ready',
] as const;
export type RouteCode = (typeof ROUTE_CODES)[number];

export interface LineRoute {
  lineId: string;
  goes: LineGoes;
  /** May it go there now (false: it is there already, or waits). */
  now: boolean;
  code: RouteCode;
  reason: string;
  /** What the line waits for before it is made (modules/waiting), or null. */
  waiting: LineWaiting | null;
}

/** What the decision reads of a line: the order's hold, the line's design, its job, and whether it was sent. */
export interface RouteInput {
  hold?: PrintHold;
  mapping: LineMapping;
  job?: Pick<PrintJob, 'id' | 'madeBy' | 'held' | 'withdrawn' | 'isPrinted' | 'isPDFDownloaded' | 'preflight'> & { stockHold?: string | null };
  /** The order's record says the provider was sent this line. */
  sentToProvider?: boolean;
  /** What the line waits for (the change window, the proof) and that as a sentence. */
  waiting?: { state: LineWaiting; sentence: string } | null;
}

/**
 * Where the line goes and whether it may go now. In order: a cancelled order stops everything; a
 * line with a job goes where its job is (out of the queue, held, or there); a line sent
 * without a job is the provider's; then what the line is (units gone, an e-card, no design); an
 * unpaid order waits, and so does a line in its change window or waiting for its proof; a design
 * without a provider SKU is made in house; else the provider.
 */
export function routeLine({ hold, mapping, job, sentToProvider, waiting }: RouteInput): LineRoute {
  const lineId = String(mapping.line.id);
  const route = (goes: LineGoes, now: boolean, code: RouteCode, reason: string): LineRoute => ({ lineId, goes, now, code, reason, waiting: job || sentToProvider ? null : (waiting?.state ?? null) });
  if (hold?.code === ORDER_CANCELLED) return route('nowhere', false, 'cancelled', hold.message);
  if (job) {
    const jobGoes: LineGoes = job.madeBy === 'provider' ? 'provider' : 'in-house';
    if (job.withdrawn) return route(jobGoes, false, 'withdrawn', `Job #${job.id} left the queue: ${job.withdrawn.reason}`);
    // A job the stock cannot cover is held too, but for its blanks, not its print file.
    if (job.held && job.stockHold) return route(jobGoes, false, 'held', `held for stock: ${job.stockHold}`);
    if (job.held) return route(jobGoes, false, 'held', `held by preflight: ${firstError(job.preflight)?.message ?? 'an error was found'}`);
    if (job.madeBy === 'provider') return route('provider', false, 'at-provider', `Sent to HP Site Flow (job #${job.id}): HP makes it`);
    if (job.isPDFDownloaded || job.isPrinted) return route('in-house', false, 'printing-in-house', `it is being printed in house (job #${job.id})`);
    return route('in-house', false, 'queued-in-house', `In the Jobs queue (job #${job.id})`);
  }
  if (sentToProvider) return route('provider', false, 'at-provider', 'Sent to HP Site Flow: HP makes it');
  if (mapping.removed) return route('nowhere', false, 'removed', mapping.reason ?? NOTHING_LEFT);
  if (mapping.ecard) return route('email', hold?.code !== ORDER_UNPAID, 'ecard', ECARD_NOT_PRINTED);
  if (!mapping.design) return route('nowhere', false, 'no-design', mapping.reason ?? 'No design');
  const goes: LineGoes = mapping.design.hpSKU ? 'provider' : 'in-house';
  if (hold?.code === ORDER_UNPAID) return route(goes, false, 'unpaid', hold.message);
  if (waiting) return route(goes, false, 'waiting', `${waiting.sentence[0].toUpperCase()}${waiting.sentence.slice(1)}`);
  if (goes === 'in-house') return route(goes, true, 'no-provider-sku', providerBlocker(mapping) ?? 'No provider SKU');
  return route('provider', true, 'ready', 'The provider makes it');
}

/** The lines the provider was sent (the order's preGeneratedHPItems with a send time). */
export function linesSentToProvider(order: { preGeneratedHPItems?: unknown }): Set<string> {
  const items = Array.isArray(order.preGeneratedHPItems) ? (order.preGeneratedHPItems as Array<{ lineId?: unknown; sentAt?: unknown }>) : [];
  return new Set(items.filter((i) => i.sentAt).map((i) => String(i.lineId)));
}
