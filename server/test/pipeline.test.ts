// The charity's order pipeline end to end: Shopify webhooks in, buyers into the CRM and Adestra
// simulators, e-cards out through a real SMTP server (the catcher), each step once per order.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSmtpCatcher, type SmtpCatcher } from '../simulators/smtp';
import { pipelineContext } from '../src/modules/pipeline/context';
import { pipelineService } from '../src/modules/pipeline/service';
import { PIPELINE_KIND } from '../src/modules/pipeline/repo';
import sharp from 'sharp';
import { bearer } from './harness';
import { artworkRgb, jpegOf, storeFile } from './imageFixtures';
import { connectStores, deliver, makeDesign, order, setSiteEnv } from './ordersKit';
import { cardDoc, nameLayer } from './renderKit';
import { createSyncWorld, person, type SyncWorld } from './sync-world';

const BUYERS_LIST = 3;
let world: SyncWorld;
let smtp: SmtpCatcher;

const w = () => world.w;
const re = () => world.re;
const adestra = () => world.adestra;
const pipeline = () => w().services.pipeline;

/** Runs the worker's passes until nothing due is left. */
async function drain() {
  for (let i = 0; i < 10; i++) if ((await pipeline().processDue()).claimed === 0) return;
}

const view = async (orderId: string) => {
  const res = await w().request().get(`/api/orders/${orderId}/pipeline`).set(bearer(w().tokens.userA));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as import('../../common/api/pipeline').OrderPipeline;
};
const stepOf = (p: Awaited<ReturnType<typeof view>>, step: string) => p.steps.find((s) => s.step === step)!;
const rerun = async (orderId: string, flags: Partial<Record<'addToAdestra' | 'addToRaisersEdge' | 'sendEcard' | 'sendToHP', boolean>>, token = w().tokens.userA) => {
  const res = await w().request().post('/api/online-stores/rerun-order').set(bearer(token)).send({ id: orderId, flags: { addToAdestra: false, addToRaisersEdge: false, sendEcard: false, sendToHP: false, ...flags } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { ran: string[]; skipped: Array<{ step: string; reason: string }>; failed: Array<{ step: string; error: string; retrying?: boolean }> };
};

/** A paid order of site A whose buyer did (or did not) consent to e-mail marketing. */
function buyerOrder(o: { email: string; consent: 'subscribed' | 'not_subscribed' | 'unsubscribed'; skus?: string[]; financial?: string; ecard?: Record<string, string>; ecardSku?: string }) {
  const body = order({ email: o.email, first: 'Grace', last: 'Hopper', skus: o.skus ?? ['PIPE-CARD'] }) as ReturnType<typeof order> & Record<string, unknown>;
  body.financial_status = o.financial ?? 'paid';
  (body as Record<string, unknown>).customer = { ...body.customer, email_marketing_consent: { state: o.consent, opt_in_level: "single_opt_in", consent_updated_at: "2026-11-20T09:59:00Z" } };
  body.billing_address = { first_name: 'Grace', last_name: 'Hopper', address1: '1 Navy Way', address2: 'Flat 2', city: 'Arlington', zip: '22202', province: 'Virginia', country: 'United States', country_code: 'US' };
  if (o.ecard) {
    const line = body.line_items.find((l) => l.sku === (o.ecardSku ?? 'PIPE-ECARD'))!;
    line.properties = Object.entries(o.ecard).map(([name, value]) => ({ name, value }));
  }
  return body;
}

const constituentsWith = (email: string) => [...re().state.constituents.values()].filter((c) => c.email?.address.toLowerCase() === email);

beforeAll(async () => {
  smtp = await startSmtpCatcher({ port: 0 });
  world = await createSyncWorld({
    adestraSim: { lists: [{ id: BUYERS_LIST, name: 'Shop buyers' }] },
    siteEnv: {
      PIPELINE_ADD_TO_CRM: '1',
      PIPELINE_ADD_TO_ADESTRA: '1',
      PIPELINE_SEND_ECARD: '1',
      ADESTRA_BUYERS_LIST_ID: String(BUYERS_LIST),
      SMTP_URL: smtp.url,
      ECARD_FROM: 'cards@charity.example.org',
    },
    constituents: [person('900', { email: { address: 'known.supporter@example.org', primary: true, inactive: false, do_not_email: false } })],
  });
  await connectStores(w());
  // The CRM settings were written straight into the row: the order webhook's site cache must see them.
  w().services.orders.invalidateSites();
  await makeDesign(w(), w().tokens.adminA, { name: 'Birthday card', sku: 'PIPE-CARD', productType: 'Card' });
  await makeDesign(w(), w().tokens.adminA, { name: 'Snow e-card', sku: 'PIPE-ECARD', productType: 'E-card', isCustomizable: true, data: { document: cardDoc({ name: nameLayer() }) } });
});
afterAll(async () => {
  await smtp?.close();
});
beforeEach(() => {
  smtp.clear();
});

describe('buyers into the CRM and Adestra', () => {
  it('a buyer who consented: one constituent created, one OptIn consent, a note, one contact on the buyers list', async () => {
    const body = buyerOrder({ email: 'grace@example.org', consent: 'subscribed' });
    await deliver(w(), body, { topic: 'orders/paid' });
    await drain();

    const made = constituentsWith('grace@example.org');
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ first: 'Grace', last: 'Hopper' });
    const consents = re().consentsOf(made[0].id);
    expect(consents.map((c) => c.constituent_consent_response)).toEqual(['OptIn']);
    expect(consents[0].channel).toBe('Email');
    const contact = adestra().contactByEmail('grace@example.org')!;
    expect(contact.re_constituent_id).toBe(made[0].id);
    expect(adestra().isOnList('grace@example.org', BUYERS_LIST)).toBe(true);

    const p = await view(body.id);
    expect(stepOf(p, 'addToRaisersEdge')).toMatchObject({ state: 'done', ref: made[0].id });
    expect(stepOf(p, 'addToAdestra')).toMatchObject({ state: 'done', ref: String(contact.id) });
    const stored = await w().services.orders.getOrder(w().sites.a, body.id);
    expect(stored?.data.crmConstituentId).toBe(made[0].id);

    // Redelivered webhooks and a deliberate re-run write nothing twice.
    await deliver(w(), body, { topic: 'orders/paid' });
    await deliver(w(), { ...body, updated_at: '2026-11-21T10:00:00Z' }, { topic: 'orders/updated' });
    await drain();
    const again = await rerun(body.id, { addToRaisersEdge: true, addToAdestra: true });
    expect(again.ran).toEqual(['addToRaisersEdge', 'addToAdestra']);
    expect(again.failed).toEqual([]);
    expect(constituentsWith('grace@example.org')).toHaveLength(1);
    expect(re().consentsOf(made[0].id)).toHaveLength(1);
    expect([...adestra().state.contacts.values()].filter((c) => c.email === 'grace@example.org')).toHaveLength(1);
    const rows = await w().db('outbox').where({ kind: PIPELINE_KIND });
    expect(rows.filter((r) => String(r.dedupe_key).startsWith(`pipeline:${w().sites.a}:${body.id}:`) && !String(r.dedupe_key).includes('#'))).toHaveLength(2);
  });

  it('a buyer who did not consent: a constituent (found by e-mail), no OptIn, a contact not on the list', async () => {
    const body = buyerOrder({ email: 'known.supporter@example.org', consent: 'not_subscribed' });
    await deliver(w(), body, { topic: 'orders/paid' });
    await drain();
    expect(constituentsWith('known.supporter@example.org').map((c) => c.id)).toEqual(['900']);
    expect(re().consentsOf('900').filter((c) => c.constituent_consent_response === 'OptIn')).toEqual([]);
    expect(adestra().contactByEmail('known.supporter@example.org')).toBeDefined();
    expect(adestra().isOnList('known.supporter@example.org', BUYERS_LIST)).toBe(false);
    const p = await view(body.id);
    expect(stepOf(p, 'addToRaisersEdge')).toMatchObject({ state: 'done', ref: '900' });
  });

  it('an unpaid order waits for its payment; the payment queues the steps once', async () => {
    const body = buyerOrder({ email: 'pending.payer@example.org', consent: 'subscribed', financial: 'pending' });
    await deliver(w(), body, { topic: 'orders/create' });
    await drain();
    expect(constituentsWith('pending.payer@example.org')).toEqual([]);
    expect(stepOf(await view(body.id), 'addToRaisersEdge')).toMatchObject({ state: 'waiting-for-payment' });
    const rerunUnpaid = await rerun(body.id, { addToRaisersEdge: true });
    expect(rerunUnpaid.skipped[0]).toMatchObject({ step: 'addToRaisersEdge' });
    expect(rerunUnpaid.skipped[0].reason).toMatch(/not paid/);

    await deliver(w(), { ...body, financial_status: 'paid', updated_at: '2026-11-21T11:00:00Z' }, { topic: 'orders/paid' });
    await drain();
    expect(constituentsWith('pending.payer@example.org')).toHaveLength(1);
  });

  it('a CRM that does not answer is tried again; a refusal shows on the order with its message', async () => {
    const body = buyerOrder({ email: 'flaky.crm@example.org', consent: 'subscribed' });
    re().failNext(8, 503, { path: /constituents\/search/ });
    await deliver(w(), body, { topic: 'orders/paid' });
    await pipeline().processDue();
    const queued = stepOf(await view(body.id), 'addToRaisersEdge');
    expect(queued.state).toBe('queued');
    expect(queued.message).toMatch(/503/);
    re().clearFaults();
    const out = await rerun(body.id, { addToRaisersEdge: true });
    expect(out.ran).toContain('addToRaisersEdge');
    expect(constituentsWith('flaky.crm@example.org')).toHaveLength(1);
  });

  it('a step that stops after the CRM answered (before its outcome is kept) writes nothing twice when tried again', async () => {
    const body = buyerOrder({ email: 'crash.after@example.org', consent: 'subscribed' });
    let crashes = 0;
    pipeline().configure({
      hooks: {
        afterCall: ({ step }) => {
          if (step === 'addToRaisersEdge' && crashes++ === 0) throw new Error('the app stopped here');
        },
      },
    });
    try {
      await deliver(w(), body, { topic: 'orders/paid' });
      await pipeline().processDue();
      expect(crashes).toBe(1);
      const waiting = stepOf(await view(body.id), 'addToRaisersEdge');
      expect(waiting.state).toBe('queued');
      const now = w().clock.now();
      w().clock.set(new Date(Date.parse(waiting.nextAttemptAt!) + 1000));
      try {
        await drain();
      } finally {
        w().clock.set(now);
      }
    } finally {
      pipeline().configure({ hooks: undefined });
    }
    const made = constituentsWith('crash.after@example.org');
    expect(made).toHaveLength(1);
    expect(re().consentsOf(made[0].id)).toHaveLength(1);
    expect(re().notesOf(made[0].id)).toHaveLength(1);
    expect(stepOf(await view(body.id), 'addToRaisersEdge')).toMatchObject({ state: 'done', ref: made[0].id, attempts: 2 });
  });

  it('re-run of a step the site is not configured for says so, never "not available"; the setting names only to admins', async () => {
    const body = buyerOrder({ email: 'site.b@example.org', consent: 'subscribed' });
    await setSiteEnv(w(), w().sites.a, { ADESTRA_BUYERS_LIST_ID: '' });
    try {
      await deliver(w(), body, { topic: 'orders/paid' });
      const out = await rerun(body.id, { addToAdestra: true });
      expect(out.skipped).toEqual([{ step: 'addToAdestra', reason: "not set up for this site (an admin sets it up in the site's settings)" }]);
      expect(JSON.stringify(out)).not.toMatch(/not available|ADESTRA_/);
      const staffStep = stepOf(await view(body.id), 'addToAdestra');
      expect(staffStep).toMatchObject({ state: 'not-configured', message: "not set up for this site (an admin sets it up in the site's settings)" });
      expect(staffStep).not.toHaveProperty('settingsLink');
      const byAdmin = await rerun(body.id, { addToAdestra: true }, w().tokens.adminA);
      expect(byAdmin.skipped).toEqual([{ step: 'addToAdestra', reason: expect.stringMatching(/ADESTRA_BUYERS_LIST_ID/) }]);
      const adminView = await w().request().get(`/api/orders/${body.id}/pipeline`).set(bearer(w().tokens.adminA));
      expect(adminView.body.data.steps.find((s: { step: string }) => s.step === 'addToAdestra')).toMatchObject({ state: 'not-configured', message: expect.stringMatching(/ADESTRA_BUYERS_LIST_ID/), settingsLink: `/sites/${w().sites.a}` });
    } finally {
      await setSiteEnv(w(), w().sites.a, { ADESTRA_BUYERS_LIST_ID: String(BUYERS_LIST) });
    }
  });
});

describe('e-cards', () => {
  const ecard = (sendDate?: string) => ({ 'Recipient name': 'Alan', 'recipient EMAIL': 'alan@example.net', Message: 'Warm wishes for the season', ...(sendDate ? { 'Send date': sendDate } : {}) });

  it('an e-card line sends exactly one e-mail to its recipient, with the rendered card inline', async () => {
    const body = buyerOrder({ email: 'sender1@example.org', consent: 'not_subscribed', skus: ['PIPE-CARD', 'PIPE-ECARD'], ecard: ecard() });
    await deliver(w(), body, { topic: 'orders/paid' });
    await deliver(w(), body, { topic: 'orders/paid' });
    await drain();
    await drain();
    const mails = smtp.messages().filter((m) => m.envelope.to.includes('alan@example.net'));
    expect(mails).toHaveLength(1);
    const mail = mails[0];
    expect(mail.envelope.from).toBe('cards@charity.example.org');
    expect(mail.from).toContain('Site A');
    expect(mail.subject).toBe('Grace Hopper sent you an e-card');
    expect(mail.text).toContain('Warm wishes for the season');
    expect(mail.html).toContain('cid:ecard-front@presswork');
    const image = mail.attachments.find((a) => a.cid === 'ecard-front@presswork');
    expect(image).toMatchObject({ contentType: 'image/png' });
    expect(image!.size).toBeGreaterThan(5_000);
    const ecardLine = body.line_items.find((l) => l.sku === 'PIPE-ECARD')!;
    expect(stepOf(await view(body.id), 'sendEcard')).toMatchObject({ state: 'done', lineId: ecardLine.id, recipient: 'alan@example.net', ref: mail.messageId });
  });

  it('a picture e-card (an image, no editor document) is e-mailed as that picture, scaled to the e-mail, with the message in the text', async () => {
    const photo = await jpegOf(artworkRgb(2400, 1600, 7), 2400, 1600);
    const image = await storeFile(w().services.store, 'robin.jpg', photo);
    await makeDesign(w(), w().tokens.adminA, { name: 'Robin picture e-card', sku: 'PIPE-PICTURE', productType: 'E-card', image });
    const body = buyerOrder({ email: 'sender9@example.org', consent: 'not_subscribed', skus: ['PIPE-PICTURE'], ecardSku: 'PIPE-PICTURE', ecard: { 'Recipient name': 'Ada', 'Recipient email': 'ada@example.net', Message: 'A robin for your window' } });
    await deliver(w(), body, { topic: 'orders/paid' });
    await drain();
    const mails = smtp.messages().filter((m) => m.envelope.to.includes('ada@example.net'));
    expect(mails).toHaveLength(1);
    const mail = mails[0];
    expect(mail.text).toContain('A robin for your window');
    expect(mail.text).toContain('Dear Ada,');
    expect(mail.html).toContain('cid:ecard-front@presswork');
    const index = mail.attachments.findIndex((a) => a.cid === 'ecard-front@presswork');
    expect(mail.attachments[index]).toMatchObject({ contentType: 'image/jpeg', filename: 'e-card.jpg' });
    const sent = await sharp(smtp.attachment(mail.id, index)!.content).metadata();
    // The uploaded 2400 × 1600 photo, scaled to the e-mail's 1200 px.
    expect(sent).toMatchObject({ format: 'jpeg', width: 1200, height: 800 });
    expect(stepOf(await view(body.id), 'sendEcard')).toMatchObject({ state: 'done', recipient: 'ada@example.net' });
  });

  it('an e-card design with neither a document nor a picture: Check order says so before anything is sent; a re-run fails with the sentence', async () => {
    const design = await makeDesign(w(), w().tokens.adminA, { name: 'Blank e-card', sku: 'PIPE-BLANK', productType: 'E-card' });
    // Made before the sentence existed, or its picture removed since: nothing to draw and nothing to attach.
    await w().db('designs').where({ id: design.id }).update({ image: null, data: JSON.stringify({}) });
    await setSiteEnv(w(), w().sites.a, { PIPELINE_SEND_ECARD: '0' });
    try {
      const body = buyerOrder({ email: 'sender10@example.org', consent: 'not_subscribed', skus: ['PIPE-BLANK'], ecardSku: 'PIPE-BLANK', ecard: { 'Recipient email': 'nobody@example.net' } });
      await deliver(w(), body, { topic: 'orders/paid' });
      await drain();
      const sentence = `The e-card design "Blank e-card" (id ${design.id}) has neither an editor document nor a picture: open the design and make it in the editor or upload its picture`;
      expect(stepOf(await view(body.id), 'sendEcard')).toMatchObject({ state: 'not-configured', message: sentence });
      const out = await rerun(body.id, { sendEcard: true });
      expect(out.failed).toEqual([{ step: 'sendEcard', error: `The e-card cannot be sent: ${sentence}` }]);
      expect(smtp.messages().filter((m) => m.envelope.to.includes('nobody@example.net'))).toEqual([]);
    } finally {
      await setSiteEnv(w(), w().sites.a, { PIPELINE_SEND_ECARD: '1' });
    }
  });

  it('an e-card with a send date goes on that date, not before', async () => {
    const now = w().clock.now();
    const day = new Date(now.getTime() + 3 * 86_400_000).toISOString().slice(0, 10);
    const body = buyerOrder({ email: 'sender2@example.org', consent: 'not_subscribed', skus: ['PIPE-ECARD'], ecard: ecard(day) });
    await deliver(w(), body, { topic: 'orders/paid' });
    await drain();
    expect(smtp.messages()).toEqual([]);
    const queued = stepOf(await view(body.id), 'sendEcard');
    expect(queued.state).toBe('queued');
    expect(queued.nextAttemptAt!.slice(0, 10) >= new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10)).toBe(true);
    w().clock.set(new Date(Date.parse(queued.nextAttemptAt!) + 1000));
    try {
      await drain();
      expect(smtp.messages().filter((m) => m.envelope.to.includes('alan@example.net'))).toHaveLength(1);
    } finally {
      w().clock.set(now);
    }
  });

  it('a permanent refusal (550) shows as failed; a 421 is tried again and then sent', async () => {
    const refused = buyerOrder({ email: 'sender3@example.org', consent: 'not_subscribed', skus: ['PIPE-ECARD'], ecard: ecard() });
    smtp.refuseNext(1, 550, 'No such user here');
    await deliver(w(), refused, { topic: 'orders/paid' });
    await drain();
    const failed = stepOf(await view(refused.id), 'sendEcard');
    expect(failed.state).toBe('failed');
    expect(failed.message).toMatch(/550/);
    expect(failed.message).toMatch(/No such user/);

    const later = buyerOrder({ email: 'sender4@example.org', consent: 'not_subscribed', skus: ['PIPE-ECARD'], ecard: ecard() });
    smtp.refuseNext(1, 421, 'Try again later');
    await deliver(w(), later, { topic: 'orders/paid' });
    await pipeline().processDue();
    const waiting = stepOf(await view(later.id), 'sendEcard');
    expect(waiting.state).toBe('queued');
    expect(waiting.message).toMatch(/421/);
    expect(smtp.messages()).toEqual([]);
    const now = w().clock.now();
    w().clock.set(new Date(Date.parse(waiting.nextAttemptAt!) + 1000));
    try {
      await drain();
    } finally {
      w().clock.set(now);
    }
    expect(smtp.messages()).toHaveLength(1);
    expect(stepOf(await view(later.id), 'sendEcard')).toMatchObject({ state: 'done', attempts: 2 });

    // Re-run Send e-card sends it again on purpose.
    const out = await rerun(later.id, { sendEcard: true });
    expect(out.ran).toEqual(['sendEcard']);
    expect(smtp.messages()).toHaveLength(2);
  });

  it('a cancelled order sends no e-card', async () => {
    const now = w().clock.now();
    const day = new Date(now.getTime() + 2 * 86_400_000).toISOString().slice(0, 10);
    const body = buyerOrder({ email: 'sender5@example.org', consent: 'not_subscribed', skus: ['PIPE-ECARD'], ecard: ecard(day) });
    await deliver(w(), body, { topic: 'orders/paid' });
    await deliver(w(), { ...body, cancelled_at: '2026-11-21T12:00:00Z', cancel_reason: 'customer', updated_at: '2026-11-21T12:00:00Z' }, { topic: 'orders/cancelled' });
    w().clock.set(new Date(now.getTime() + 4 * 86_400_000));
    try {
      await drain();
    } finally {
      w().clock.set(now);
    }
    expect(smtp.messages()).toEqual([]);
    expect(stepOf(await view(body.id), 'sendEcard')).toMatchObject({ state: 'not-needed' });
  });

  it('two instances working the same rows send each e-card once', async () => {
    const second = pipelineService(pipelineContext(world.deps, { options: w().services.fulfilment.options, production: w().services.production, render: w().services.render, fetchPicture: (url) => w().services.artwork(url), clients: w().services.sync.clients }));
    const bodies = [0, 1, 2].map((i) => buyerOrder({ email: `twin${i}@example.org`, consent: 'not_subscribed', skus: ['PIPE-ECARD'], ecard: { 'Recipient name': `Twin ${i}`, 'Recipient email': `twin.recipient${i}@example.net`, Message: 'Hello twin' } }));
    for (const b of bodies) await deliver(w(), b, { topic: 'orders/paid' });
    await Promise.all([drain(), (async () => {
      for (let i = 0; i < 10; i++) if ((await second.processDue()).claimed === 0) return;
    })()]);
    const to = smtp.messages().flatMap((m) => m.envelope.to).sort();
    expect(to).toEqual(['twin.recipient0@example.net', 'twin.recipient1@example.net', 'twin.recipient2@example.net']);
  });
});
