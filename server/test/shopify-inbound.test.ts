// What a Shopify store really sends, against the real provider side and the HP simulator: unpaid
// orders held until paid (SHOPIFY_SEND_WHEN), cancellations (not sent, jobs out of the queue, the
// provider's orders cancelled), orders/edited's real body, current_quantity, deliveries without
// X-Shopify-Event-Id.
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bearer } from './harness';
import { createHpWorld } from './fulfilmentWorld';
import { connectStores, deliver, deliveries, makeDesign, order, orderRows, postWebhook, setSiteEnv } from './ordersKit';

describe('shopify inbound, as the store sends it', async () => {
  const w = await createHpWorld();
  await connectStores(w);
  await setSiteEnv(w, w.sites.a, { HP_SOURCE_ACCOUNT: 'presswork' });
  const post = (path: string, body: unknown, token = w.tokens.userA) => w.request().post(path).set(bearer(token)).send(body as object);
  const sendHp = (body: Record<string, unknown>) => post('/api/online-stores/shopify-webhook/send-hp', body);
  const outboxOf = (orderId: string) => w.db('outbox').where({ kind: 'hp-order' }).where('dedupe_key', 'like', `%:${orderId}%`);
  const jobsOf = async (orderId: string) => (await w.request().get(`/api/print-jobs/from-shopify-order/${orderId}`).set(bearer(w.tokens.userA))).body.data.list as Array<{ id: number; lineItemId: string; quantity: number; withdrawn: { reason: string } | null; madeBy: string }>;
  const queue = async () => (await w.request().get('/api/print-jobs?isPrinted=0&pageSize=100').set(bearer(w.tokens.userA))).body.data.list as Array<{ id: number; shopifyOrderId: string }>;
  const record = async (orderId: string) => (await orderRows(w, orderId))[0];
  type Entry = { kind: string; subjectId: string; action: string; from: string | null; to: string | null; reason: string | null; actor: { automatic?: string; name?: string } };
  /** The order's timeline: its sends' and its own entries, as Check order shows them. */
  const timeline = async (orderId: string) => {
    const res = await w.request().get(`/api/online-stores/order-history?id=${orderId}`).set(bearer(w.tokens.userA));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.list as Entry[];
  };
  const cancelSteps = (list: Entry[]) => list.filter((e) => e.kind === 'send' && (e.action.startsWith('cancel') || e.action === 'stopped')).map((e) => [e.action, e.from, e.to, e.actor.automatic ?? e.actor.name, e.reason]);

  await makeDesign(w, w.tokens.adminA, { name: 'Inbound card', sku: 'IN-CARD', hpSKU: 'HP-IN-CARD', productPdf: '/files/test/design.pdf' });

  const unpaid = (skus = ['IN-CARD']) => ({ ...order({ skus }), financial_status: 'pending' });
  const later = (o: { updated_at: string }, minutes: number) => new Date(Date.parse(o.updated_at) + minutes * 60_000).toISOString();

  describe('X-Shopify-Event-Id is optional', () => {
    it('a delivery without it is accepted and deduplicated by its X-Shopify-Webhook-Id', async () => {
      const o = order({ skus: ['IN-CARD'] });
      const webhookId = crypto.randomUUID();
      const first = await deliver(w, o, { omit: ['X-Shopify-Event-Id'], webhookId });
      expect(first.status).toBe(200);
      expect(first.body.data.received).toBe(true);
      expect(await deliveries(w, { event_id: `webhook:${webhookId}` })).toHaveLength(1);
      expect(await record(o.id)).toBeDefined();
      // Shopify's retry keeps the webhook id: a duplicate.
      const retry = await deliver(w, o, { omit: ['X-Shopify-Event-Id'], webhookId });
      expect(retry.body).toEqual({ success: true, data: { duplicate: true } });
      // Another delivery (another webhook id) is another delivery.
      expect((await deliver(w, { ...o, updated_at: later(o, 1) }, { omit: ['X-Shopify-Event-Id'], topic: 'orders/updated' })).body.data.received).toBe(true);
      // With an event id, the event id is the key: one event through two subscriptions is one delivery.
      const eventId = crypto.randomUUID();
      expect((await deliver(w, o, { eventId })).body.data.received).toBe(true);
      expect((await deliver(w, o, { eventId, webhookId: crypto.randomUUID() })).body.data.duplicate).toBe(true);
    });
  });

  describe('SHOPIFY_SEND_WHEN (auto-send site)', () => {
    it('paid (default): an unpaid order waits; orders/paid sends it, exactly once', async () => {
      await setSiteEnv(w, w.sites.a, { HP_AUTO_SEND: '1' });
      try {
        const o = unpaid();
        await deliver(w, o);
        expect(await outboxOf(o.id)).toHaveLength(0);
        expect((await record(o.id)).data.financial_status).toBe('pending');
        // A later update still unpaid: still waiting.
        await deliver(w, { ...o, updated_at: later(o, 1) }, { topic: 'orders/updated' });
        expect(await outboxOf(o.id)).toHaveLength(0);
        await deliver(w, { ...o, financial_status: 'paid', updated_at: later(o, 2) }, { topic: 'orders/paid' });
        // Paid, then updated again: one send.
        await deliver(w, { ...o, financial_status: 'paid', updated_at: later(o, 3) }, { topic: 'orders/updated' });
        expect(await outboxOf(o.id)).toHaveLength(1);
        await w.services.fulfilment.processDue();
        expect(w.sim.orderBySource(o.id)).toBeDefined();
        expect((await record(o.id)).status).toBe('sent');
      } finally {
        await setSiteEnv(w, w.sites.a, { HP_AUTO_SEND: '' });
      }
    });

    it('paid on any topic counts (partially_paid on orders/updated); refunded and authorized do not', async () => {
      await setSiteEnv(w, w.sites.a, { HP_AUTO_SEND: '1' });
      try {
        const refunded = { ...order({ skus: ['IN-CARD'] }), financial_status: 'refunded' };
        const authorized = { ...order({ skus: ['IN-CARD'] }), financial_status: 'authorized' };
        const partial = unpaid();
        for (const o of [refunded, authorized, partial]) await deliver(w, o);
        await deliver(w, { ...partial, financial_status: 'partially_paid', updated_at: later(partial, 1) }, { topic: 'orders/updated' });
        expect(await outboxOf(refunded.id)).toHaveLength(0);
        expect(await outboxOf(authorized.id)).toHaveLength(0);
        expect(await outboxOf(partial.id)).toHaveLength(1);
      } finally {
        await setSiteEnv(w, w.sites.a, { HP_AUTO_SEND: '' });
      }
    });

    it('created: an unpaid order goes at once', async () => {
      await setSiteEnv(w, w.sites.a, { HP_AUTO_SEND: '1', SHOPIFY_SEND_WHEN: 'created' });
      try {
        const o = unpaid();
        await deliver(w, o);
        expect(await outboxOf(o.id)).toHaveLength(1);
      } finally {
        await setSiteEnv(w, w.sites.a, { HP_AUTO_SEND: '', SHOPIFY_SEND_WHEN: '' });
      }
    });
  });

  describe('Send HP on an unpaid order', () => {
    it('asks first (409 ORDER_UNPAID with confirmWith); the yes sends it', async () => {
      const o = unpaid();
      await deliver(w, o);
      const asked = await sendHp({ id: o.id });
      expect(asked.status).toBe(409);
      expect(asked.body).toMatchObject({ success: false, details: { code: 'ORDER_UNPAID', financialStatus: 'pending', confirmWith: { sendUnpaid: true } } });
      expect(asked.body.error).toMatch(/not paid yet \(payment status: pending\)/);
      expect(w.sim.orderBySource(o.id)).toBeUndefined();
      const line = await post('/api/online-stores/shopify-webhook/send-hp-single-line', { orderId: o.id, lineId: o.line_items[0].id });
      expect(line.status).toBe(409);
      const yes = await sendHp({ id: o.id, sendUnpaid: true });
      expect(yes.status, JSON.stringify(yes.body)).toBe(200);
      expect(w.sim.orderBySource(o.id)).toBeDefined();
    });

    it('Re-run → Send to HP skips an unpaid order, saying to use Send HP', async () => {
      const o = unpaid();
      await deliver(w, o);
      const res = await post('/api/online-stores/rerun-order', { id: o.id, flags: { sendToHP: true } });
      expect(res.status).toBe(200);
      expect(res.body.data.skipped).toEqual([{ step: 'sendToHP', reason: expect.stringMatching(/not paid yet.*Use Send HP/) }]);
    });
  });

  describe('orders/cancelled', () => {
    it('before sending: marked cancelled with the reason, never sent, its jobs leave the queue saying why', async () => {
      await setSiteEnv(w, w.sites.a, { HP_AUTO_SEND: '1' });
      try {
        const o = unpaid();
        await deliver(w, o);
        const made = await post('/api/online-stores/shopify-webhook/order-to-arwork', { id: o.id });
        expect(made.status).toBe(200);
        const [job] = made.body.data.jobs as Array<{ id: number }>;
        expect((await queue()).some((j) => j.id === job.id)).toBe(true);

        const cancelledAt = later(o, 5);
        await deliver(w, { ...o, financial_status: 'voided', updated_at: cancelledAt, cancelled_at: cancelledAt, cancel_reason: 'customer' }, { topic: 'orders/cancelled' });
        const row = await record(o.id);
        expect(row.status).toBe('cancelled');
        expect(row.data.cancelled).toEqual({ cancelledAt, reason: 'customer' });
        expect(row.data.providerCancellation).toBeUndefined();
        // A late orders/paid (older) or a newer update without cancelled_at changes nothing of that.
        await deliver(w, { ...o, financial_status: 'paid', updated_at: later(o, 9) }, { topic: 'orders/paid' });
        expect((await record(o.id)).data.cancelled).toEqual({ cancelledAt, reason: 'customer' });
        expect(await outboxOf(o.id)).toHaveLength(0);

        expect((await queue()).some((j) => j.id === job.id)).toBe(false);
        const [gone] = await jobsOf(o.id);
        expect(gone.withdrawn?.reason).toBe('The order was cancelled in the store (customer)');
        // Check order says so per line.
        const check = await post('/api/online-stores/check-order', { id: o.id });
        const rec = (check.body.data as Array<{ type: string; data: { production: unknown[] } }>).find((r) => r.type === 'shopify-order-log')!;
        expect(rec.data.production).toEqual([expect.objectContaining({ printJobId: job.id, withdrawn: 'The order was cancelled in the store (customer)' })]);
        const download = await post('/api/pdf/from-print-job', { id: job.id });
        expect(download.status).toBe(409);
        expect(download.body.error).toMatch(/left the queue unprinted.*cancelled in the store \(customer\)/);

        const send = await sendHp({ id: o.id, sendUnpaid: true, sendFromJobs: true });
        expect(send.status).toBe(409);
        expect(send.body).toMatchObject({ details: { code: 'ORDER_CANCELLED' } });
        expect(send.body.error).toMatch(/cancelled in the store \(customer\).*not printed or sent/);
        expect(send.body.details.confirmWith).toBeUndefined();
        expect((await post('/api/online-stores/shopify-webhook/order-to-arwork', { id: o.id })).status).toBe(409);
      } finally {
        await setSiteEnv(w, w.sites.a, { HP_AUTO_SEND: '' });
      }
    });

    it('cancelled_at on any topic cancels too', async () => {
      const o = order({ skus: ['IN-CARD'] });
      await deliver(w, o);
      await deliver(w, { ...o, updated_at: later(o, 1), cancelled_at: later(o, 1), cancel_reason: 'fraud' }, { topic: 'orders/updated' });
      expect((await record(o.id)).data.cancelled).toEqual({ cancelledAt: later(o, 1), reason: 'fraud' });
      expect((await sendHp({ id: o.id })).status).toBe(409);
    });

    it('after sending: the order and a line sent on its own are cancelled at HP, the result on the order', async () => {
      const o = order({ skus: ['IN-CARD', 'IN-CARD'] });
      await deliver(w, o);
      const [first, second] = o.line_items.map((l) => l.id);
      expect((await post('/api/online-stores/shopify-webhook/send-hp-single-line', { orderId: o.id, lineId: second })).status).toBe(200);
      expect((await sendHp({ id: o.id })).status).toBe(200);
      expect(w.sim.orderBySource(o.id)?.status).not.toBe('cancelled');
      expect(w.sim.orderBySource(`${o.id}-${second}`)).toBeDefined();
      expect(first).toBeDefined();

      await deliver(w, { ...o, updated_at: later(o, 5), cancelled_at: later(o, 5), cancel_reason: 'inventory' }, { topic: 'orders/cancelled' });
      const pending = await record(o.id);
      expect(pending.data.providerCancellation).toMatchObject({ status: 'pending', sourceOrderIds: [o.id, `${o.id}-${second}`] });
      // The order was at the provider: its status stays the provider's until HP confirms.
      expect(pending.status).toBe('sent');

      // HP does not answer the first attempt: tried again later, the order's timeline says when.
      w.sim.failNext(4, 503);
      await w.services.cancellations.processDue();
      expect((await timeline(o.id)).filter((e) => e.kind === 'send' && e.action === 'rescheduled').map((e) => e.reason)).toEqual([expect.stringMatching(/^Next try at .+ \(attempt 1 of 3\): HP Site Flow did not answer the cancellation of .*503/)]);
      w.clock.advance(61_000);
      await w.services.cancellations.processDue();
      expect(w.sim.orderBySource(o.id)?.status).toBe('cancelled');
      expect(w.sim.orderBySource(`${o.id}-${second}`)?.status).toBe('cancelled');
      const done = await record(o.id);
      expect(done.status).toBe('cancelled');
      expect(done.data.providerCancellation).toMatchObject({ status: 'cancelled', message: expect.stringContaining('Cancelled at HP Site Flow') });
      // The step ran once: a second pass has nothing to do.
      expect((await w.services.cancellations.processDue()).claimed).toBe(0);
      // The order's timeline tells it: the cancel asked of HP by the store's webhook, HP confirming, the order cancelled.
      const list = await timeline(o.id);
      expect(cancelSteps(list)).toEqual([
        ['cancel-queued', null, 'pending', 'Shopify webhook orders/cancelled', `HP orders ${o.id}, ${o.id}-${second}`],
        ['cancelled', 'pending', 'cancelled', 'HP Site Flow send', (done.data.providerCancellation as { message: string }).message],
      ]);
      // HP's answer or its postback of the cancellation, whichever came first, moved the order to cancelled, once.
      const moved = list.filter((e) => e.kind === 'order' && e.action === 'status' && e.to === 'cancelled');
      expect(moved).toHaveLength(1);
      expect(['HP Site Flow send', 'HP Site Flow postback']).toContain(moved[0].actor.automatic);
    });

    it('without HP_SOURCE_ACCOUNT the cancellation fails visibly, saying what to set', async () => {
      const o = order({ skus: ['IN-CARD'] });
      await deliver(w, o);
      expect((await sendHp({ id: o.id })).status).toBe(200);
      await setSiteEnv(w, w.sites.a, { HP_SOURCE_ACCOUNT: '' });
      try {
        await deliver(w, { ...o, updated_at: later(o, 5), cancelled_at: later(o, 5), cancel_reason: 'other' }, { topic: 'orders/cancelled' });
        await w.services.cancellations.processDue();
        const row = await record(o.id);
        expect(row.data.providerCancellation).toMatchObject({ status: 'failed', message: expect.stringContaining('HP_SOURCE_ACCOUNT') });
        expect(w.sim.orderBySource(o.id)?.status).not.toBe('cancelled');
        expect(cancelSteps(await timeline(o.id))).toEqual([
          ['cancel-queued', null, 'pending', 'Shopify webhook orders/cancelled', `HP orders ${o.id}`],
          ['cancel-failed', 'pending', 'failed', 'HP Site Flow send', (row.data.providerCancellation as { message: string }).message],
        ]);
        // The check-order record carries both.
        const check = await post('/api/online-stores/check-order', { id: o.id });
        const rec = (check.body.data as Array<{ type: string; data: Record<string, unknown> }>).find((r) => r.type === 'shopify-order-log')!;
        expect(rec.data).toMatchObject({ cancelled: { reason: 'other' }, providerCancellation: { status: 'failed' } });
      } finally {
        await setSiteEnv(w, w.sites.a, { HP_SOURCE_ACCOUNT: 'presswork' });
      }
    });

    it('a send queued but not gone out when the order is cancelled never goes', async () => {
      const o = order({ skus: ['IN-CARD'] });
      await deliver(w, o);
      await w.db.transaction((trx) => w.services.fulfilment.enqueueOrderSend(trx, { siteId: w.sites.a, orderId: o.id }));
      await deliver(w, { ...o, updated_at: later(o, 5), cancelled_at: later(o, 5), cancel_reason: 'customer' }, { topic: 'orders/cancelled' });
      const [row] = await outboxOf(o.id);
      expect(row).toMatchObject({ status: 'failed', error: 'Not sent: the order was cancelled in the store' });
      await w.services.fulfilment.processDue();
      expect(w.sim.orderBySource(o.id)).toBeUndefined();
      // Stopped by the store's cancellation; nothing had reached HP, so no cancel is asked of it.
      expect(cancelSteps(await timeline(o.id))).toEqual([['stopped', 'pending', 'failed', 'Shopify webhook orders/cancelled', 'Not sent: the order was cancelled in the store']]);
    });
  });

  describe('current_quantity: what is printed', () => {
    it('a line with 0 is not printed or sent; the others go with their current quantity', async () => {
      const o = order({ skus: ['IN-CARD', 'IN-CARD'] });
      const [kept, removed] = o.line_items;
      Object.assign(kept, { quantity: 3, current_quantity: 2 });
      Object.assign(removed, { quantity: 1, current_quantity: 0 });
      await deliver(w, o);
      expect((await record(o.id)).data.line_items).toMatchObject([{ id: kept.id, quantity: 3, current_quantity: 2 }, { id: removed.id, quantity: 1, current_quantity: 0 }]);

      const made = await post('/api/online-stores/shopify-webhook/order-to-arwork', { id: o.id });
      expect(made.body.data.jobs).toHaveLength(1);
      expect(made.body.data.jobs[0]).toMatchObject({ lineItemId: kept.id, quantity: 2 });
      expect(made.body.data.skipped).toEqual([{ lineId: removed.id, reason: expect.stringMatching(/No units left to print/) }]);
      const pdf = await post('/api/online-stores/shopify-webhook/hood-download-pdf', { id: o.id, lineId: removed.id });
      expect(pdf.status).toBe(400);
      expect(pdf.body.error).toMatch(/No units left to print/);

      const sent = await sendHp({ id: o.id, sendFromJobs: true });
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
      const items = w.sim.orderBySource(o.id)!.body.orderData.items as Array<{ sourceItemId: string; quantity: number }>;
      expect(items).toEqual([expect.objectContaining({ sourceItemId: kept.id, quantity: 2 })]);
    });

    it('auto-send is not held back by a removed line', async () => {
      await setSiteEnv(w, w.sites.a, { HP_AUTO_SEND: '1' });
      try {
        const o = order({ skus: ['IN-CARD', 'NOT-A-DESIGN'] });
        Object.assign(o.line_items[1], { current_quantity: 0 });
        await deliver(w, o);
        expect(await outboxOf(o.id)).toHaveLength(1);
      } finally {
        await setSiteEnv(w, w.sites.a, { HP_AUTO_SEND: '' });
      }
    });
  });

  describe('orders/edited', () => {
    const editBody = (orderId: string, createdAt: string, lines: { additions?: Array<{ id: string; delta: number }>; removals?: Array<{ id: string; delta: number }> }) => ({
      order_edit: { id: Number(crypto.randomInt(1, 2 ** 40)), app_id: null, created_at: createdAt, notify_customer: false, order_id: orderId, staff_note: '', user_id: null, line_items: { additions: lines.additions ?? [], removals: lines.removals ?? [] }, discounts: { line_item: { additions: [], removals: [] } }, shipping_lines: { additions: [], removals: [] } },
    });

    it("Shopify's body (order_edit with additions/removals) updates the stored lines and the line's job", async () => {
      const o = order({ skus: ['IN-CARD'] });
      const line = o.line_items[0];
      Object.assign(line, { quantity: 3, current_quantity: 3 });
      await deliver(w, o);
      await post('/api/online-stores/shopify-webhook/order-to-arwork', { id: o.id });
      expect((await jobsOf(o.id))[0].quantity).toBe(3);

      const answer = await deliver(w, editBody(o.id, later(o, 1), { removals: [{ id: line.id, delta: 1 }] }), { topic: 'orders/edited' });
      expect(answer.status).toBe(200);
      expect((await record(o.id)).data.line_items[0]).toMatchObject({ id: line.id, quantity: 3, current_quantity: 2 });
      expect((await jobsOf(o.id))[0]).toMatchObject({ quantity: 2, withdrawn: null });

      // A line added by the edit: there, without details until orders/updated brings them; it holds auto-send back meanwhile.
      const added = '1300000000000099999';
      await deliver(w, editBody(o.id, later(o, 2), { additions: [{ id: added, delta: 2 }] }), { topic: 'orders/edited' });
      expect((await record(o.id)).data.line_items).toMatchObject([{ id: line.id, current_quantity: 2 }, { id: added, sku: null, quantity: 2, current_quantity: 2 }]);

      // Every unit removed: the job leaves the queue, saying why.
      await deliver(w, editBody(o.id, later(o, 3), { removals: [{ id: line.id, delta: 2 }] }), { topic: 'orders/edited' });
      const [job] = await jobsOf(o.id);
      expect(job.withdrawn?.reason).toMatch(/No units left to print/);
      expect((await queue()).some((j) => j.id === job.id)).toBe(false);

      // The orders/updated that follows is the truth (newest wins): the lines as the store has them.
      const truth = { ...o, updated_at: later(o, 4), line_items: [{ ...line, current_quantity: 1 }] };
      await deliver(w, truth, { topic: 'orders/updated' });
      expect((await record(o.id)).data.line_items).toMatchObject([{ id: line.id, current_quantity: 1 }]);
      expect((await jobsOf(o.id))[0]).toMatchObject({ quantity: 1, withdrawn: null });
    });

    it('an edit the stored order already includes (older than it) changes nothing; an edit of an order not received yet is processed and stores nothing', async () => {
      const o = order({ skus: ['IN-CARD'] });
      Object.assign(o.line_items[0], { quantity: 2, current_quantity: 1 });
      await deliver(w, { ...o, updated_at: later(o, 10) });
      await deliver(w, editBody(o.id, later(o, 5), { removals: [{ id: o.line_items[0].id, delta: 1 }] }), { topic: 'orders/edited' });
      expect((await record(o.id)).data.line_items[0]).toMatchObject({ current_quantity: 1 });

      const unknown = await deliver(w, editBody('4400000000000000001', later(o, 5), { removals: [{ id: '1', delta: 1 }] }), { topic: 'orders/edited' });
      expect(unknown.status).toBe(200);
      expect((await w.db('webhook_deliveries').where({ id: unknown.body.data.deliveryId }).first()).status).toBe('processed');
      expect(await orderRows(w, '4400000000000000001')).toEqual([]);
    });

    it('a full Order body on orders/edited is stored like any version', async () => {
      const o = order({ skus: ['IN-CARD'] });
      await deliver(w, o);
      await deliver(w, { ...o, updated_at: later(o, 1), line_items: [{ ...o.line_items[0], current_quantity: 0 }] }, { topic: 'orders/edited' });
      expect((await record(o.id)).data.line_items[0]).toMatchObject({ current_quantity: 0 });
    });

    it('an orders/edited body naming no order is refused (400), nothing stored', async () => {
      const res = await postWebhook(w, { order_edit: { id: 1, line_items: { additions: [], removals: [] } } }, { topic: 'orders/edited' });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('The order edit has no order id');
    });
  });
});
