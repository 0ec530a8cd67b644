// The store side of the fault suite: a Shopify-like deliverer of signed order webhooks that does
// what the real store does — duplicate deliveries (same webhook and event id), updates out of order
// (an older updated_at after a newer one), many at once, and a retry of every delivery that did not
// get a 2xx (refused, reset, timed out, 5xx) until it does — plus the helpers to set a site up.
import crypto from 'node:crypto';
import { shopifyJson, signShopifyBody } from '../../server/simulators/shopify';
import { FAULTS_ADMIN } from './appProcess';

import { prng } from '../../server/simulators/prng';

export { prng };
export type { Prng } from '../../server/simulators/prng';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------
// Signing in and connecting a store

export async function signIn(baseUrl: string, who = FAULTS_ADMIN): Promise<string> {
  const res = await fetch(`${baseUrl}/api/users/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(who) });
  const body = (await res.json()) as { data?: { token?: string } };
  if (!res.ok || !body.data?.token) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(body)}`);
  return body.data.token;
}

export interface StoreSite {
  siteId: number;
  slug: string;
  shopDomain: string;
  secret: string;
}

/** Creates a site with its store settings (as the first admin, through the admin REST API). */
export async function createStoreSite(baseUrl: string, token: string, slug: string): Promise<StoreSite> {
  const shopDomain = `${slug}.myshopify.com`;
  const secret = `whsec-${crypto.randomBytes(12).toString('hex')}`;
  const res = await fetch(`${baseUrl}/api/admin/sites`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({
      name: `Faults ${slug}`,
      slug,
      settings: { env: [{ key: 'SHOPIFY_SHOP_DOMAIN', value: shopDomain }, { key: 'SHOPIFY_WEBHOOK_SECRET', value: secret }] },
    }),
  });
  const body = (await res.json()) as { id?: number };
  if (!res.ok || !body.id) throw new Error(`site creation failed: ${res.status} ${JSON.stringify(body)}`);
  return { siteId: body.id, slug, shopDomain, secret };
}

// ---------------------------------------------------------------------------------------------
// The storm's plan: N orders, each created then updated 0–3 times; each version carries its own
// email and city, so the stored record tells which version won.

export interface OrderVersion {
  orderId: string;
  version: number;
  updatedAt: string;
  email: string;
  city: string;
}

export interface PlannedDelivery {
  /** Index in the plan (a duplicate delivery has the same key as its original). */
  key: number;
  topic: 'orders/create' | 'orders/updated';
  eventId: string;
  webhookId: string;
  body: string;
  order: OrderVersion;
  duplicate: boolean;
}

export interface StormPlan {
  /** Every order id → its latest version. */
  latest: Map<string, OrderVersion>;
  deliveries: PlannedDelivery[];
  /** Distinct events (deliveries without the duplicates). */
  events: number;
  duplicates: number;
  /** Pairs (older version of an order delivered after a newer one), counted over first deliveries. */
  inversions: number;
}

const orderIdOf = (seed: number, i: number) => (9_100_000_000_000_000_000n + BigInt(seed % 1_000_000) * 1_000_000n + BigInt(i)).toString();

export function planStorm(opts: { orders: number; seed: number; duplicateRate?: number; maxUpdates?: number; padBytes?: number }): StormPlan {
  const r = prng(opts.seed ^ 0x5eed);
  const duplicateRate = opts.duplicateRate ?? 0.2;
  const maxUpdates = opts.maxUpdates ?? 3;
  const base = Date.parse('2026-11-20T09:00:00Z');
  const latest = new Map<string, OrderVersion>();
  const firsts: PlannedDelivery[] = [];
  for (let i = 0; i < opts.orders; i++) {
    const orderId = orderIdOf(opts.seed, i);
    const created = new Date(base + i * 1000).toISOString();
    const updates = r.int(0, maxUpdates);
    for (let v = 0; v <= updates; v++) {
      const version: OrderVersion = {
        orderId,
        version: v,
        updatedAt: new Date(base + i * 1000 + v * 60_000).toISOString(),
        email: `o${i}-v${v}@faults.example.com`,
        city: `City ${i}.${v}`,
      };
      latest.set(orderId, version);
      const payload = {
        id: orderId,
        name: `#${10_000 + i}`,
        order_number: 10_000 + i,
        created_at: created,
        updated_at: version.updatedAt,
        email: version.email,
        financial_status: 'paid',
        fulfillment_status: null,
        customer: { id: (6_000_000_000_000_000_000n + BigInt(i)).toString(), first_name: 'Storm', last_name: `Customer ${i}`, email: version.email },
        line_items: [
          {
            id: (1_300_000_000_000_000_000n + BigInt(i)).toString(),
            product_id: '7000000000000000001',
            variant_id: '4100000000000000001',
            sku: 'FAULTS-CARD',
            name: 'Faults card',
            title: 'Faults card',
            quantity: 1,
            properties: [{ name: 'Message', value: `version ${v}` }],
          },
        ],
        shipping_address: { name: `Storm Customer ${i}`, first_name: 'Storm', last_name: `Customer ${i}`, address1: `${i} High Street`, address2: null, city: version.city, zip: 'SW1A 1AA', province: null, country: 'United Kingdom', country_code: 'GB', phone: null },
        shipping_lines: [{ title: 'Royal Mail 2nd Class', code: 'RM2' }],
        // A field Presswork does not keep but the stored delivery does: makes each delivery take room.
        ...(opts.padBytes ? { note: `${version.email} `.padEnd(opts.padBytes, 'x') } : {}),
      };
      firsts.push({
        key: firsts.length,
        topic: v === 0 ? 'orders/create' : 'orders/updated',
        eventId: crypto.randomUUID(),
        webhookId: crypto.randomUUID(),
        body: shopifyJson(payload),
        order: version,
        duplicate: false,
      });
    }
  }
  // Shopify promises no order: shuffle everything (creates after updates, old updates after new ones).
  const deliveries = r.shuffle([...firsts]);
  let inversions = 0;
  const newestSeen = new Map<string, number>();
  for (const d of deliveries) {
    const seen = newestSeen.get(d.order.orderId) ?? -1;
    if (d.order.version < seen) inversions++;
    newestSeen.set(d.order.orderId, Math.max(seen, d.order.version));
  }
  // Duplicates: the same delivery (same webhook id, same event id) again, somewhere later.
  let duplicates = 0;
  for (const d of firsts) {
    if (!r.chance(duplicateRate)) continue;
    const at = deliveries.indexOf(d);
    deliveries.splice(r.int(at + 1, deliveries.length), 0, { ...d, duplicate: true });
    duplicates++;
  }
  return { latest, deliveries, events: firsts.length, duplicates, inversions };
}

// ---------------------------------------------------------------------------------------------
// The deliverer

export interface DeliveryOutcome {
  delivery: PlannedDelivery;
  attempts: number;
  /** The 2xx answer that ended it. */
  status: number;
  body: unknown;
  ackedAt: number;
}

export interface DelivererStats {
  attempts: number;
  acked: number;
  refused: number;
  timeouts: number;
  otherNetworkErrors: number;
  byStatus: Record<string, number>;
}

export interface DelivererOptions {
  /** The webhook URL of this attempt (two instances: pick one at random each time). */
  url: () => string;
  site: StoreSite;
  concurrency?: number;
  timeoutMs?: number;
  /** Backoff before retry k (0-based), jittered. */
  backoffMs?: (k: number) => number;
  /** Give up on a delivery after this long (the suite fails then: the real store would keep going for hours). */
  giveUpAfterMs?: number;
  /** Called after each 2xx. */
  onAck?: (o: DeliveryOutcome) => void;
  /** Called after every attempt that got an HTTP answer (status, parsed body or text). */
  onAnswer?: (status: number, body: unknown) => void;
  /** When it answers true, no further delivery is started (those under way finish): a storm that lasts as long as something else. */
  stopWhen?: () => boolean;
}

/** Delivers every planned delivery until it got a 2xx. Answers the outcomes (one per delivery) and the tallies. */
export async function deliverAll(deliveries: PlannedDelivery[], o: DelivererOptions): Promise<{ outcomes: DeliveryOutcome[]; stats: DelivererStats }> {
  const stats: DelivererStats = { attempts: 0, acked: 0, refused: 0, timeouts: 0, otherNetworkErrors: 0, byStatus: {} };
  const outcomes: DeliveryOutcome[] = [];
  const timeoutMs = o.timeoutMs ?? 5_000;
  const backoff = o.backoffMs ?? ((k: number) => Math.min(1_000, 25 * 2 ** k) * (0.5 + Math.random()));
  const giveUpAfter = o.giveUpAfterMs ?? 180_000;
  let next = 0;

  async function deliverOne(d: PlannedDelivery): Promise<DeliveryOutcome> {
    const started = Date.now();
    const headers = {
      'Content-Type': 'application/json',
      'X-Shopify-Topic': d.topic,
      'X-Shopify-Hmac-Sha256': signShopifyBody(o.site.secret, d.body),
      'X-Shopify-Shop-Domain': o.site.shopDomain,
      'X-Shopify-API-Version': '2025-10',
      'X-Shopify-Webhook-Id': d.webhookId,
      'X-Shopify-Event-Id': d.eventId,
      'X-Shopify-Triggered-At': new Date().toISOString(),
    };
    for (let k = 0; ; k++) {
      stats.attempts++;
      try {
        const res = await fetch(o.url(), { method: 'POST', headers, body: d.body, signal: AbortSignal.timeout(timeoutMs) });
        const text = await res.text();
        stats.byStatus[res.status] = (stats.byStatus[res.status] ?? 0) + 1;
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          /* keep the text */
        }
        o.onAnswer?.(res.status, body);
        if (res.status >= 200 && res.status < 300) {
          stats.acked++;
          return { delivery: d, attempts: k + 1, status: res.status, body, ackedAt: Date.now() };
        }
      } catch (err) {
        const e = err as { name?: string; cause?: { code?: string } };
        if (e.name === 'TimeoutError' || e.name === 'AbortError') stats.timeouts++;
        else if (e.cause?.code === 'ECONNREFUSED') stats.refused++;
        else stats.otherNetworkErrors++;
      }
      if (Date.now() - started > giveUpAfter) throw new Error(`delivery ${d.eventId} (${d.topic}) got no 2xx in ${giveUpAfter} ms`);
      await sleep(backoff(k));
    }
  }

  const worker = async () => {
    while (next < deliveries.length && !o.stopWhen?.()) {
      const d = deliveries[next++];
      const outcome = await deliverOne(d);
      outcomes.push(outcome);
      o.onAck?.(outcome);
    }
  };
  await Promise.all(Array.from({ length: o.concurrency ?? 16 }, worker));
  return { outcomes, stats };
}

/** Posts one signed delivery once (no retry): the raw answer. */
export async function deliverOnce(url: string, site: StoreSite, d: PlannedDelivery, timeoutMs = 15_000): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-Shopify-Topic': d.topic,
      'X-Shopify-Hmac-Sha256': signShopifyBody(site.secret, d.body),
      'X-Shopify-Shop-Domain': site.shopDomain,
      'X-Shopify-Webhook-Id': d.webhookId,
      'X-Shopify-Event-Id': d.eventId,
    },
    body: d.body,
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) };
  } catch {
    return { status: res.status, body: text };
  }
}

export const webhookUrl = (baseUrl: string, site: StoreSite) => `${baseUrl}/api/online-stores/shopify-webhook?site=${site.slug}`;

/** Two plans as one (orders of both, events of both), to check phases of one test together. */
export function mergePlans(a: StormPlan, b: StormPlan): StormPlan {
  return {
    latest: new Map([...a.latest, ...b.latest]),
    deliveries: [...a.deliveries, ...b.deliveries],
    events: a.events + b.events,
    duplicates: a.duplicates + b.duplicates,
    inversions: a.inversions + b.inversions,
  };
}
