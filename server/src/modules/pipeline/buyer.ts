// The buyer of a store order, as the CRM and the email platform need them: who (email, name),
// where (the address), and whether they agreed to marketing e-mail — a pure reading of Shopify's
// Order resource (REST / webhook body), no database, no HTTP.
//
// Marketing consent, from Shopify's docs:
// - `customer.email_marketing_consent {state, opt_in_level, consent_updated_at}` is the record of
//   the customer's consent; its states (CustomerEmailMarketingState, Admin API) are subscribed,
//   not_subscribed (never subscribed), pending (double opt-in not confirmed yet), unsubscribed
//   (was subscribed, no longer), invalid and redacted (both set by Shopify, read-only).
// - The order's `buyer_accepts_marketing` ("whether the customer consented to receive email
//   updates from the shop") predates it: the customer's `accepts_marketing` was deprecated in favour
//   of `email_marketing_consent` (REST 2022-04), so the order field is read only when the order
//   carries no consent object.
// Only `subscribed` (or, without the object, `buyer_accepts_marketing: true`) counts as given:
// a pending double opt-in is not consent yet, and nobody is opted in on a guess.

export interface BuyerAddress {
  lines: string[];
  city: string | null;
  state: string | null;
  postalCode: string | null;
  country: string | null;
  countryCode: string | null;
}

export interface Buyer {
  /** order.email / contact_email / customer.email, trimmed, lower-cased. */
  email: string | null;
  /** customer, else billing_address, else shipping_address names. */
  first: string;
  last: string;
  /** billing_address, else shipping_address, else customer.default_address. */
  address: BuyerAddress | null;
  /** given: subscribed (or buyer_accepts_marketing true without the consent object); withdrawn: unsubscribed; not-given: anything else. */
  marketingConsent: 'given' | 'withdrawn' | 'not-given';
  /** When the buyer gave/withdrew it: consent_updated_at, else the order's processed_at/created_at; null when not given. */
  consentDate: string | null;
  /** Which Shopify field said so (for the note). */
  consentFrom: 'customer.email_marketing_consent' | 'buyer_accepts_marketing' | null;
}

const obj = (v: unknown): Record<string, unknown> | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);
const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');
const orNull = (s: string) => s || null;

function emailOf(order: Record<string, unknown>, customer: Record<string, unknown> | null): string | null {
  for (const v of [order.email, order.contact_email, customer?.email]) {
    const e = text(v).toLowerCase();
    if (e) return e;
  }
  return null;
}

/** The first of customer, billing and shipping address that has a name; an address's `name` alone is split at its last space. */
function namesOf(sources: Array<Record<string, unknown> | null>): { first: string; last: string } {
  for (const s of sources) {
    const first = text(s?.first_name);
    const last = text(s?.last_name);
    if (first || last) return { first, last };
  }
  for (const s of sources) {
    const full = text(s?.name).replace(/\s+/g, ' ');
    if (!full) continue;
    const cut = full.lastIndexOf(' ');
    return cut < 0 ? { first: '', last: full } : { first: full.slice(0, cut), last: full.slice(cut + 1) };
  }
  return { first: '', last: '' };
}

function addressOf(v: unknown): BuyerAddress | null {
  const a = obj(v);
  if (!a) return null;
  const lines = [text(a.address1), text(a.address2)].filter(Boolean);
  const address: BuyerAddress = {
    lines,
    city: orNull(text(a.city)),
    // The CRM's own samples write US states as their codes ("CO"); the name when there is no code.
    state: orNull(text(a.province_code) || text(a.province)),
    postalCode: orNull(text(a.zip)),
    country: orNull(text(a.country)),
    countryCode: orNull(text(a.country_code)),
  };
  return lines.length || address.city || address.postalCode || address.country ? address : null;
}

function consentOf(order: Record<string, unknown>, customer: Record<string, unknown> | null): Pick<Buyer, 'marketingConsent' | 'consentDate' | 'consentFrom'> {
  const orderDate = orNull(text(order.processed_at) || text(order.created_at));
  const record = obj(customer?.email_marketing_consent);
  if (record) {
    const state = text(record.state).toLowerCase();
    const marketingConsent = state === 'subscribed' ? 'given' : state === 'unsubscribed' ? 'withdrawn' : 'not-given';
    return { marketingConsent, consentDate: marketingConsent === 'not-given' ? null : orNull(text(record.consent_updated_at)) ?? orderDate, consentFrom: 'customer.email_marketing_consent' };
  }
  if (order.buyer_accepts_marketing === true) return { marketingConsent: 'given', consentDate: orderDate, consentFrom: 'buyer_accepts_marketing' };
  if (order.buyer_accepts_marketing === false) return { marketingConsent: 'not-given', consentDate: null, consentFrom: 'buyer_accepts_marketing' };
  return { marketingConsent: 'not-given', consentDate: null, consentFrom: null };
}

export function buyerOf(order: Record<string, unknown>): Buyer {
  const customer = obj(order.customer);
  const billing = obj(order.billing_address);
  const shipping = obj(order.shipping_address);
  return {
    email: emailOf(order, customer),
    ...namesOf([customer, billing, shipping]),
    address: addressOf(billing) ?? addressOf(shipping) ?? addressOf(customer?.default_address),
    ...consentOf(order, customer),
  };
}
