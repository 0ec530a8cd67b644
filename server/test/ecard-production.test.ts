// An E-card is e-mailed to its recipient, never printed: no print job, no print file, never in a
// provider order. An order with a card and an e-card sends only the card; an order of e-cards only
// is never sent (automatically or by an operator).
import { afterAll, describe, expect, it } from 'vitest';
import { seasonsGreetingsEcardDocument } from '../../seeds/printProduction';
import { ECARD_NOT_PRINTED, NOTHING_TO_PRINT_ECARDS, nothingToPrint, providerBlockers, readyForProvider, type LineMapping } from '../src/modules/production/designForLine';
import { closeRenderWorkers } from '../src/modules/render/service';
import { bearer } from './harness';
import { createHpWorld } from './fulfilmentWorld';
import { connectStores, deliver, makeDesign, order, setSiteEnv } from './ordersKit';
import { cardDoc } from './renderKit';

describe('E-card lines are never printed', async () => {
  const w = await createHpWorld();
  await connectStores(w);
  afterAll(() => closeRenderWorkers());
  const post = (path: string, body: unknown, token = w.tokens.userA) => w.request().post(path).set(bearer(token)).send(body as object);
  const send = '/api/online-stores/shopify-webhook/send-hp';
  const jobsOf = async (orderId: string) => w.db('print_jobs').where({ shopify_order_id: orderId });
  const outboxOf = async (orderId: string) => w.db('outbox').where({ site_id: w.sites.a }).whereLike('dedupe_key', `%${orderId}%`);

  const CARD = 'CARD-WINTER';
  const ECARD = 'ECARD-SEASONS';
  await makeDesign(w, w.tokens.adminA, { name: 'Winter card', sku: CARD, productType: 'Card', isCustomizable: true, hpSKU: 'HP-CARD-A5', data: { document: cardDoc() } });
  // An e-card with a provider SKU set by mistake is still never sent.
  const ecard = await makeDesign(w, w.tokens.adminA, { name: "Season's greetings e-card", sku: ECARD, productType: 'E-card', isCustomizable: true, hpSKU: 'HP-OOPS', data: { document: seasonsGreetingsEcardDocument() } });

  /** A paid order of these SKUs, e-card lines with their recipient, delivered by webhook. */
  async function orderOf(...skus: string[]) {
    const o = order({ skus });
    o.line_items.forEach((l) => {
      l.properties = l.sku === ECARD ? [{ name: 'Recipient name', value: 'Zainab' }, { name: 'Recipient email', value: 'zainab@example.org' }, { name: 'Message', value: 'Warm wishes' }] : [{ name: 'Recipient name', value: 'Olu' }];
    });
    expect((await deliver(w, o)).status).toBe(200);
    return { orderId: o.id, lineIds: o.line_items.map((l) => l.id) };
  }

  it('mapLines marks an e-card line not printed (its design kept): it blocks nothing and is not ready on its own', async () => {
    const { orderId, lineIds } = await orderOf(CARD, ECARD);
    const stored = await w.services.orders.getOrder(w.sites.a, orderId);
    const mappings = await w.services.production.mapLines(w.sites.a, stored!.data);
    expect(mappings.map((m) => ({ id: m.line.id, ecard: m.ecard ?? false, design: m.design?.id, reason: m.reason }))).toEqual([
      { id: lineIds[0], ecard: false, design: expect.any(Number), reason: undefined },
      { id: lineIds[1], ecard: true, design: ecard.id, reason: ECARD_NOT_PRINTED },
    ]);
    expect(readyForProvider(mappings)).toBe(true);
    expect(providerBlockers(mappings)).toEqual([]);
    expect(nothingToPrint(mappings)).toBeUndefined();
    const onlyEcard = mappings.filter((m) => m.ecard) as LineMapping[];
    expect(readyForProvider(onlyEcard)).toBe(false);
    expect(nothingToPrint(onlyEcard)).toBe(NOTHING_TO_PRINT_ECARDS);
    // A removed card line next to an e-card: still nothing to print.
    expect(nothingToPrint([...onlyEcard, { ...mappings[0], removed: true }])).toBe(NOTHING_TO_PRINT_ECARDS);
  });

  it('Send HP of a card and an e-card: HP gets only the card; the e-card has no print job', async () => {
    const { orderId, lineIds } = await orderOf(CARD, ECARD);
    const sent = await post(send, { id: orderId });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const items = w.sim.orderBySource(orderId)!.body.orderData.items as Array<{ sourceItemId: string }>;
    expect(items.map((i) => i.sourceItemId)).toEqual([lineIds[0]]);
    expect((await jobsOf(orderId)).map((j: { line_item_id: string }) => j.line_item_id)).toEqual([lineIds[0]]);
    // The send log says why the e-card line was left out.
    const record = await w.orderRecord(w.sites.a, orderId);
    expect(record.data.preGeneratedHPItems.map((i) => i.lineId)).toEqual([lineIds[0]]);
    const log = await w.db('provider_sends').where({ store_order_id: orderId }).first();
    expect((typeof log.data === 'string' ? JSON.parse(log.data) : log.data).skipped).toEqual([{ lineId: lineIds[1], reason: ECARD_NOT_PRINTED }]);
  });

  it('Send HP of an order of e-cards only, or of its e-card line: a clear 400, nothing queued, nothing sent', async () => {
    const { orderId, lineIds } = await orderOf(ECARD, ECARD);
    const whole = await post(send, { id: orderId });
    expect(whole.status).toBe(400);
    expect(whole.body).toMatchObject({ success: false, error: NOTHING_TO_PRINT_ECARDS });
    const line = await post('/api/online-stores/shopify-webhook/send-hp-single-line', { orderId, lineId: lineIds[0] });
    expect(line.status).toBe(400);
    expect(line.body.error).toBe(NOTHING_TO_PRINT_ECARDS);
    expect(await outboxOf(orderId)).toEqual([]);
    expect(w.sim.orderBySource(orderId)).toBeUndefined();
    expect(await jobsOf(orderId)).toEqual([]);
  });

  it('the e-card line of a mixed order cannot be sent on its own; its card line can', async () => {
    const { orderId, lineIds } = await orderOf(CARD, ECARD);
    const ecardLine = await post('/api/online-stores/shopify-webhook/send-hp-single-line', { orderId, lineId: lineIds[1] });
    expect(ecardLine.status).toBe(400);
    expect(ecardLine.body.error).toBe(NOTHING_TO_PRINT_ECARDS);
    const cardLine = await post('/api/online-stores/shopify-webhook/send-hp-single-line', { orderId, lineId: lineIds[0] });
    expect(cardLine.status, JSON.stringify(cardLine.body)).toBe(200);
  });

  it('automatic sending: an order of e-cards only is never sent; a mixed order sends its card only', async () => {
    await setSiteEnv(w, w.sites.a, { HP_AUTO_SEND: '1' });
    try {
      const only = await orderOf(ECARD);
      const mixed = await orderOf(ECARD, CARD);
      await w.services.fulfilment.processDue();
      expect(await outboxOf(only.orderId)).toEqual([]);
      expect(w.sim.orderBySource(only.orderId)).toBeUndefined();
      const items = w.sim.orderBySource(mixed.orderId)!.body.orderData.items as Array<{ sourceItemId: string }>;
      expect(items.map((i) => i.sourceItemId)).toEqual([mixed.lineIds[1]]);
    } finally {
      await setSiteEnv(w, w.sites.a, { HP_AUTO_SEND: '0' });
    }
  });

  it('Re-run Send to HP of an order of e-cards only is skipped with the reason', async () => {
    const { orderId } = await orderOf(ECARD);
    const res = await post('/api/online-stores/rerun-order', { id: orderId, flags: { sendToHP: true } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ ran: [], skipped: [{ step: 'sendToHP', reason: NOTHING_TO_PRINT_ECARDS }] });
    expect(await outboxOf(orderId)).toEqual([]);
  });

  it('order-to-arwork makes the card its job and skips the e-card, saying why; check-order lists only the card', async () => {
    const { orderId, lineIds } = await orderOf(CARD, ECARD);
    const made = await post('/api/online-stores/shopify-webhook/order-to-arwork', { id: orderId });
    expect(made.status).toBe(200);
    expect(made.body.data.jobs.map((j: { lineItemId: string }) => j.lineItemId)).toEqual([lineIds[0]]);
    expect(made.body.data.skipped).toEqual([{ lineId: lineIds[1], reason: ECARD_NOT_PRINTED }]);
    const checked = await post('/api/online-stores/check-order', { id: orderId });
    const record = (checked.body.data as Array<{ type: string; data: { production?: Array<{ lineId: string }>; routes?: unknown[] } }>).find((r) => r.type === 'shopify-order-log')!;
    expect(record.data.production!.map((p) => p.lineId)).toEqual([lineIds[0]]);
    // Where each line goes, as production decides it: the card is in the Jobs queue, the e-card is e-mailed.
    expect(record.data.routes).toEqual([
      expect.objectContaining({ lineId: lineIds[0], goes: 'in-house', now: false, code: 'queued-in-house' }),
      expect.objectContaining({ lineId: lineIds[1], goes: 'email', code: 'ecard', reason: ECARD_NOT_PRINTED }),
    ]);
  });

  it("the e-card line's print PDF is refused with a clear 400, and no job is made", async () => {
    const { orderId, lineIds } = await orderOf(ECARD);
    const res = await post('/api/online-stores/shopify-webhook/hood-download-pdf', { id: orderId, lineId: lineIds[0], printInHouse: true });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: ECARD_NOT_PRINTED });
    expect(await jobsOf(orderId)).toEqual([]);
    // Production refuses it whoever asks.
    const stored = await w.services.orders.getOrder(w.sites.a, orderId);
    await expect(w.services.production.jobForLine({ siteId: w.sites.a, orderId, line: stored!.data.line_items[0], actorId: null, madeBy: 'inHouse' })).rejects.toMatchObject({ status: 400, message: ECARD_NOT_PRINTED });
    expect(await jobsOf(orderId)).toEqual([]);
  });

  it('a print job of an e-card design is refused (400 on designId); a job of a design made an e-card later gives no print file', async () => {
    const refused = await post('/api/print-jobs', { designId: ecard.id, quantity: 1 });
    expect(refused.status).toBe(400);
    expect(refused.body.details).toEqual([expect.objectContaining({ field: 'designId', message: expect.stringMatching(/e-card.*never printed/) })]);

    const card = await makeDesign(w, w.tokens.adminA, { name: 'Later an e-card', sku: 'LATER-ECARD', productType: 'Card', data: { artworkUrls: ['/files/test/a.png', '/files/test/b.png', '/files/test/c.png', '/files/test/d.png'] } });
    const job = await post('/api/print-jobs', { designId: card.id, quantity: 1 });
    expect(job.status, JSON.stringify(job.body)).toBe(200);
    expect((await post('/api/designs', { id: card.id, productType: 'E-card' }, w.tokens.adminA)).status).toBe(200);
    const pdf = await post('/api/pdf/from-print-job', { id: job.body.data.id });
    expect(pdf.status).toBe(400);
    expect(pdf.body.error).toBe(ECARD_NOT_PRINTED);
  });
});
