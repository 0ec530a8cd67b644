// Needs attention (GET /api/attention) at the server's (fake) clock: each kind listed when it is a
// problem and not before, worst first, counted, and only ever the caller's own site's.
import { describe, expect, it } from 'vitest';
import type { AttentionAnswer, AttentionItem } from '../../common/api/attention';
import type { PipelineStep } from '../../common/api/pipeline';
import { orderTablesRepo } from '../src/modules/orders/tablesRepo';
import { pipelineDedupeKey } from '../src/modules/pipeline/repo';
import { bearer, createWorld } from './harness';
import { makeDesign } from './ordersKit';

const ART = ['/files/art/p1.png', '/files/art/p2.png', '/files/art/p3.png', '/files/art/p4.png'];
// March 2026, London on GMT (= UTC). Cards take 2 working days, cut-off 14:00, at risk within 4 hours.
const MON_0900 = '2026-03-02T09:00:00.000Z'; // ships by Tuesday 03/03 14:00
const TUE_0900 = '2026-03-03T09:00:00.000Z'; // ships by Wednesday 04/03 14:00
const NOW = '2026-03-04T11:00:00.000Z'; // Wednesday 11:00: the first late, the second at risk

describe('Needs attention', async () => {
  const w = await createWorld({ SYNC_TIMEZONE: 'Europe/London', ATTENTION_HP_ACK_HOURS: '4', ATTENTION_UNSHIPPED_DAYS: '2' });
  const at = (iso: string) => w.clock.set(new Date(iso));
  const post = (path: string, body: unknown, token = w.tokens.userA) => w.request().post(path).set(bearer(token)).send(body as object);
  const attention = async (token = w.tokens.userA, query = '') => {
    const res = await w.request().get(`/api/attention${query}`).set(bearer(token));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as AttentionAnswer;
  };
  const ofKind = (a: AttentionAnswer, kind: string) => a.items.filter((i) => i.kind === kind);
  const titles = (a: AttentionAnswer, kind: string) => ofKind(a, kind).map((i) => i.title);

  const order = (siteId: number, orderId: string, createdAt: string, status = 'received', updatedAt = createdAt) => ({
    siteId,
    orderId,
    name: `#${orderId}`,
    status,
    searchText: `#${orderId}`,
    data: { id: orderId, name: `#${orderId}`, created_at: createdAt, line_items: [{ id: `${orderId}-1`, sku: 'AT-CARD', quantity: 1 }] },
    createdAt,
    updatedAt,
  });
  const outbox = async (kind: string, siteId: number, orderId: string, status: string, error: string | null, updatedAt: string, extra: Record<string, unknown> = {}, dedupeKey = `${kind}:${siteId}:${orderId}`) => {
    await w.db('outbox').insert({
      kind,
      dedupe_key: dedupeKey,
      site_id: siteId,
      payload: JSON.stringify({ siteId, orderId, lineId: null, actorId: null, ...extra }),
      status,
      attempts: 1,
      next_attempt_at: updatedAt,
      error,
      created_at: updatedAt,
      updated_at: updatedAt,
    });
  };

  const card = await makeDesign(w, w.tokens.adminA, { name: 'Robin card', sku: 'AT-CARD', productType: 'Card' });
  const cardB = await makeDesign(w, w.tokens.adminB, { name: 'Site B card', sku: 'AT-CARD', productType: 'Card' });
  await orderTablesRepo(w.db).insertOrders([
    order(w.sites.a, '9001', MON_0900),
    order(w.sites.a, '9002', TUE_0900),
    // Printed in house on Monday 09:00 and never shipped.
    order(w.sites.a, '9005', '2026-02-27T09:00:00.000Z'),
    // Site B's own late order.
    order(w.sites.b, '8001', MON_0900),
  ]);
  at(TUE_0900);
  const job = async (orderId: string, designId = card.id, token = w.tokens.userA) => {
    const res = await post('/api/print-jobs', { productName: 'Robin card', designId, artworkUrls: ART, shopifyOrderId: orderId, lineItemId: `${orderId}-1` }, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.id as number;
  };
  await job('9001');
  await job('9002');
  const printedJob = await job('9005');
  await job('8001', cardB.id, w.tokens.userB);
  await w.db('print_jobs').update({ held: false });
  await w.db('print_jobs').where({ id: printedJob }).update({ is_printed: true, is_pdf_downloaded: true, printed_at: '2026-03-02T09:00:00.000Z' });
  // A job made by hand on Wednesday 11:00 (ships by Thursday), held by preflight since.
  at(NOW);
  const heldJob = (await post('/api/print-jobs', { productName: 'Foiled card', designId: card.id, artworkUrls: ART })).body.data.id as number;
  await w.db('print_jobs').where({ id: heldJob }).update({ held: true, preflight_checked_at: NOW });

  it('a late order (critical) and an at-risk one, from the ship-by views, each linking to Check order', async () => {
    at(NOW);
    const a = await attention();
    // #9005 was printed and never shipped: late too.
    expect(ofKind(a, 'late')).toEqual([
      expect.objectContaining({ severity: 'critical', title: 'Order #9005 is late: ship by 02/03/2026 14:00', since: '2026-03-02T14:00:00.000Z' }),
      expect.objectContaining({ severity: 'critical', title: 'Order #9001 is late: ship by 03/03/2026 14:00', link: '/check-order?id=9001', since: '2026-03-03T14:00:00.000Z', orderId: '9001' }),
    ]);
    expect(ofKind(a, 'atRisk')).toEqual([
      expect.objectContaining({ severity: 'warning', title: 'Order #9002 is at risk: ship by 04/03/2026 14:00 and not printed yet', link: '/check-order?id=9002', since: '2026-03-04T10:00:00.000Z' }),
    ]);
    // Shipped: nothing is owed any more.
    await w.db('store_orders').where({ site_id: w.sites.a, store_order_id: '9002' }).update({ status: 'shipped' });
    expect(ofKind(await attention(), 'atRisk')).toEqual([]);
    await w.db('store_orders').where({ site_id: w.sites.a, store_order_id: '9002' }).update({ status: 'received' });
  });

  it('a held job links to Jobs → Held', async () => {
    at(NOW);
    expect(ofKind(await attention(), 'held')).toEqual([
      expect.objectContaining({ severity: 'warning', title: `Job ${heldJob} (Foiled card) is held by preflight: check its print file and approve or fix it`, link: `/print-jobs?tab=held&job=${heldJob}`, since: NOW, jobId: heldJob }),
    ]);
  });

  it('sent to HP with no acknowledgement: listed after ATTENTION_HP_ACK_HOURS, not before', async () => {
    await orderTablesRepo(w.db).insertOrders([order(w.sites.a, '9003', MON_0900, 'sent', '2026-03-04T08:00:00.000Z')]);
    at('2026-03-04T11:59:00.000Z');
    expect(titles(await attention(), 'hpNoAck')).toEqual([]);
    at('2026-03-04T12:01:00.000Z');
    expect(ofKind(await attention(), 'hpNoAck')).toEqual([
      expect.objectContaining({ title: 'Order #9003 was sent to HP Site Flow on 04/03/2026 08:00 and HP has not acknowledged it', link: '/check-order?id=9003', since: '2026-03-04T12:00:00.000Z' }),
    ]);
    // HP's acknowledgement moves the order on: off the list.
    await w.db('store_orders').where({ site_id: w.sites.a, store_order_id: '9003' }).update({ status: 'dataready', updated_at: '2026-03-04T12:00:00.000Z' });
    expect(titles(await attention(), 'hpNoAck')).toEqual([]);
  });

  it('sent to HP with no acknowledgement counts from the send, not from a later change of the order', async () => {
    // Sent at 07:00; a store webhook changed the order at 10:00 while it waited in sent.
    await orderTablesRepo(w.db).insertOrders([{ ...order(w.sites.a, '9006', MON_0900, 'sent', '2026-03-04T10:00:00.000Z'), sentToProviderAt: '2026-03-04T07:00:00.000Z' }]);
    at('2026-03-04T10:59:00.000Z');
    expect(titles(await attention(), 'hpNoAck')).toEqual([]);
    at('2026-03-04T11:01:00.000Z');
    expect(ofKind(await attention(), 'hpNoAck')).toEqual([
      expect.objectContaining({ title: 'Order #9006 was sent to HP Site Flow on 04/03/2026 07:00 and HP has not acknowledged it', since: '2026-03-04T11:00:00.000Z', orderId: '9006' }),
    ]);
    // Shipped: off every list, so the tests below see the world they expect.
    await w.db('store_orders').where({ site_id: w.sites.a, store_order_id: '9006' }).update({ status: 'shipped' });
  });

  it('printed but not shipped: listed after ATTENTION_UNSHIPPED_DAYS, in house and at HP', async () => {
    await orderTablesRepo(w.db).insertOrders([order(w.sites.a, '9004', MON_0900, 'printed', '2026-03-02T12:00:00.000Z')]);
    at('2026-03-04T08:59:00.000Z');
    expect(titles(await attention(), 'notShipped')).toEqual([]);
    at('2026-03-04T12:30:00.000Z');
    expect(titles(await attention(), 'notShipped')).toEqual(['Order #9005 was printed on 02/03/2026 09:00 and has not shipped', 'Order #9004 was printed by HP Site Flow on 02/03/2026 12:00 and has not shipped']);
  });

  it('failed sends, store write-backs and pipeline steps (a step done by a later run is not)', async () => {
    await outbox('hp-order', w.sites.a, '9001', 'failed', 'HP Site Flow refused the order: unknown SKU', '2026-03-04T09:00:00.000Z');
    await outbox('hp-order', w.sites.a, '9002', 'sent', null, '2026-03-04T09:00:00.000Z');
    await outbox('store-fulfilment', w.sites.a, '9004', 'failed', 'Shopify answered 422', '2026-03-04T09:10:00.000Z');
    const step = (orderId: string, s: PipelineStep) => pipelineDedupeKey(w.sites.a, orderId, s, null);
    await outbox('order-pipeline', w.sites.a, '9001', 'failed', 'Adestra is down', '2026-03-04T09:20:00.000Z', { step: 'addToAdestra', rerun: false }, step('9001', 'addToAdestra'));
    await outbox('order-pipeline', w.sites.a, '9002', 'failed', "Raiser's Edge is down", '2026-03-04T09:20:00.000Z', { step: 'addToRaisersEdge', rerun: false }, step('9002', 'addToRaisersEdge'));
    // #9002's step was run again by an operator and went through.
    await outbox('order-pipeline', w.sites.a, '9002', 'sent', null, NOW, { step: 'addToRaisersEdge', rerun: true }, `${step('9002', 'addToRaisersEdge')}#again`);
    at('2026-03-04T12:30:00.000Z');
    const a = await attention();
    expect(ofKind(a, 'sendFailed')).toEqual([expect.objectContaining({ severity: 'critical', title: 'Order #9001 could not be sent to HP Site Flow: HP Site Flow refused the order: unknown SKU', link: '/check-order?id=9001' })]);
    expect(titles(a, 'writeBackFailed')).toEqual(['The store was not told that order #9004 shipped: Shopify answered 422']);
    expect(titles(a, 'pipelineFailed')).toEqual(['Order #9001: adding the buyer to Adestra failed: Adestra is down']);
    expect(a.counts.pipelineFailed).toBe(1);
  });

  it('failing webhooks, by source, with the latest error', async () => {
    for (const [id, error] of [
      ['e1', 'no such product'],
      ['e2', 'the store order has no line items'],
    ]) {
      await w.db('webhook_deliveries').insert({ source: 'shopify', event_id: id, site_id: w.sites.a, topic: 'orders/create', payload: '{}', status: 'failed', error, attempts: 3, received_at: `2026-03-04T07:0${id.slice(1)}:00.000Z` });
    }
    const a = await attention();
    expect(ofKind(a, 'webhookFailing')).toEqual([
      expect.objectContaining({ severity: 'critical', title: '2 order webhooks from the store have failed to process; the latest: the store order has no line items', link: '/orders', since: '2026-03-04T07:01:00.000Z' }),
    ]);
    expect(a.counts.webhookFailing).toBe(2);
  });

  it('worst first: critical before warning, then the longest-standing; counts per kind, total and critical', async () => {
    at('2026-03-04T12:30:00.000Z');
    const a = await attention();
    const order = a.items.map((i: AttentionItem) => [i.severity, i.kind]);
    expect(order).toEqual([
      ['critical', 'late'],
      ['critical', 'late'],
      ['critical', 'late'],
      ['critical', 'late'],
      ['critical', 'webhookFailing'],
      ['critical', 'sendFailed'],
      ['warning', 'notShipped'],
      ['warning', 'writeBackFailed'],
      ['warning', 'pipelineFailed'],
      ['warning', 'atRisk'],
      ['warning', 'held'],
      ['warning', 'notShipped'],
    ]);
        // #9003 and #9004 (placed on Monday, at HP) are late as well.
    expect(a.counts).toEqual({ late: 4, atRisk: 1, held: 1, routingHeld: 0, hpNoAck: 0, notShipped: 2, sendFailed: 1, writeBackFailed: 1, pipelineFailed: 1, webhookFailing: 2, proofChange: 0, storeHoldRefused: 0, lowStock: 0, total: 13, critical: 7 });
  });

  it("scoped: site B's user asking for site A gets 404; admins all, or one site", async () => {
    at('2026-03-04T12:30:00.000Z');
    const b = await attention(w.tokens.userB);
    expect(b.items.map((i) => i.title)).toEqual(['Order #8001 is late: ship by 03/03/2026 14:00']);
    expect(b.counts).toMatchObject({ total: 1, late: 1 });
    expect(ofKind(await attention(w.tokens.userA), 'late').map((i) => i.orderId).sort()).toEqual(['9001', '9003', '9004', '9005']);
    const asked = await w.request().get(`/api/attention?clientId=${w.sites.a}`).set(bearer(w.tokens.userB));
    expect(asked.status).toBe(404);
    expect(JSON.stringify(asked.body)).not.toContain('9001');
    const all = await attention(w.tokens.adminA);
    expect(ofKind(all, 'late').find((i) => i.orderId === '8001')?.siteName).toBe('Site B');
    expect(b.items[0].siteName).toBeUndefined();
    expect(ofKind(all, 'late').map((i) => `${i.siteId}:${i.orderId}`).sort()).toEqual([`${w.sites.a}:9001`, `${w.sites.a}:9003`, `${w.sites.a}:9004`, `${w.sites.a}:9005`, `${w.sites.b}:8001`].sort());
    expect(ofKind(await attention(w.tokens.adminA, `?clientId=${w.sites.b}`), 'late').map((i) => i.orderId)).toEqual(['8001']);
    expect((await w.request().get('/api/attention?clientId=abc').set(bearer(w.tokens.adminA))).status).toBe(400);
  });
});
