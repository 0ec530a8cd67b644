// The last units of an item, reserved by many jobs at once (two instances, double clicks): each
// unit goes to one job, available never goes below zero, and one job reserves once. Run on
// PostgreSQL (TEST_DATABASE_URL) this is a real race between connections.
import { describe, expect, it } from 'vitest';
import { releaseJobStock, reserveJobStock, useJobStock } from '../src/modules/stock';
import { createWorld } from './harness';

describe('stock under concurrent reservations', async () => {
  const w = await createWorld();
  const by = { userId: null, name: 'Presswork' };
  const at = () => w.clock.now().toISOString();
  const itemOf = async (id: number) => w.db('stock_items').where({ id }).first('on_hand', 'reserved');
  const newItem = async (onHand: number) => {
    const [r] = await w.db('stock_items').insert({ site_id: w.sites.a, name: 'Mugs', unit: 'mugs', on_hand: onHand, reserved: 0, reorder_point: 0, reorder_quantity: 0, created_at: at(), updated_at: at() }).returning('id');
    return Number(typeof r === 'object' ? r.id : r);
  };
  const reserve = (jobId: number, itemId: number, units = 1) =>
    w.db.transaction((trx) => reserveJobStock(trx, { id: jobId, siteId: w.sites.a, units }, [{ stockItemId: itemId, perUnit: 1 }], by, at()));

  it('of 12 jobs racing for 5 mugs, 5 get one each and 7 are short; none below zero', async () => {
    const mugs = await newItem(5);
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => reserve(1000 + i, mugs)));
    expect(answers.filter((a) => a.short.length === 0)).toHaveLength(5);
    expect(answers.filter((a) => a.short.length === 1)).toHaveLength(7);
    expect(await itemOf(mugs)).toMatchObject({ on_hand: 5, reserved: 5 });
    expect(Number((await w.db('stock_movements').where({ item_id: mugs, kind: 'reserve' }).count({ n: '*' }))[0].n)).toBe(5);
    expect(Number((await w.db('stock_reservations').where({ item_id: mugs, state: 'reserved' }).count({ n: '*' }))[0].n)).toBe(5);
  });

  it('one job reserved, used and released by two callers at once: each move happens once', async () => {
    const mugs = await newItem(10);
    await Promise.all([reserve(2000, mugs, 3), reserve(2000, mugs, 3)]);
    expect(await itemOf(mugs)).toMatchObject({ on_hand: 10, reserved: 3 });
    await Promise.all([w.db.transaction((trx) => useJobStock(trx, 2000, by, at())), w.db.transaction((trx) => useJobStock(trx, 2000, by, at()))]);
    expect(await itemOf(mugs)).toMatchObject({ on_hand: 7, reserved: 0 });
    await reserve(2001, mugs, 2);
    await Promise.all([w.db.transaction((trx) => releaseJobStock(trx, 2001, by, at(), 'withdrawn')), w.db.transaction((trx) => releaseJobStock(trx, 2001, by, at(), 'withdrawn'))]);
    expect(await itemOf(mugs)).toMatchObject({ on_hand: 7, reserved: 0 });
    const kinds = (await w.db('stock_movements').where({ item_id: mugs }).orderBy('id').select('kind', 'job_id')).map((m: { kind: string; job_id: number }) => `${m.kind} ${m.job_id}`);
    expect(kinds).toEqual(['reserve 2000', 'consume 2000', 'reserve 2001', 'release 2001']);
  });
});
