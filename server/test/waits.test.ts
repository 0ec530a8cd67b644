// A paid order's lines wait before they are made: the site's change window (HOLD_MINUTES), then the
// buyer's proof (PROOF_REQUIRED). Nothing is made or sent while they wait; a cancel or an edit in
// the window changes what is made; Release now, an approval, an auto-approval end the wait once,
// however many instances or clicks; the proof link opens only its own line, until it expires.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { closeRenderWorkers } from '../src/modules/render/service';
import { proofToken } from '../src/modules/waiting';
import { waitsWorkflow } from '../src/workflows/waits';
import { startSmtpCatcher } from '../simulators/smtp';
import { createLogger } from '../src/lib/logger';
import { bearer } from './harness';
import { createHpWorld } from './fulfilmentWorld';
import { connectStores, deliver, makeDesign, order, setSiteEnv } from './ordersKit';
import { cardDoc } from './renderKit';

describe('the change window and buyer proofs', async () => {
  const w = await createHpWorld();
  await connectStores(w);
  const smtp = await startSmtpCatcher();
  afterAll(async () => {
    await smtp.close();
    await closeRenderWorkers();
  });
  const CARD = 'CARD-PROOF';
  await makeDesign(w, w.tokens.adminA, { name: 'Birthday card', sku: CARD, productType: 'Card', isCustomizable: true, hpSKU: 'HP-CARD-A5', data: { document: cardDoc() } });
  const post = (path: string, body: unknown = {}, token = w.tokens.userA) => w.request().post(path).set(bearer(token)).send(body as object);
  const outboxOf = async (orderId: string) => w.db('outbox').where({ site_id: w.sites.a }).whereLike('dedupe_key', `%${orderId}%`);
  const jobsOf = async (orderId: string) => w.db('print_jobs').where({ shopify_order_id: orderId });
  const actions = async (orderId: string) => (await w.db('history').where({ order_ref: orderId }).orderBy('id')).map((h: { action: string }) => h.action);
  const waitsOf = async (orderId: string) => w.db('line_waits').where({ order_id: orderId }).orderBy('id');
  const base = { HP_AUTO_SEND: '1', HOLD_MINUTES: '', PROOF_REQUIRED: '', PROOF_REMINDER_HOURS: '', PROOF_AUTO_APPROVE_HOURS: '', SMTP_URL: smtp.url, PROOF_FROM: 'Proofs <proofs@shop.example>' };
  const settings = (s: Record<string, string>) => setSiteEnv(w, w.sites.a, { ...base, ...s });
  /** The proof link of the newest e-mail to the buyer. */
  const linkOfLastMail = () => {
    const m = smtp.messages().at(-1)!;
    const token = /\/proof\/([^\s"<]+)/.exec(m.text)![1];
    return { mail: m, token };
  };

  async function paidOrder(lines = 1) {
    const o = order({ skus: Array(lines).fill(CARD) });
    expect((await deliver(w, o)).status).toBe(200);
    return o;
  }

  // Each test's orders alone wait: earlier tests' waits are over.
  beforeEach(async () => {
    smtp.clear();
    await w.db('line_waits').update({ state: 'released' });
  });

  describe('the change window', () => {
    it('a paid order waits: not auto-sent, Make in house and Send HP refused saying until when', async () => {
      await settings({ HOLD_MINUTES: '30' });
      const o = await paidOrder();
      expect(await outboxOf(o.id)).toEqual([]);
      const [wait] = await waitsOf(o.id);
      expect(wait).toMatchObject({ state: 'hold', line_id: o.line_items[0].id });
      const made = await post('/api/online-stores/shopify-webhook/order-to-arwork', { ids: [o.id] });
      expect(made.body.data.orders[0]).toMatchObject({ outcome: 'refused', refused: [{ code: 'waiting', reason: expect.stringMatching(/^In the change window until \d\d:\d\d: it is made once released$/) }] });
      const sent = await post('/api/online-stores/shopify-webhook/send-hp', { id: o.id });
      expect(sent.status).toBe(409);
      expect(sent.body.error).toMatch(/^The line is in the change window until \d\d:\d\d: nothing is made of it until then\. Release the order now/);
      expect(sent.body.details).toMatchObject({ code: 'LINE_WAITING', lines: [{ lineId: o.line_items[0].id, waiting: { reason: 'hold', until: wait.hold_until } }] });
      expect(await jobsOf(o.id)).toEqual([]);
      expect(await actions(o.id)).toContain('waiting');
    });

    it('List Orders says what an order waits for, until the window ends', async () => {
      await settings({ HOLD_MINUTES: '30' });
      const o = await paidOrder();
      const listed = async () => {
        const res = await w.request().get(`/api/general-data/shopify-order-log?field1=${o.id}`).set(bearer(w.tokens.userA));
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return (res.body.data.data as Array<{ field1: string; data: { waiting?: { reason: string; sentence: string } } }>).find((r) => r.field1 === o.id)!;
      };
      expect((await listed()).data.waiting).toMatchObject({ reason: 'hold', sentence: expect.stringMatching(/^in the change window until \d\d:\d\d$/) });
      w.clock.advance(31 * 60_000);
      await w.services.waits.releaseDue();
      expect((await listed()).data.waiting).toBeUndefined();
    });

    it('a cancel inside the window makes nothing, before or after the window ends', async () => {
      await settings({ HOLD_MINUTES: '30' });
      const o = await paidOrder();
      expect((await deliver(w, { ...o, cancelled_at: '2026-11-20T10:05:00Z', cancel_reason: 'customer', updated_at: '2026-11-20T10:05:00Z' }, { topic: 'orders/cancelled' })).status).toBe(200);
      w.clock.advance(31 * 60_000);
      await w.services.waits.releaseDue();
      expect((await waitsOf(o.id))[0].state).toBe('released');
      expect(await outboxOf(o.id)).toEqual([]);
      expect(await jobsOf(o.id)).toEqual([]);
    });

    it('an edit inside the window: only what is left is made, once the window ends', async () => {
      await settings({ HOLD_MINUTES: '30' });
      const o = await paidOrder(2);
      const edited = { ...o, updated_at: '2026-11-20T10:10:00Z', line_items: o.line_items.map((l, i) => (i === 1 ? { ...l, current_quantity: 0 } : l)) };
      expect((await deliver(w, edited, { topic: 'orders/updated' })).status).toBe(200);
      expect(await outboxOf(o.id)).toEqual([]);
      w.clock.advance(31 * 60_000);
      expect((await w.services.waits.releaseDue()).released).toBeGreaterThanOrEqual(2);
      const rows = await outboxOf(o.id);
      expect(rows).toHaveLength(1);
      expect((await waitsOf(o.id)).map((x: { state: string }) => x.state)).toEqual(['released', 'released']);
    });

    it('Extend hold: the window ends that many minutes later; nothing is made until then; refused with nothing in the window', async () => {
      await settings({ HOLD_MINUTES: '30' });
      const o = await paidOrder();
      const [before] = await waitsOf(o.id);
      expect((await post(`/api/orders/${o.id}/extend-hold`, { minutes: 20 }, w.tokens.userB)).status).toBe(404);
      const bad = await post(`/api/orders/${o.id}/extend-hold`, { minutes: 0 });
      expect(bad.status).toBe(400);
      expect(JSON.stringify(bad.body)).toMatch(/minutes.*at least 1/);
      const res = await post(`/api/orders/${o.id}/extend-hold`, { minutes: 20 });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data).toEqual({ holdUntil: new Date(Date.parse(before.hold_until) + 20 * 60_000).toISOString(), lines: [o.line_items[0].id] });
      expect(await actions(o.id)).toContain('hold extended');
      // The old end passes: still waiting, nothing made.
      w.clock.advance(31 * 60_000);
      await w.services.waits.releaseDue();
      expect((await waitsOf(o.id))[0].state).toBe('hold');
      expect(await outboxOf(o.id)).toEqual([]);
      // The new end passes: made.
      w.clock.advance(20 * 60_000);
      await w.services.waits.releaseDue();
      expect((await waitsOf(o.id))[0].state).toBe('released');
      expect((await outboxOf(o.id)).length).toBe(1);
      const over = await post(`/api/orders/${o.id}/extend-hold`, { minutes: 20 });
      expect(over.status).toBe(409);
      expect(over.body).toEqual({ success: false, error: expect.stringMatching(/^No line of this order is in the change window/) });
    });

    it('Release now: the order goes at once, once; another site cannot release it', async () => {
      await settings({ HOLD_MINUTES: '30' });
      const o = await paidOrder();
      expect((await post(`/api/orders/${o.id}/release`, {}, w.tokens.userB)).status).toBe(404);
      const res = await post(`/api/orders/${o.id}/release`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.released).toEqual([o.line_items[0].id]);
      expect((await post(`/api/orders/${o.id}/release`)).body.data.released).toEqual([]);
      expect(await outboxOf(o.id)).toHaveLength(1);
      expect(await actions(o.id)).toContain('released');
    });

    it('the scheduled release under two instances: the window ends once, the order is queued once', async () => {
      await settings({ HOLD_MINUTES: '10' });
      const o = await paidOrder();
      // A second instance: its own workflow on the same database.
      const other = waitsWorkflow({ db: w.db, clock: w.clock, config: w.config, log: createLogger('silent'), production: w.services.production, artwork: w.services.artwork, send: w.services.fulfilment });
      w.clock.advance(11 * 60_000);
      const [a, b] = await Promise.all([w.services.waits.releaseDue(), other.releaseDue()]);
      expect(a.released + b.released).toBe(1);
      expect(await outboxOf(o.id)).toHaveLength(1);
      expect((await actions(o.id)).filter((x) => x === 'change window ended')).toHaveLength(1);
    });
  });

  describe("a design's own say on proofs (data.proof)", () => {
    it('required: its lines wait for a proof though the site asks none; off: none though the site asks all', async () => {
      const always = await makeDesign(w, w.tokens.adminA, { name: 'Always proofed', sku: 'CARD-ALWAYS', productType: 'Card', isCustomizable: true, hpSKU: 'HP-CARD-A5', data: { document: cardDoc(), proof: 'required' } });
      await makeDesign(w, w.tokens.adminA, { name: 'Never proofed', sku: 'CARD-NEVER', productType: 'Card', isCustomizable: true, hpSKU: 'HP-CARD-A5', data: { document: cardDoc(), proof: 'off' } });
      const stored = (await w.db('designs').where({ id: always.id }).first()).data;
      expect(typeof stored === 'string' ? JSON.parse(stored) : stored).toMatchObject({ proof: 'required' });

      await settings({ PROOF_REQUIRED: 'off' });
      const a = order({ skus: ['CARD-ALWAYS', CARD] });
      expect((await deliver(w, a)).status).toBe(200);
      const waitsA = await waitsOf(a.id);
      expect(waitsA.map((x: { line_id: string; state: string }) => [x.line_id, x.state])).toEqual([[a.line_items[0].id, 'proof-due']]);

      await settings({ PROOF_REQUIRED: 'all' });
      const b = order({ skus: ['CARD-NEVER', CARD] });
      expect((await deliver(w, b)).status).toBe(200);
      const waitsB = await waitsOf(b.id);
      expect(waitsB.map((x: { line_id: string; state: string }) => [x.line_id, x.state])).toEqual([[b.line_items[1].id, 'proof-due']]);
    });

    it('refuses a value it does not know, with the field named; null clears it', async () => {
      const bad = await post('/api/designs', { name: 'Odd', sku: 'CARD-ODD', productType: 'Card', isCustomizable: true, data: { proof: 'sometimes' } }, w.tokens.adminA);
      expect(bad.status).toBe(400);
      expect(JSON.stringify(bad.body)).toMatch(/proof.*must be one of required, off/);
      const cleared = await post('/api/designs', { name: 'Cleared', sku: 'CARD-CLEARED', productType: 'Card', isCustomizable: true, data: { proof: null } }, w.tokens.adminA);
      expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    });
  });

  describe('buyer proofs', () => {
    it('the proof e-mail carries the pages as they print and a link to the page; opening is recorded once', async () => {
      await settings({ PROOF_REQUIRED: 'personalised' });
      const o = await paidOrder();
      expect((await waitsOf(o.id))[0].state).toBe('proof-due');
      expect(await outboxOf(o.id)).toEqual([]);
      expect((await w.services.waits.releaseDue()).proofsSent).toBe(1);
      const { mail, token } = linkOfLastMail();
      expect(mail.envelope.to).toEqual(['ada@example.com']);
      expect(mail.from).toContain('proofs@shop.example');
      expect(mail.attachments.length).toBeGreaterThan(0);
      expect(mail.attachments.every((a) => a.contentType === 'image/png')).toBe(true);
      const page = await w.request().get(`/proof/${token}`);
      expect(page.status).toBe(200);
      expect(page.text).toContain('Approve and print');
      expect(page.text).toContain('Happy birthday');
      await w.request().get(`/proof/${token}`);
      expect((await actions(o.id)).filter((x) => x === 'proof opened')).toHaveLength(1);
      expect(await actions(o.id)).toEqual(expect.arrayContaining(['proof sent', 'proof opened']));
    });

    it('refuses an expired, a tampered and another order\'s link with a clear page; approval cannot be used twice', async () => {
      await settings({ PROOF_REQUIRED: 'all' });
      const o = await paidOrder();
      const other = await paidOrder();
      await w.services.waits.releaseDue();
      const [mine] = await waitsOf(o.id);
      const [theirs] = await waitsOf(other.id);
      const token = proofToken(w.config.jwt.secret, mine.id, mine.proof_version, new Date(w.clock.now().getTime() + 86_400_000));
      const expired = await w.request().get(`/proof/${proofToken(w.config.jwt.secret, mine.id, mine.proof_version, new Date(w.clock.now().getTime() - 1000))}`);
      expect(expired.status).toBe(410);
      expect(expired.text).toContain('This proof link has expired');
      const tampered = await w.request().get(`/proof/${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`);
      expect(tampered.status).toBe(403);
      expect(tampered.text).toContain('This proof link is not valid');
      const swapped = token.replace(/^\d+\./, `${theirs.id}.`);
      const foreign = await w.request().post(`/api/proofs/${swapped}/approve`).type('form').set('Accept', 'text/html').send({});
      expect(foreign.status).toBe(403);
      expect(foreign.text).toContain('This proof link is not valid');
      expect(await outboxOf(other.id)).toEqual([]);
      // Two approvals at the same moment: one wins, production is queued once.
      const answers = await Promise.all([w.request().post(`/api/proofs/${token}/approve`).send({}), w.request().post(`/api/proofs/${token}/approve`).send({})]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      expect(await outboxOf(o.id)).toHaveLength(1);
      expect((await actions(o.id)).filter((x) => x === 'proof approved')).toHaveLength(1);
      const again = await w.request().post(`/api/proofs/${token}/approve`).type('form').set('Accept', 'text/html').send({});
      expect(again.status).toBe(409);
      expect(again.text).toContain('This proof was already approved');
      expect((await w.request().get(`/proof/${token}`)).text).toContain('You approved this proof');
    });

    it('a change request goes to the order; staff edit the personalisation and a new proof goes; the old link is replaced', async () => {
      await settings({ PROOF_REQUIRED: 'personalised' });
      const o = await paidOrder();
      await w.services.waits.releaseDue();
      const first = linkOfLastMail().token;
      const empty = await w.request().post(`/api/proofs/${first}/request-change`).send({ message: ' ' });
      expect(empty.status).toBe(400);
      expect(empty.body.error).toBe('Message is required: say what should change.');
      const asked = await w.request().post(`/api/proofs/${first}/request-change`).send({ message: 'The name is Ada, not Ana' });
      expect(asked.status, JSON.stringify(asked.body)).toBe(200);
      expect((await waitsOf(o.id))[0]).toMatchObject({ state: 'change', message: 'The name is Ada, not Ana' });
      const attention = await w.request().get('/api/attention').set(bearer(w.tokens.userA));
      expect(attention.body.data.items.filter((i: { kind: string; orderId: string }) => i.kind === 'proofChange' && i.orderId === o.id).map((i: { title: string }) => i.title)).toEqual([
        expect.stringContaining('the buyer asked for a change to the proof: “The name is Ada, not Ana”. Edit the line'),
      ]);
      const edit = await post(`/api/orders/${o.id}/lines/${o.line_items[0].id}/personalisation`, { properties: [{ name: 'Message', value: 'Happy birthday Ada' }] });
      expect(edit.status, JSON.stringify(edit.body)).toBe(200);
      expect(edit.body.data.proof).toBe('sent');
      const second = linkOfLastMail().token;
      expect(second).not.toBe(first);
      expect((await w.request().get(`/proof/${first}`)).text).toContain('A newer proof was sent');
      expect((await w.request().get(`/proof/${second}`)).text).toContain('Happy birthday Ada');
      expect((await w.request().post(`/api/proofs/${second}/approve`).send({})).status).toBe(200);
      expect((await w.request().get('/api/attention').set(bearer(w.tokens.userA))).body.data.items.some((i: { kind: string; orderId?: string }) => i.kind === 'proofChange' && i.orderId === o.id)).toBe(false);
      expect(await outboxOf(o.id)).toHaveLength(1);
      expect(await actions(o.id)).toEqual(expect.arrayContaining(['proof sent', 'proof change asked', 'personalisation edited', 'proof approved']));
    });

    it('a reminder first, then approved by itself, on the clock', async () => {
      await settings({ PROOF_REQUIRED: 'personalised', PROOF_REMINDER_HOURS: '1', PROOF_AUTO_APPROVE_HOURS: '3' });
      const o = await paidOrder();
      await w.services.waits.releaseDue();
      expect(smtp.messages()).toHaveLength(1);
      w.clock.advance(61 * 60_000);
      expect((await w.services.waits.releaseDue()).reminders).toBe(1);
      expect((await w.services.waits.releaseDue()).reminders).toBe(0);
      expect(smtp.messages()).toHaveLength(2);
      expect(smtp.messages()[1].subject).toMatch(/^Reminder: /);
      expect(await outboxOf(o.id)).toEqual([]);
      w.clock.advance(2 * 60 * 60_000);
      expect((await w.services.waits.releaseDue()).autoApproved).toBe(1);
      expect(await outboxOf(o.id)).toHaveLength(1);
      expect(await actions(o.id)).toEqual(expect.arrayContaining(['proof sent', 'proof reminder sent', 'proof auto-approved']));
    });

    it('without an auto-approve limit the line keeps waiting', async () => {
      await settings({ PROOF_REQUIRED: 'personalised' });
      const o = await paidOrder();
      await w.services.waits.releaseDue();
      w.clock.advance(30 * 24 * 3600_000);
      expect((await w.services.waits.releaseDue()).autoApproved).toBe(0);
      expect((await waitsOf(o.id))[0].state).toBe('proof');
      expect(await outboxOf(o.id)).toEqual([]);
    });
  });
});
