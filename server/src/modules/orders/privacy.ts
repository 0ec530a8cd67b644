// Shopify's privacy webhooks, the pure rules (no database): what a request asks (shopify.dev
// "Privacy law compliance": customers/data_request, customers/redact, shop/redact — {shop_id,
// shop_domain, customer {id, email, phone}, orders_requested | orders_to_redact, data_request {id}}),
// what Presswork holds on a customer in a stored order, and the order with the customer taken out.
//
// A redaction replaces the customer's name, e-mail, phone and addresses wherever they appear in the
// order's data (the store's order, what was sent to the provider and what it answered, the webhook
// bodies kept, the personalisation on its print jobs) and keeps what bookkeeping needs: order
// numbers and names, line ids, SKUs, quantities, prices, dates, statuses, tracking numbers, and the
// destination country and region (for tax). An order still in production is redacted once it ships.
import { PayloadError } from './shopify';

export const PRIVACY_TOPICS = ['customers/data_request', 'customers/redact', 'shop/redact'] as const;
export type PrivacyTopic = (typeof PRIVACY_TOPICS)[number];
export const isPrivacyTopic = (topic: string | null | undefined): topic is PrivacyTopic => (PRIVACY_TOPICS as readonly string[]).includes(String(topic));

/** What replaces a redacted value. */
export const REDACTED = '[redacted]';

export interface PrivacyRequest {
  topic: PrivacyTopic;
  shopDomain: string | null;
  customer: { id: string | null; email: string | null; phone: string | null } | null;
  /** orders_requested / orders_to_redact (store order ids). */
  orderIds: string[];
  dataRequestId: string | null;
}

const obj = (v: unknown): Record<string, unknown> | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : typeof v === 'number' || typeof v === 'bigint' ? String(v) : null);

/** A privacy webhook's body; throws PayloadError when it cannot say whom or what it is about. */
export function privacyRequestOf(topic: PrivacyTopic, payload: unknown): PrivacyRequest {
  const p = obj(payload);
  if (!p) throw new PayloadError('The privacy request has no body');
  const c = obj(p.customer);
  const customer = c ? { id: str(c.id), email: str(c.email)?.toLowerCase() ?? null, phone: str(c.phone) } : null;
  if (topic !== 'shop/redact' && !(customer && (customer.id || customer.email || customer.phone))) throw new PayloadError(`The ${topic} request names no customer`);
  const list = topic === 'customers/data_request' ? p.orders_requested : p.orders_to_redact;
  const orderIds = (Array.isArray(list) ? list : []).map(str).filter((id): id is string => Boolean(id && /^\d{1,20}$/.test(id)));
  return { topic, shopDomain: str(p.shop_domain), customer, orderIds, dataRequestId: str(obj(p.data_request)?.id) };
}

/** Who to find in the stored data: the customer's names, e-mails and phone numbers. */
export interface PrivacySubject {
  names: string[];
  emails: string[];
  phones: string[];
}


/** The subject of an order: the names, e-mails and phones it holds of its customer (and those Shopify gave). */
export function subjectOf(data: Record<string, unknown>, given: PrivacyRequest['customer'] = null): PrivacySubject {
  const names = new Set<string>();
  const emails = new Set<string>();
  const phones = new Set<string>();
  const person = (v: unknown) => {
    const o = obj(v);
    if (!o) return;
    const first = str(o.first_name);
    const last = str(o.last_name);
    for (const n of [first, last, first && last ? `${first} ${last}` : null, str(o.name)]) if (n) names.add(n);
    if (str(o.email)) emails.add(str(o.email)!.toLowerCase());
    if (str(o.phone)) phones.add(str(o.phone)!);
  };
  person(data.customer);
  person(data.shipping_address);
  person(data.billing_address);
  if (str(data.email)) emails.add(str(data.email)!.toLowerCase());
  if (str(data.contact_email)) emails.add(str(data.contact_email)!.toLowerCase());
  if (given?.email) emails.add(given.email.toLowerCase());
  if (given?.phone) phones.add(given.phone);
  return { names: [...names], emails: [...emails], phones: [...phones] };
}

export const mergeSubjects = (a: PrivacySubject, b: PrivacySubject): PrivacySubject => ({
  names: [...new Set([...a.names, ...b.names])],
  emails: [...new Set([...a.emails, ...b.emails])],
  phones: [...new Set([...a.phones, ...b.phones])],
});

/** Keys whose values are a person's contact or whereabouts, wherever they are (Shopify's and HP Site Flow's spellings). */
const PERSONAL_KEYS = new Set([
  'first_name',
  'last_name',
  'email',
  'contact_email',
  'phone',
  'address1',
  'address2',
  'zip',
  'city',
  'company',
  'latitude',
  'longitude',
  'town',
  'postcode',
  'companyName',
  'firstName',
  'lastName',
]);
/** A `name` is a person's in an object that describes a person or an address. */
const PERSON_MARKERS = ['first_name', 'last_name', 'address1', 'address2', 'zip', 'town', 'postcode', 'firstName', 'lastName'];
/** Free text a customer or a clerk wrote (personalisation values, notes): the subject's strings are replaced inside it. */
const FREE_TEXT_KEYS = new Set(['value', 'note', 'message', 'text', 'comment', 'body', 'gift_message']);

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The subject's strings in free text (personalisation, notes) replaced: e-mails, phones, full names, then single names as words. */
export function scrubText(text: string, s: PrivacySubject): string {
  let out = text;
  const words = [...s.emails, ...s.phones, ...s.names].filter((w) => w.trim().length >= 2).sort((a, b) => b.length - a.length);
  for (const w of words) {
    const re = /^[\p{L}\p{N}]/u.test(w) && /[\p{L}\p{N}]$/u.test(w) ? new RegExp(`(?<![\\p{L}\\p{N}])${escapeRe(w)}(?![\\p{L}\\p{N}])`, 'giu') : new RegExp(escapeRe(w), 'gi');
    out = out.replace(re, REDACTED);
  }
  return out;
}

/**
 * Any JSON with the subject taken out: personal keys replaced (a `name` only where it names a
 * person or an address), the subject's strings replaced inside free text, and any other value that
 * is exactly the subject's e-mail, phone or name. Everything else — ids, SKUs, titles, prices,
 * dates, order names, the country — stays as it was.
 */
export function redactJson<T>(value: T, s: PrivacySubject): T {
  const exact = new Set([...s.emails, ...s.phones, ...s.names].map((w) => w.trim().toLowerCase()).filter((w) => w.length >= 2));
  const walk = (v: unknown, key: string | null): unknown => {
    if (typeof v === 'string') {
      if (key !== null && FREE_TEXT_KEYS.has(key)) return scrubText(v, s);
      return exact.has(v.trim().toLowerCase()) ? REDACTED : v;
    }
    if (Array.isArray(v)) return v.map((x) => walk(x, key));
    const o = obj(v);
    if (!o) return v;
    const person = PERSON_MARKERS.some((k) => k in o);
    const out: Record<string, unknown> = {};
    for (const [k, val] of Object.entries(o)) {
      if ((PERSONAL_KEYS.has(k) || (k === 'name' && person)) && val !== null && val !== undefined && val !== '') out[k] = typeof val === 'string' ? REDACTED : null;
      else out[k] = walk(val, k);
    }
    return out;
  };
  return walk(value, null) as T;
}

/** Finished with: shipped, cancelled, nothing to make, or fulfilled in the store. Anything else is still in production. */
export function isFinished(status: string | null | undefined, data: Record<string, unknown>): boolean {
  return ['shipped', 'cancelled', 'no-lines'].includes(String(status)) || data.fulfillment_status === 'fulfilled' || Boolean(data.cancelled) || Boolean(data.cancelled_at);
}

const addressText = (v: unknown): string | null => {
  const a = obj(v);
  if (!a) return null;
  const parts = ['name', 'company', 'address1', 'address2', 'city', 'province', 'zip', 'country', 'phone'].map((k) => str(a[k])).filter(Boolean);
  return parts.length ? parts.join(', ') : null;
};

/** What an order holds on its customer, kind by kind, with the values (a data request's answer). */
export function holdingsOf(data: Record<string, unknown>): { kinds: string[]; values: Record<string, string> } {
  const values: Record<string, string> = {};
  const customer = obj(data.customer);
  const name = [str(customer?.first_name), str(customer?.last_name)].filter(Boolean).join(' ');
  if (name) values.name = name;
  const email = str(data.email) ?? str(customer?.email);
  if (email) values['e-mail'] = email;
  const phone = str(customer?.phone) ?? str(obj(data.shipping_address)?.phone) ?? str(obj(data.billing_address)?.phone);
  if (phone) values.phone = phone;
  const ship = addressText(data.shipping_address);
  if (ship) values['shipping address'] = ship;
  const bill = addressText(data.billing_address);
  if (bill) values['billing address'] = bill;
  return { kinds: Object.keys(values), values };
}

/** Does any text of this JSON mention the subject? */
export const mentions = (value: unknown, s: PrivacySubject) => JSON.stringify(redactJson(value, s)) !== JSON.stringify(value);
