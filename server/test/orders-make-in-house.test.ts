// List Orders' Make in house: order-to-arwork `{ids: [...]}` makes each order's print jobs in
// house and answers, per order, what was made, what was in Jobs already and what was refused, and
// why (cancelled, unpaid, shipped, sent to HP, an e-card, not found).
import { afterAll, describe, expect, it } from 'vitest';
import { seasonsGreetingsEcardDocument } from '../../seeds/printProduction';
import { MAKE_IN_HOUSE_LIMIT, type MakeInHouseResult } from '../../common/api/orders';
import { closeRenderWorkers } from '../src/modules/render/service';
import { bearer } from './harness';
import { createHpWorld } from './fulfilmentWorld';
import { connectStores, deliver, makeDesign, order, SECRET_B, SHOP_B } from './ordersKit';
import { cardDoc } from './renderKit';

describe('order-to-arwork {ids}: Make in house', async () => {
  const w = await createHpWorld();
  await connectStores(w);
  afterAll(() => closeRenderWorkers());
  const post = (path: string, body: unknown, token = w.tokens.userA) => w.request().post(`/api/online-stores${path}`).set(bearer(token)).send(body as object);
  const make = async (ids: string[], token = w.tokens.userA) => {
    const res = await post('/shopify-webhook/order-to-arwork', { ids }, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as MakeInHouseResult;
  };
  await makeDesign(w, w.tokens.adminA, { name: 'Winter card', sku: 'MIH-CARD', productType: 'Card', isCustomizable: true, hpSKU: 'HP-CARD-A5', data: { document: cardDoc() } });
  await makeDesign(w, w.tokens.adminA, { name: "Season's e-card", sku: 'MIH-ECARD', productType: 'E-card', isCustomizable: true, data: { document: seasonsGreetingsEcardDocument() } });

  async function delivered(skus: string[], change: Record<string, unknown> = {}) {
    const o = { ...order({ skus }), ...change };
    // The card's personalisation, as the store's checkout asks for it (preflight holds a line without).
    o.line_items.forEach((l) => (l.properties = [{ name: 'Recipient name', value: 'Olu' }]));
    expect((await deliver(w, o)).status).toBe(200);
    return o;
  }

  it('makes each order in house and says, per order, what was made, what was in Jobs and what was refused with the reason', async () => {
    const fresh = await delivered(['MIH-CARD', 'MIH-CARD']);
    const mixed = await delivered(['MIH-CARD', 'MIH-ECARD']);
    const ecards = await delivered(['MIH-ECARD']);
    const cancelled = await delivered(['MIH-CARD'], { cancelled_at: '2026-11-20T11:00:00Z', cancel_reason: 'customer' });
    const unpaid = await delivered(['MIH-CARD'], { financial_status: 'pending' });
    const atHp = await delivered(['MIH-CARD']);
    const sent = await post('/shopify-webhook/send-hp', { id: atHp.id });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const shipped = await delivered(['MIH-CARD']);
    await w.db('store_orders').where({ store_order_id: shipped.id }).update({ status: 'shipped' });
    const theirs = order({ skus: ['MIH-CARD'] });
    await deliver(w, theirs, { shop: SHOP_B, secret: SECRET_B });

    const { orders } = await make([fresh.id, mixed.id, ecards.id, cancelled.id, unpaid.id, atHp.id, shipped.id, theirs.id, '404404']);
    const by = Object.fromEntries(orders.map((o) => [o.orderId, o]));
    expect(orders.map((o) => o.orderId)).toEqual([fresh.id, mixed.id, ecards.id, cancelled.id, unpaid.id, atHp.id, shipped.id, theirs.id, '404404']);
    expect(by[fresh.id]).toMatchObject({ outcome: 'made', name: fresh.name, refused: [], already: [] });
    expect(by[fresh.id].made).toHaveLength(2);
    expect(by[mixed.id]).toMatchObject({ outcome: 'made', refused: [{ lineId: mixed.line_items[1].id, code: 'ecard' }] });
    expect(by[ecards.id]).toMatchObject({ outcome: 'refused', made: [], refused: [{ code: 'ecard' }] });
    expect(by[cancelled.id]).toMatchObject({ outcome: 'refused', refused: [{ lineId: null, code: 'cancelled', reason: expect.stringMatching(/cancelled in the store \(customer\)/) }] });
    expect(by[unpaid.id]).toMatchObject({ outcome: 'refused', refused: [{ lineId: null, code: 'unpaid', reason: expect.stringMatching(/not paid yet/) }] });
    expect(by[atHp.id]).toMatchObject({ outcome: 'refused', refused: [{ lineId: atHp.line_items[0].id, code: 'at-provider', reason: expect.stringMatching(/^Sent to HP Site Flow/) }] });
    expect(by[shipped.id]).toMatchObject({ outcome: 'refused', refused: [{ code: 'shipped' }] });
    expect(by[theirs.id]).toMatchObject({ outcome: 'refused', refused: [{ code: 'not-found', reason: 'Order not found' }] });
    expect(by['404404']).toMatchObject({ outcome: 'refused', refused: [{ code: 'not-found' }] });

    // The jobs are in the Jobs queue, made in house; nothing was made for the refused orders.
    const jobs = await w.db('print_jobs').whereIn('shopify_order_id', [fresh.id, mixed.id]).select('id', 'made_by');
    expect(jobs.map((j: { id: number }) => j.id).sort()).toEqual([...by[fresh.id].made, ...by[mixed.id].made].sort());
    expect(new Set(jobs.map((j: { made_by: string }) => j.made_by))).toEqual(new Set(['in_house']));
    for (const id of [ecards.id, cancelled.id, unpaid.id, shipped.id]) expect(await w.db('print_jobs').where({ shopify_order_id: id })).toEqual([]);
    expect((await w.db('print_jobs').where({ shopify_order_id: atHp.id }).select('made_by')).map((j: { made_by: string }) => j.made_by)).toEqual(['provider']);

    // Again: nothing new, each in Jobs already.
    const again = await make([fresh.id, mixed.id]);
    expect(again.orders.map((o) => [o.outcome, o.made.length, o.already.length])).toEqual([
      ['already', 0, 2],
      ['already', 0, 1],
    ]);
  });

  it('the admin names the site of orders of another site; the one-order call still answers its jobs', async () => {
    const theirs = order({ skus: ['NO-DESIGN'] });
    await deliver(w, theirs, { shop: SHOP_B, secret: SECRET_B });
    const { orders } = (await post('/shopify-webhook/order-to-arwork', { ids: [theirs.id], siteId: w.sites.b }, w.tokens.adminA)).body.data as MakeInHouseResult;
    expect(orders).toEqual([expect.objectContaining({ orderId: theirs.id, siteId: w.sites.b, outcome: 'refused', refused: [{ lineId: theirs.line_items[0].id, code: 'cannot-make', reason: 'No design or product has the SKU NO-DESIGN' }] })]);
    const one = await delivered(['MIH-CARD']);
    const single = await post('/shopify-webhook/order-to-arwork', { id: one.id });
    expect(single.body.data.jobs).toHaveLength(1);
  });

  it('refuses an empty list, a list too long, and ids that are not ids, saying which field', async () => {
    const empty = await post('/shopify-webhook/order-to-arwork', { ids: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toMatch(/^Ids must name at least one order/);
    const long = await post('/shopify-webhook/order-to-arwork', { ids: Array.from({ length: MAKE_IN_HOUSE_LIMIT + 1 }, (_, i) => String(i + 1)) });
    expect(long.status).toBe(400);
    expect(long.body.error).toMatch(new RegExp(`at most ${MAKE_IN_HOUSE_LIMIT}`));
    expect((await post('/shopify-webhook/order-to-arwork', { ids: 'abc' })).status).toBe(400);
    expect((await w.request().post('/api/online-stores/shopify-webhook/order-to-arwork').send({ ids: ['1'] })).status).toBe(401);
  });
});
