// CRM webhooks (CloudEvents): verified by the site's webhookKey, stored in the inbox deduped by event
// id, answered at once, then the constituent's sync runs, one delivery at a time per site.
import crypto from 'node:crypto';
import { unauthorized } from '../../http/errors';
import { fieldError } from '../../http/fieldErrors';
import type { Delivery, Handled } from '../inbox';
import type { SyncContext } from './context';
import { hasSync, syncSettingsOf, type SiteSync } from './siteSettings';
import { syncDeleted, syncOne } from './syncOne';

export const CLOUD_EVENT_TYPE = 'com.blackbaud.constituent.change.v1';
export const CONSTITUENT_DELETED = 'com.blackbaud.constituent.delete.v1';
/** The events we act on: a change re-syncs the constituent (email addresses too); a deletion takes them off the opt-in list. */
export const HANDLED_EVENT_TYPES = [CLOUD_EVENT_TYPE, 'com.blackbaud.constituent.emailaddress.change.v1', CONSTITUENT_DELETED] as const;
const isHandled = (type: unknown): type is (typeof HANDLED_EVENT_TYPES)[number] => (HANDLED_EVENT_TYPES as readonly unknown[]).includes(type);

/** The constituent an event is about: `data.constituent_id` where the event has one (an email address's event), else `data.id`. */
export function constituentOf(data: unknown): string | undefined {
  const d = (data ?? {}) as { id?: unknown; constituent_id?: unknown };
  const id = d.constituent_id ?? d.id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}
/** The inbox source of CRM webhooks. */
export const RE_SOURCE = 're';

function keyMatches(expected: string, given: unknown): boolean {
  if (!expected || typeof given !== 'string' || !given) return false;
  // Hashed first so the comparison takes the same time whatever the lengths.
  const a = crypto.createHash('sha256').update(expected).digest();
  const b = crypto.createHash('sha256').update(given).digest();
  return crypto.timingSafeEqual(a, b);
}

export function verifyWebhookKey(s: SiteSync, given: unknown): void {
  if (!keyMatches(s.re.webhookKey, given)) throw unauthorized('The webhookKey is missing or wrong');
}

/** Verify, dedupe by event id, store: answers whether it was queued. Processing happens after the answer. */
export async function ingestWebhook(
  { inbox, clock }: Pick<SyncContext, 'inbox' | 'clock'>,
  s: SiteSync,
  webhookKey: unknown,
  body: unknown,
): Promise<{ status: 'queued' | 'duplicate' | 'ignored'; deliveryId?: number; eventId?: string }> {
  verifyWebhookKey(s, webhookKey);
  const event = (body ?? {}) as { type?: unknown; id?: unknown; time?: unknown; data?: unknown };
  if (typeof event.id !== 'string' && typeof event.id !== 'number') throw fieldError('id', 'The CloudEvent has no id.');
  if (!isHandled(event.type)) return { status: 'ignored', eventId: String(event.id) };
  if (constituentOf(event.data) === undefined) throw fieldError('data.id', 'The event names no constituent.');
  // A CloudEvent is unique by source + id (the CloudEvents spec): Blackbaud's own samples share an id across sources.
  const eventSource = typeof (event as { source?: unknown }).source === 'string' ? (event as { source: string }).source : '';
  const eventId = `${s.site.id}:${eventSource ? `${eventSource}:` : ''}${String(event.id)}`.slice(0, 128);
  const deliveryId = await inbox.store({
    source: RE_SOURCE,
    eventId,
    deliveryId: String(event.id).slice(0, 128),
    siteId: s.site.id,
    topic: event.type,
    payload: event,
    status: 'received',
    receivedAt: clock.now().toISOString(),
  });
  if (deliveryId === undefined) return { status: 'duplicate', eventId: String(event.id) };
  return { status: 'queued', deliveryId, eventId: String(event.id) };
}

/** Queue the sync of a stored delivery (one at a time per site); the inbox claims it, so no other instance syncs it too. */
export function processDeliveryLater({ inbox, log, siteQueues, track }: Pick<SyncContext, 'inbox' | 'log' | 'siteQueues' | 'track'>, deliveryId: number, siteId: number): Promise<void> {
  const previous = siteQueues.get(siteId) ?? Promise.resolve();
  const next = previous.then(() => inbox.processDelivery(deliveryId)).then(
    () => undefined,
    (err) => log.error({ err, deliveryId }, 'CRM webhook processing failed'),
  );
  siteQueues.set(siteId, next);
  void next.finally(() => siteQueues.get(siteId) === next && siteQueues.delete(siteId));
  return track(next);
}

/**
 * The inbox handler of CRM webhooks: the constituent's sync, under the inbox's lease on the
 * delivery (it calls the CRM and the email platform, so it runs outside a transaction). A throw
 * leaves the delivery failed for the recovery pass; a constituent the CRM does not know is done
 * (its run record says so; asking again would not find it either).
 */
export async function processDelivery(ctx: SyncContext, delivery: Delivery): Promise<Handled> {
  const site = delivery.siteId ? await ctx.sites.byId(delivery.siteId) : undefined;
  const constituentId = constituentOf((delivery.payload as { data?: unknown } | undefined)?.data);
  if (!site || !hasSync(site) || constituentId === undefined) throw new Error('site or constituent missing');
  const s = syncSettingsOf(site, ctx.config);
  if (delivery.topic === CONSTITUENT_DELETED) {
    await syncDeleted(ctx, s, constituentId);
    return {};
  }
  const out = await syncOne(ctx, s, constituentId, 'webhook', null);
  return out.notFound ? { note: out.error } : {};
}

/** Hands CRM webhook deliveries of the inbox to this sync. */
export function registerWebhookHandler(ctx: SyncContext): void {
  ctx.inbox.register({ source: RE_SOURCE, mode: 'lease', process: (delivery) => processDelivery(ctx, delivery) });
}
