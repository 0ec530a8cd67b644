// One constituent, CRM → email platform: its primary email and most recent Email consent decide
// whether its Adestra contact (upserted, dedupe on email) is on the opt-in list or taken off it.
import type { AdestraClient } from '../../integrations/adestra';
import { mostRecentConsent, type Consent, type ConsentResponse, type Constituent, type RaisersEdgeClient } from '../../integrations/raisersEdge';
import type { SiteSync } from './siteSettings';

export type SyncReason =
  | 'consent-opt-in'
  | 'consent-opt-out'
  | 'no-consent'
  | 'no-email'
  | 'email-inactive'
  | 'email-do-not-email'
  | 'deceased'
  | 'inactive'
  | 'requests-no-email'
  /** Deleted from the CRM (its webhook): the contacts of that constituent leave the opt-in list. */
  | 'deleted';

export interface SyncResult {
  constituentId: string;
  name: string | null;
  email: string | null;
  /** The category of the most recent Email consent (e.g. "Newsletter"). */
  category: string | null;
  consent: ConsentResponse | null;
  consentDate: string | null;
  /** opted-in: put on the opt-in list; opted-out: taken off it; skipped: nothing in the platform to change. */
  action: 'opted-in' | 'opted-out' | 'skipped';
  reason: SyncReason;
  contactId: string | null;
  /** The contact in the email platform. */
  link: string | null;
}

/** The rule, in order: deceased, inactive, requests no email, no usable email, then the consent. */
export function classify(c: Constituent, consent: Consent | undefined): { optIn: boolean; reason: SyncReason } {
  if (c.deceased) return { optIn: false, reason: 'deceased' };
  if (c.inactive) return { optIn: false, reason: 'inactive' };
  if (c.requests_no_email) return { optIn: false, reason: 'requests-no-email' };
  if (!primaryEmail(c)) return { optIn: false, reason: 'no-email' };
  if (c.email?.inactive) return { optIn: false, reason: 'email-inactive' };
  if (c.email?.do_not_email) return { optIn: false, reason: 'email-do-not-email' };
  const response = consent?.constituent_consent_response;
  if (response === 'OptIn') return { optIn: true, reason: 'consent-opt-in' };
  if (response === 'OptOut') return { optIn: false, reason: 'consent-opt-out' };
  return { optIn: false, reason: 'no-consent' };
}

export function primaryEmail(c: Constituent): string | null {
  const address = c.email?.address?.trim();
  if (!address || c.email?.primary === false) return null;
  return address.toLowerCase();
}

export const RE_ID_FIELD = 're_constituent_id';

export async function syncConstituent(s: SiteSync, re: RaisersEdgeClient, adestra: AdestraClient, c: Constituent): Promise<SyncResult> {
  const consent = mostRecentConsent(await re.emailConsents(c.id));
  const { optIn, reason } = classify(c, consent);
  const email = primaryEmail(c);
  const result: SyncResult = {
    constituentId: String(c.id),
    name: c.name ?? ([c.first, c.last].filter(Boolean).join(' ') || null),
    email,
    category: consent?.category ?? null,
    consent: consent?.constituent_consent_response ?? null,
    consentDate: consent?.consent_date ?? null,
    action: optIn ? 'opted-in' : 'opted-out',
    reason,
    contactId: null,
    link: null,
  };
  const listId = s.adestra.optInListId;
  if (!email) {
    // No address to dedupe on: take off the list any contact this constituent had before.
    const known = await adestra.searchContacts({ [RE_ID_FIELD]: String(c.id) });
    if (!known.length) return { ...result, action: 'skipped' };
    for (const contact of known) if (listId) await adestra.removeFromList(contact.id, listId);
    return { ...result, contactId: String(known[0].id), link: adestra.contactUrl(known[0].id) };
  }
  const contactData: Record<string, unknown> = { email, first_name: c.first ?? '', last_name: c.last ?? '', [RE_ID_FIELD]: String(c.id) };
  const contact = await adestra.upsertContact(contactData);
  if (listId) {
    if (optIn) await adestra.addToList(contact.id, listId);
    else await adestra.removeFromList(contact.id, listId);
  }
  return { ...result, contactId: String(contact.id), link: adestra.contactUrl(contact.id) };
}

/** A constituent deleted from the CRM: every Adestra contact of theirs leaves the opt-in list (the contact itself stays). */
export async function forgetConstituent(s: SiteSync, adestra: AdestraClient, constituentId: string): Promise<SyncResult> {
  const known = await adestra.searchContacts({ [RE_ID_FIELD]: constituentId });
  const listId = s.adestra.optInListId;
  for (const contact of known) if (listId) await adestra.removeFromList(contact.id, listId);
  const first = known[0];
  return {
    constituentId,
    name: null,
    email: typeof first?.email === 'string' ? first.email : null,
    category: null,
    consent: null,
    consentDate: null,
    action: first ? 'opted-out' : 'skipped',
    reason: 'deleted',
    contactId: first ? String(first.id) : null,
    link: first ? adestra.contactUrl(first.id) : null,
  };
}
