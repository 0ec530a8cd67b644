// A routed order whose provider lines name different destination accounts goes to HP Site Flow as
// one provider order per destination (its lines together), against the loopback simulator: each
// provider order carries its destination and only its lines, a postback of one ships only its
// lines, and a second send of a line of it answers that provider order instead of printing again.
import { describe, expect, it } from 'vitest';
import { linesOfProviderOrder } from '../src/modules/fulfilment/storeFulfilment';
import { bearer } from './harness';
import { createHpWorld } from './fulfilmentWorld';
import { connectStores, deliver, makeDesign, order } from './ordersKit';
import type { RoutingRuleSet } from '../../common/api/routing';
import type { StoreOrder } from '../src/modules/fulfilment/orderBody';

const ART = { artworkUrls: ['/files/test/a.png', '/files/test/b.png', '/files/test/c.png', '/files/test/d.png'] };

const BY_DESTINATION: RoutingRuleSet = {
  rules: [
    { id: 'us', name: 'US lines to HP US', when: { sku: 'DUS-*' }, then: { action: 'provider', destination: 'hp-us' } },
    { id: 'eu', name: 'EU lines to HP EU', when: { sku: 'DEU-*' }, then: { action: 'provider', destination: 'hp-eu' } },
    { id: 'floor', name: 'Floor cards', when: { sku: 'DFLOOR-*' }, then: { action: 'inHouse' } },
  ],
  default: { action: 'hold', reason: 'Check it' },
  capacity: [],
};

describe('one provider order per destination', async () => {
  const w = await createHpWorld();
  await connectStores(w);
  for (const sku of ['DUS-1', 'DUS-2', 'DEU-1']) await makeDesign(w, w.tokens.adminA, { name: `Design ${sku}`, sku, productType: 'Card', hpSKU: `HP-${sku}`, productPdf: '/files/test/design.pdf' });
  await makeDesign(w, w.tokens.adminA, { name: 'Floor card', sku: 'DFLOOR-1', productType: 'Card', data: ART });
  const saved = await w.request().put(`/api/sites/${w.sites.a}/routing`).set(bearer(w.tokens.adminA)).send(BY_DESTINATION);
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);

  it('a mixed order: the US lines as one provider order to hp-us, the EU line as another to hp-eu, the card on the floor', async () => {
    const o = order({ skus: ['DUS-1', 'DEU-1', 'DFLOOR-1', 'DUS-2'] });
    expect((await deliver(w, o)).status).toBe(200);
    const [us1, eu1, floor, us2] = o.line_items.map((l) => l.id);
    const rows = await w.db('outbox').where('dedupe_key', 'like', `%:${o.id}%`).orderBy('id');
    const payload = (r: { payload: unknown }) => (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as { lineId: string; lineIds?: string[]; destination?: string };
    expect(rows.map((r) => [r.kind, r.dedupe_key, payload(r).lineIds ?? [payload(r).lineId], payload(r).destination])).toEqual([
      ['hp-order', `hp:${w.sites.a}:${o.id}:${us1}`, [us1, us2], 'hp-us'],
      ['hp-order', `hp:${w.sites.a}:${o.id}:${eu1}`, [eu1], 'hp-eu'],
      ['routed-in-house', `inhouse:${w.sites.a}:${o.id}:${floor}`, [floor], undefined],
    ]);

    await w.services.fulfilment.processDue();
    const us = w.sim.orderBySource(`${o.id}-${us1}`)!;
    const eu = w.sim.orderBySource(`${o.id}-${eu1}`)!;
    expect(us.body.destination).toEqual({ name: 'hp-us' });
    expect(eu.body.destination).toEqual({ name: 'hp-eu' });
    const itemsOf = (x: typeof us) => (x.body.orderData.items as Array<{ sourceItemId: string; sku: string }>).map((i) => [i.sourceItemId, i.sku]);
    expect(itemsOf(us)).toEqual([
      [us1, 'HP-DUS-1'],
      [us2, 'HP-DUS-2'],
    ]);
    expect(itemsOf(eu)).toEqual([[eu1, 'HP-DEU-1']]);
    // Nothing else reached the provider: not the whole order, not a line on its own.
    expect(w.sim.orderBySource(o.id)).toBeUndefined();
    expect(w.sim.orderBySource(`${o.id}-${us2}`)).toBeUndefined();
    expect(w.sim.orderBySource(`${o.id}-${floor}`)).toBeUndefined();

    // A postback of the US provider order is about its two lines, not the EU one.
    const record = await w.orderRecord(w.sites.a, o.id);
    expect(linesOfProviderOrder(record.data as unknown as StoreOrder, o.id, us1).sort()).toEqual([us1, us2].sort());
    expect(linesOfProviderOrder(record.data as unknown as StoreOrder, o.id, eu1)).toEqual([eu1]);

    // Send HP on a line of the US group answers that provider order: it is not sent a second time.
    const again = await w.request().post('/api/online-stores/shopify-webhook/send-hp-single-line').set(bearer(w.tokens.adminA)).send({ orderId: o.id, lineId: us2 });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.data.status).toBe('already-sent');
    expect(w.sim.orderBySource(`${o.id}-${us2}`)).toBeUndefined();
  });

  it('every line to one destination is still the whole order as one provider order', async () => {
    const o = order({ skus: ['DUS-1', 'DUS-2'] });
    await deliver(w, o);
    await w.services.fulfilment.processDue();
    const whole = w.sim.orderBySource(o.id)!;
    expect(whole.body.destination).toEqual({ name: 'hp-us' });
    expect((whole.body.orderData.items as unknown[]).length).toBe(2);
  });
});
