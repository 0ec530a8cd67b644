// "Printed by HP Site Flow and has not shipped" (Needs attention) counts from HP's word that the
// order printed, end to end: a real send, HP's postbacks, then a later change of the order that
// must not restart the clock.
import { describe, expect, it } from 'vitest';
import type { AttentionAnswer } from '../../common/api/attention';
import { bearer } from './harness';
import { createHpWorld, HP, storeOrder } from './fulfilmentWorld';

const w = await createHpWorld();
const hook = (body: object) => w.request().post('/api/online-stores/hp-webhook?site=site-a').set('x-postback-token', HP.token).send(body);
const postback = (sourceOrderId: string, status: string, timestamp: string) => ({ event: `order.${status}`, sourceOrderId, orderId: 'hp-order-1', status, timestamp });

describe('Needs attention: printed by HP Site Flow, not shipped', () => {
  it('counts from the printed postback, not from a later change of the order, and says when it printed', async () => {
    const orderId = '7100000001';
    await w.insertDesign(w.sites.a, { sku: 'AHP-SKU' });
    await w.insertOrder(w.sites.a, storeOrder(orderId, [{ id: '11', sku: 'AHP-SKU' }]));
    w.clock.set(new Date('2026-03-02T08:00:00.000Z'));
    expect((await w.request().post('/api/online-stores/shopify-webhook/send-hp').set(bearer(w.tokens.userA)).send({ orderId })).body.data?.status).toBe('sent');
    w.clock.set(new Date('2026-03-02T09:00:00.000Z'));
    expect((await hook(postback(orderId, 'printed', '2026-03-02T09:00:00Z'))).body.data).toMatchObject({ orderStatus: 'printed' });
    // Three hours on, HP's late "print ready" changes the order; its status stays printed.
    w.clock.set(new Date('2026-03-02T12:00:00.000Z'));
    expect((await hook(postback(orderId, 'printready', '2026-03-02T08:30:00Z'))).body.data).toMatchObject({ orderStatus: 'printed' });
    expect(await w.db('store_orders').where({ site_id: w.sites.a, store_order_id: orderId }).first()).toMatchObject({ status: 'printed', updated_at: '2026-03-02T12:00:00.000Z' });

    const notShipped = async () => {
      const res = await w.request().get('/api/attention').set(bearer(w.tokens.userA));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body.data as AttentionAnswer).items.filter((i) => i.kind === 'notShipped');
    };
    // ATTENTION_UNSHIPPED_DAYS (2) after 09:00, not after 12:00 (times read in SYNC_TIMEZONE, UTC here).
    w.clock.set(new Date('2026-03-04T08:59:00.000Z'));
    expect(await notShipped()).toEqual([]);
    w.clock.set(new Date('2026-03-04T09:01:00.000Z'));
    expect(await notShipped()).toEqual([
      expect.objectContaining({ title: 'Order #0001 was printed by HP Site Flow on 02/03/2026 09:00 and has not shipped', since: '2026-03-04T09:00:00.000Z', orderId, link: `/check-order?id=${orderId}` }),
    ]);
  });
});
