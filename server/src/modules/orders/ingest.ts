// A store webhook: headers and signature checked, body parsed, stored once in the inbox, answered.
// Processing follows the answer (upsert.ts, run by the inbox).
import { HttpError, badRequest, unauthorized } from '../../http/errors';
import { isoNow, type Clock } from '../../lib/clock';
import type { Inbox } from '../inbox';
import type { Site } from '../sites';
import { SHOPIFY_SOURCE } from './repo';
import { PayloadError, SHOPIFY_HEADERS, isOrderTopic, parseJsonInt64Safe, storeChangeOf } from './shopify';
import { APP_UNINSTALLED } from './storeConnection';
import { isPrivacyTopic } from './privacy';
import { checkPrivacyPayload } from './privacyRequests';
import type { WebhookInput, WebhookSites } from './webhookSites';

export type WebhookAnswer = { duplicate: true } | { ignored: true; topic: string } | { received: true; deliveryId: number };

export interface IngestContext {
  clock: Clock;
  inbox: Inbox;
  sites: WebhookSites;
}

/**
 * The inbox's dedupe key of a delivery. X-Shopify-Event-Id names the event (the same for every
 * subscription and retry that carries it); it may be absent, and then X-Shopify-Webhook-Id, which
 * a retry keeps, is the key. The two kinds never collide: a key from a webhook id is prefixed.
 */
export function shopifyDedupeKey(eventId: string | undefined, webhookId: string): string {
  const event = eventId?.trim();
  return (event ? event : `webhook:${webhookId}`).slice(0, 128);
}

export async function receiveWebhook({ clock, inbox, sites }: IngestContext, input: WebhookInput): Promise<WebhookAnswer> {
  // As Shopify's own validator: Shop-Domain is checked with the site (a ?site= URL may stand in for it).
  const required = [SHOPIFY_HEADERS.hmac, SHOPIFY_HEADERS.topic, SHOPIFY_HEADERS.apiVersion, SHOPIFY_HEADERS.webhookId];
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
  // app/uninstalled and the privacy topics are processed like an order topic (in the inbox's
  // transaction): the first disconnects the store, the others list or redact a customer's data.
  const known = isOrderTopic(topic) || topic === APP_UNINSTALLED || isPrivacyTopic(topic);
  try {
    if (isOrderTopic(topic)) storeChangeOf(topic, payload);
    else if (isPrivacyTopic(topic)) checkPrivacyPayload(topic, payload);
  } catch (err) {
    if (err instanceof PayloadError) throw badRequest(err.message);
    throw err;
  }
  // One statement (one transaction): a duplicate dedupe key inserts nothing, also under concurrency.
  const deliveryId = await inbox.store({
    source: SHOPIFY_SOURCE,
    eventId: shopifyDedupeKey(input.header(SHOPIFY_HEADERS.eventId), headers[SHOPIFY_HEADERS.webhookId]),
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
