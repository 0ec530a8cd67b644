// Add to the CRM: the buyer found in Raiser's Edge by e-mail (else created as an individual
// constituent with the order's name and address), the marketing consent the buyer gave in the store
// recorded as an Email consent (OptIn only when given; an explicit unsubscribe as OptOut; nothing
// when the buyer said nothing), and a note naming the order and its items. Every write is checked
// against the CRM first, so a retry after a lost answer never writes twice.
import { mostRecentConsent, type ConsentResponse } from '../../integrations/raisersEdge';
import { writeOrder } from '../orders';
import { lockedOrder, text, nowIso } from '../fulfilment';
import { syncSettingsOf } from '../sync';
import { buyerToAdd, type StepRunner } from './attempt';

/** Attempts that look for a constituent our lost create may have made before creating another. */
const LOOK_BEFORE_CREATING_AGAIN = 2;

export const noteSummaryOf = (orderName: string) => `Shop order ${orderName}`.slice(0, 50);

export const addToRaisersEdge: StepRunner = async (ctx, job) => {
  const { order, site, previous } = job;
  const start = buyerToAdd(order, 'The order has no buyer e-mail address: the buyer cannot be found or added in the CRM');
  if ('outcome' in start) return start.outcome;
  const { buyer } = start;
  const s = syncSettingsOf(site, ctx.config);
  const re = ctx.clients.raisersEdge(s);
  const orderName = text(order.data.name) || `#${job.payload.orderId}`;

  // 1. The constituent: ours from an earlier attempt, else found by e-mail, else created.
  let constituentId = typeof previous.constituentId === 'string' ? previous.constituentId : '';
  let created = previous.created === true;
  if (!constituentId) {
    const found = (await re.searchByEmail(buyer.email)).filter((c) => (c.email ?? '').trim().toLowerCase() === buyer.email);
    if (found.length) constituentId = String(found[0].id);
    else if (previous.createSentAt && job.row.attempts <= LOOK_BEFORE_CREATING_AGAIN) {
      // Our create went out and its answer was lost: the CRM's search may not show it yet.
      return { retry: 'Checking whether the constituent created by the last attempt has reached the CRM' };
    } else {
      await job.progress({ createSentAt: nowIso(ctx) });
      const made = await re.createConstituent({
        first: buyer.first || undefined,
        last: buyer.last || buyer.email.split('@')[0],
        email: { address: buyer.email, type: s.re.emailType },
        ...(buyer.address ? { address: { lines: buyer.address.lines, city: buyer.address.city ?? undefined, state: buyer.address.state ?? undefined, postalCode: buyer.address.postalCode ?? undefined, country: buyer.address.country ?? undefined, type: s.re.addressType } } : {}),
      });
      constituentId = String(made.id);
      created = true;
    }
    await job.progress({ constituentId, created });
    await keepOnOrder(ctx, order.id, constituentId);
  }

  // 2. The consent the buyer gave (or withdrew) in the store; nothing when they said nothing.
  const response: ConsentResponse | null = buyer.marketingConsent === 'given' ? 'OptIn' : buyer.marketingConsent === 'withdrawn' ? 'OptOut' : null;
  let consentId = typeof previous.consentId === 'string' ? previous.consentId : null;
  const consentDate = buyer.consentDate ?? text(order.data.created_at) ?? nowIso(ctx);
  if (response && !consentId && previous.consentRecorded !== true) {
    const latest = mostRecentConsent(await re.emailConsents(constituentId));
    const same = latest?.constituent_consent_response === response && (latest.consent_date ?? '').slice(0, 10) === consentDate.slice(0, 10);
    if (!same) {
      const made = await re.createConsent({
        constituent_id: constituentId,
        channel: 'Email',
        ...(s.re.consentCategory ? { category: s.re.consentCategory } : {}),
        ...(s.re.consentSource ? { source: s.re.consentSource } : {}),
        consent_date: consentDate,
        constituent_consent_response: response,
        consent_statement: `Given at checkout of ${orderName} (${buyer.consentFrom ?? 'the store'})`,
      });
      consentId = made.id ? String(made.id) : null;
    }
    await job.progress({ consentRecorded: true, consentId, consent: response });
  }

  // 3. A note naming the order and its items, once.
  let noteId = typeof previous.noteId === 'string' ? previous.noteId : null;
  if (!noteId) {
    const summary = noteSummaryOf(orderName);
    const existing = (await re.constituentNotes(constituentId)).find((n) => n.summary === summary);
    if (existing) noteId = String(existing.id);
    else {
      const items = (order.data.line_items ?? []).map((l) => `${Number(l.quantity ?? 1)} × ${text(l.name ?? l.title ?? l.sku)}`).join('; ');
      const day = new Date(Date.parse(text(order.data.created_at)) || ctx.clock.now().getTime());
      const made = await re.createNote({
        constituent_id: constituentId,
        type: s.re.noteType,
        summary,
        text: `Bought in the ${site.name} shop (order ${orderName}, Shopify id ${job.payload.orderId}): ${items}. E-mail marketing: ${buyer.marketingConsent}.`,
        date: { y: day.getUTCFullYear(), m: day.getUTCMonth() + 1, d: day.getUTCDate() },
      });
      noteId = String(made.id);
    }
    await job.progress({ noteId });
  }
  return { done: { constituentId, created, consent: response, consentId, noteId, ref: constituentId } };
};

/** The constituent id on the order (Check order, the email-platform step). */
async function keepOnOrder(ctx: Parameters<StepRunner>[0], id: number, constituentId: string): Promise<void> {
  await ctx.db.transaction(async (trx) => {
    const locked = await lockedOrder(trx, id);
    if (!locked || locked.data.crmConstituentId === constituentId) return;
    await writeOrder(trx, id, { data: { ...locked.data, crmConstituentId: constituentId }, before: locked.data, updatedAt: nowIso(ctx) });
  });
}
