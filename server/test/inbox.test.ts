// The inbox's guarantees across sources: a failed CRM delivery is retried by the recovery pass and
// synced once; two processors (two instances) never process one delivery twice; one recovery pass
// picks up the deliveries of every source.
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/lib/logger';
import { inboxRepo, type NewDelivery } from '../src/modules/inbox/repo';
import { createInbox, MAX_DELIVERY_ATTEMPTS, type Delivery } from '../src/modules/inbox/service';
import { bearer } from './harness';
import { createSyncWorld, KEYS, person } from './sync-world';

const event = (id: string, constituent: string) => ({ specversion: '1.0', type: 'com.blackbaud.constituent.change.v1', id, time: new Date().toISOString(), data: { id: constituent } });

describe('inbox', async () => {
  const s = await createSyncWorld({ constituents: [person('11'), person('12'), person('13'), person('14')] });
  const { w } = s;
  const api = (path: string) => `/api/sites/site-a${path}`;
  const hook = (body: object) =>
    s
      .request()
      .post(api(`/raiser-edge-webhook?webhookKey=${encodeURIComponent(KEYS.webhookKey)}`))
      .set('Content-Type', 'application/cloudevents+json')
      .send(JSON.stringify(body));
  const webhookRuns = async (constituent: string) =>
    (await s.request().get(api(`/raiser-edge-sync/list?kind=webhook&field1=${constituent}`)).set(bearer(w.tokens.userA))).body.data.list as Array<{ data: { status: string } }>;
  const delivery = async (id: number) => w.db('webhook_deliveries').where({ id }).first();
  const silent = createLogger('silent');

  it('a CRM delivery whose processing fails is retried by the recovery pass and synced once', async () => {
    // Every call to the CRM fails (the client's own retries included): the sync throws.
    s.re.failNext(200, 500);
    const res = await hook(event('retry-1', '11'));
    expect(res.body.data).toMatchObject({ status: 'queued' });
    const id = res.body.data.deliveryId as number;
    await s.sync.idle();
    s.re.clearFaults();
    expect(await delivery(id)).toMatchObject({ status: 'failed', attempts: 1 });
    expect(s.adestra.isOnList('person11@example.org')).toBe(false);

    const tally = await w.services.inbox.recover();
    expect(tally).toMatchObject({ processed: 1, failed: 0 });
    expect(await delivery(id)).toMatchObject({ status: 'processed', attempts: 1, locked_until: null });
    // Processed: a further pass leaves it alone.
    expect(await w.services.inbox.recover()).toMatchObject({ processed: 0, failed: 0 });
    const runs = await webhookRuns('11');
    expect(runs.map((r) => r.data.status).sort()).toEqual(['failed', 'success']);
  });

  it('a CRM delivery that keeps failing stops being retried after the attempts cap', async () => {
    const id = (await inboxRepo(w.db).insert({ source: 're', eventId: `${w.sites.a}:cap-1`, deliveryId: 'cap-1', siteId: w.sites.a, topic: 'com.blackbaud.constituent.change.v1', payload: { id: 'cap-1' }, status: 'received', receivedAt: w.clock.now().toISOString() }))!;
    for (let i = 0; i < MAX_DELIVERY_ATTEMPTS + 2; i++) await w.services.inbox.recover();
    expect(await delivery(id)).toMatchObject({ status: 'failed', attempts: MAX_DELIVERY_ATTEMPTS, error: 'site or constituent missing' });
  });

  it('two instances processing the same CRM delivery at once sync it once', async () => {
    // A second instance: its own sync service and inbox on the same database.
    const other = s.makeSync({ inbox: createInbox({ db: w.db, clock: w.clock, log: silent }) });
    s.re.setDelay(30);
    try {
      const res = await hook(event('twice-1', '12'));
      const id = res.body.data.deliveryId as number;
      await Promise.all([s.sync.processDeliveryLater(id, w.sites.a), other.processDeliveryLater(id, w.sites.a), s.sync.idle(), other.idle()]);
    } finally {
      s.re.setDelay(0);
    }
    expect(await webhookRuns('12')).toHaveLength(1);
  });

  it('two inboxes claiming one delivery at once: processed once (lease and transaction sources)', async () => {
    const a = createInbox({ db: w.db, clock: w.clock, log: silent });
    const b = createInbox({ db: w.db, clock: w.clock, log: silent });
    const calls = { lease: [] as number[], tx: [] as number[] };
    for (const inbox of [a, b]) {
      inbox.register({
        source: 'test-lease',
        mode: 'lease',
        process: async (d: Delivery) => {
          calls.lease.push(d.id);
          await new Promise((r) => setTimeout(r, 30));
        },
      });
      inbox.register({
        source: 'test-tx',
        mode: 'transaction',
        apply: async (trx, d: Delivery) => {
          calls.tx.push(d.id);
          await trx('webhook_deliveries').where({ id: d.id }).first();
          await new Promise((r) => setTimeout(r, 30));
        },
      });
    }
    const stored = (source: string): NewDelivery => ({ source, eventId: crypto.randomUUID(), deliveryId: null, siteId: w.sites.a, topic: 'test', payload: {}, status: 'received', receivedAt: w.clock.now().toISOString() });
    const leased = await Promise.all([1, 2, 3].map(() => a.store(stored('test-lease'))));
    const txs = await Promise.all([1, 2, 3].map(() => a.store(stored('test-tx'))));
    const outcomes = await Promise.all([...leased, ...txs].flatMap((id) => [a.processDelivery(id!), b.processDelivery(id!)]));
    expect(outcomes.filter((o) => o === 'processed')).toHaveLength(6);
    expect(outcomes.filter((o) => o === 'failed')).toHaveLength(0);
    expect(calls.lease.sort()).toEqual([...leased].sort());
    expect(calls.tx.sort()).toEqual([...txs].sort());
    // And two recovery passes at once over what is left: nothing is processed twice either.
    const more = await Promise.all([1, 2, 3, 4].map(() => a.store(stored('test-lease'))));
    calls.lease.length = 0;
    await Promise.all([a.recover(), b.recover()]);
    expect(calls.lease.sort()).toEqual([...more].sort());
  });

  it('one recovery pass picks up the deliveries of every source', async () => {
    const repo = inboxRepo(w.db);
    const at = w.clock.now().toISOString();
    // A store order answered but never processed (the instance stopped), a postback whose
    // application failed, a CRM change never processed.
    const shopify = (await repo.insert({ source: 'shopify', eventId: crypto.randomUUID(), deliveryId: 'w1', siteId: w.sites.a, topic: 'orders/create', payload: { id: 880001, name: '#8801', updated_at: at, line_items: [] }, status: 'received', receivedAt: at }))!;
    const hp = (await repo.insert(
      { source: 'hp', eventId: crypto.randomUUID(), deliveryId: 'HP-1', siteId: w.sites.a, topic: 'Shipment', payload: { sourceOrderId: 'no-such-order', event: 'Shipment', status: 'shipped', timestamp: at }, status: 'received', receivedAt: at },
      { status: 'failed', attempts: 1, error: 'database restarted' },
    ))!;
    const re = (await repo.insert({ source: 're', eventId: `${w.sites.a}:every-1`, deliveryId: 'every-1', siteId: w.sites.a, topic: 'com.blackbaud.constituent.change.v1', payload: event('every-1', '13'), status: 'received', receivedAt: at }))!;

    await w.services.inbox.recover();
    for (const id of [shopify, hp, re]) expect(await delivery(id)).toMatchObject({ status: 'processed' });
    expect(await w.db('store_orders').where({ site_id: w.sites.a, store_order_id: '880001' })).toHaveLength(1);
    expect(await w.db('provider_events').where({ site_id: w.sites.a, store_order_id: 'no-such-order' })).toHaveLength(1);
    expect((await delivery(hp)).error).toMatch(/No order no-such-order/);
    expect(await webhookRuns('13')).toHaveLength(1);
  });
});
