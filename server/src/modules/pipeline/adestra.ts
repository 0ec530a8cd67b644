// Add to the email platform: the buyer upserted as an Adestra contact (deduped on e-mail, with the
// CRM constituent id when the CRM step found or made one), put on the buyers' list only when they
// consented to marketing, and taken off it when they unsubscribed in the store. Every call is
// idempotent (upsert on e-mail, list membership), so a retry is safe.
import { text } from '../fulfilment';
import { RE_ID_FIELD, syncSettingsOf } from '../sync';
import { buyerToAdd, type StepRunner } from './attempt';
import { pipelineRepo, type PipelinePayload } from './repo';

/** How long the email-platform step waits for a queued CRM step of the same order (its id goes with the contact). */
const WAIT_FOR_CRM_ATTEMPTS = 3;

export const addToAdestra: StepRunner = async (ctx, job) => {
  const { order, site, settings } = job;
  const start = buyerToAdd(order, 'The order has no buyer e-mail address: no contact can be made in Adestra');
  if ('outcome' in start) return start.outcome;
  const { buyer } = start;

  const constituentId = text(order.data.crmConstituentId) || null;
  if (!constituentId) {
    const crmRows = (await pipelineRepo(ctx.db).ofOrder(job.payload.siteId, job.payload.orderId)).filter((r) => (r.payload as PipelinePayload).step === 'addToRaisersEdge');
    if (crmRows.some((r) => r.status === 'pending') && job.row.attempts <= WAIT_FOR_CRM_ATTEMPTS) return { retry: "Waiting for the Raiser's Edge step of this order (its constituent id goes with the contact)" };
  }

  const adestra = ctx.clients.adestra(syncSettingsOf(site, ctx.config));
  const contactData: Record<string, unknown> = { email: buyer.email, first_name: buyer.first, last_name: buyer.last, ...(constituentId ? { [RE_ID_FIELD]: constituentId } : {}) };
  const listId = settings.buyersListId;
  const contact = await adestra.upsertContact(contactData);
  if (buyer.marketingConsent === 'given') await adestra.addToList(contact.id, listId);
  else if (buyer.marketingConsent === 'withdrawn') await adestra.removeFromList(contact.id, listId);
  const onList = buyer.marketingConsent === 'given';
  return { done: { contactId: String(contact.id), ref: String(contact.id), link: adestra.contactUrl(contact.id), onList, listId, constituentId } };
};
