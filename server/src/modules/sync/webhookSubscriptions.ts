// The CRM's webhook subscriptions for a site: one per event type we handle, pointing at our
// receiver with the site's webhookKey. Creating them twice does not duplicate them (the CRM's own
// list is read first), and the list shows each one's provisioning status (the OPTIONS handshake).
import crypto from 'node:crypto';
import { MASK } from '../../lib/secrets';
import type { WebhookSubscription } from '../../integrations/raisersEdge';
import type { SyncContext } from './context';
import { writeEnvValue, type SiteSync } from './siteSettings';
import { HANDLED_EVENT_TYPES } from './webhook';

/** Our receiver's address for a site; the key is a secret, so what a browser sees has it masked. */
export const webhookUrlOf = (publicBase: string, siteSlug: string, key: string) => `${publicBase.replace(/\/$/, '')}/api/sites/${encodeURIComponent(siteSlug)}/raiser-edge-webhook?webhookKey=${encodeURIComponent(key)}`;

export interface ShownSubscription {
  id: string;
  eventType: string;
  /** The URL with its webhookKey masked. */
  webhookUrl: string;
  provisioningStatus: string | null;
  /** It points at this site's receiver with the current key. */
  ours: boolean;
}

function shown(sub: WebhookSubscription, ourUrl: string, key: string): ShownSubscription {
  return {
    id: String(sub.id),
    eventType: String(sub.event_type),
    webhookUrl: key ? String(sub.webhook_url).split(encodeURIComponent(key)).join(MASK) : String(sub.webhook_url),
    provisioningStatus: sub.provisioning_status ?? null,
    ours: sub.webhook_url === ourUrl,
  };
}

export async function listSubscriptions(ctx: Pick<SyncContext, 'clients'>, s: SiteSync, publicBase: string) {
  const ourUrl = webhookUrlOf(publicBase, s.site.slug, s.re.webhookKey);
  const subs = await ctx.clients.raisersEdge(s).webhookSubscriptions();
  const list = subs.map((sub) => shown(sub, ourUrl, s.re.webhookKey));
  const missing = HANDLED_EVENT_TYPES.filter((t) => !list.some((x) => x.ours && x.eventType === t));
  return { list, eventTypes: [...HANDLED_EVENT_TYPES], missing };
}

/** Create the subscriptions this site lacks (a webhookKey is made first when there is none). */
export async function createSubscriptions(ctx: Pick<SyncContext, 'clients' | 'db' | 'clock'>, s: SiteSync, publicBase: string) {
  let key = s.re.webhookKey;
  if (!key) {
    key = crypto.randomBytes(24).toString('base64url');
    await writeEnvValue(ctx.db, ctx.clock, s.site.id, 'RE_WEBHOOK_KEY', key);
  }
  const site: SiteSync = { ...s, re: { ...s.re, webhookKey: key } };
  const ourUrl = webhookUrlOf(publicBase, s.site.slug, key);
  const re = ctx.clients.raisersEdge(site);
  const existing = await re.webhookSubscriptions();
  const created: string[] = [];
  for (const eventType of HANDLED_EVENT_TYPES) {
    if (existing.some((sub) => sub.event_type === eventType && sub.webhook_url === ourUrl)) continue;
    await re.createWebhookSubscription(eventType, ourUrl);
    created.push(eventType);
  }
  return { created, ...(await listSubscriptions(ctx, site, publicBase)) };
}
