// A store webhook: headers and signature checked, body parsed, stored once in the inbox, answered.
// Processing follows the answer (upsert.ts, run by the inbox).
import { HttpError, badRequest, unauthorized } from '../../http/errors';
import { isoNow, type Clock } from '../../lib/clock';
import type { Inbox } from '../inbox/service';
import type { Site } from '../sites/repo';
import { SHOPIFY_SOURCE } from './repo';
import { PayloadError, SHOPIFY_HEADERS, isOrderTopic, normaliseOrder, parseJsonInt64Safe } from './shopify';
import type { WebhookInput, WebhookSites } from './webhookSites';

export type WebhookAnswer = { duplicate: true } | { ignored: true; topic: string } | { received: true; deliveryId: number };

export interface IngestContext {
  clock: Clock;
  inbox: Inbox;
  sites: WebhookSites;
}

export async function receiveWebhook({ clock, inbox, sites }: IngestContext, input: WebhookInput): Promise<WebhookAnswer> {
  const required = [SHOPIFY_HEADERS.hmac, SHOPIFY_HEADERS.topic, SHOPIFY_HEADERS.eventId, SHOPIFY_HEADERS.webhookId];
  const headers: Record<string, string> = {};
  for (const name of required) {
    const value = input.header(name)?.trim();
    if (!value) throw unauthorized(`Missing ${name} header`);
    headers[name] = value;
  }
  let site: Site;
  try {
    site = await sites.verifiedSite(input, headers[SHOPIFY_HEADERS.hmac], false);
  } catch (err) {
    // Refused against cached settings: decided again on a fresh read (a secret changed a moment ago).
    if (!(err instanceof HttpError && err.status === 401)) throw err;
    site = await sites.verifiedSite(input, headers[SHOPIFY_HEADERS.hmac], true);
  }

  let payload: unknown;
  try {
    payload = parseJsonInt64Safe(input.rawBody.toString('utf8'));
  } catch {
    throw badRequest('The request body is not valid JSON');
  }
  const topic = headers[SHOPIFY_HEADERS.topic].toLowerCase();
  const known = isOrderTopic(topic);
  if (known) {
    try {
      normaliseOrder(payload);
    } catch (err) {
      if (err instanceof PayloadError) throw badRequest(err.message);
      throw err;
    }
  }
  const eventId = headers[SHOPIFY_HEADERS.eventId].slice(0, 128);
  // One statement (one transaction): a duplicate event id inserts nothing, also under concurrency.
  const deliveryId = await inbox.store({
    source: SHOPIFY_SOURCE,
    eventId,
    deliveryId: headers[SHOPIFY_HEADERS.webhookId].slice(0, 128),
    siteId: site.id,
    topic: topic.slice(0, 64),
    payload,
    status: known ? 'received' : 'ignored',
    receivedAt: isoNow(clock),
  });
  if (deliveryId === undefined) return { duplicate: true };
  if (!known) return { ignored: true, topic };
  return { received: true, deliveryId };
}
