// An order's status moves only as ORDER_MOVES says: every allowed move and every refused one, walked
// from the table itself (a new move is covered as soon as it is declared), against a real order row.
import { beforeAll, describe, expect, it } from 'vitest';
import { historyRepo } from '../src/modules/history/repo';
import { AUTOMATIC } from '../src/modules/history/record';
import { mayMove, moveOrder, nextOrderStatus, ORDER_EVENTS, ORDER_MOVES, OrderMoveRefused, PROGRESS, STATUSES, type OrderEvent } from '../src/modules/orders/orderState';
import { nextStatus, normaliseOrder } from '../src/modules/orders/shopify';
import { orderTablesRepo } from '../src/modules/orders/tablesRepo';
import { createWorld, type TestWorld } from './harness';

const EVENTS = Object.values(ORDER_EVENTS);
/** `null` in the table: a status it does not know, as a hand-made record may hold. */
const UNKNOWN = 'hand-made';
const FROMS = [null, ...STATUSES];
const allowed = (event: OrderEvent, from: string | null, to: string) => ORDER_MOVES.some((m) => m.event === event && m.to === to && m.from.includes(from as never));

let w: TestWorld;
let order: { id: number; siteId: number; orderId: string };

beforeAll(async () => {
  w = await createWorld();
  const at = w.clock.now().toISOString();
  const [id] = await orderTablesRepo(w.db).insertOrders([{ siteId: w.sites.a, orderId: '7001', name: '#7001', status: 'received', searchText: '#7001', data: { id: '7001', name: '#7001', line_items: [] }, createdAt: at, updatedAt: at }]);
  order = { id, siteId: w.sites.a, orderId: '7001' };
});

class Rollback extends Error {}

/** Sets the order to `from`, tries the move, reads what it left; then rolls it all back. */
async function tryMove(from: string | null, to: string | null, event: OrderEvent) {
  let seen: { moved?: boolean; error?: unknown; status?: string | null; dataStatus?: unknown; entries?: Array<{ action: string; from: string | null; to: string | null; reason: string | null }> } = {};
  const at = w.clock.now().toISOString();
  await w.db
    .transaction(async (trx) => {
      const tables = orderTablesRepo(trx);
      const stored = from ?? UNKNOWN;
      await tables.updateOrder(order.id, { status: stored, data: { id: order.orderId, name: '#7001', line_items: [], status: stored, note: 'kept' }, updatedAt: at });
      try {
        seen.moved = await moveOrder(trx, { ...order, status: stored }, to, { event, at, by: { automatic: AUTOMATIC.presswork }, reason: 'walked', patch: { data: { id: order.orderId, name: '#7001', line_items: [], status: stored, note: 'moved' } } });
      } catch (err) {
        seen.error = err;
      }
      const row = await tables.orderById(order.id);
      seen = { ...seen, status: row?.status, dataStatus: row?.data.status, entries: await historyRepo(trx).ofSubject('order', order.orderId) };
      throw new Rollback();
    })
    .catch((err: unknown) => {
      if (!(err instanceof Rollback)) throw err;
    });
  return seen;
}

describe('the order moves table', () => {
  const moves = ORDER_MOVES.flatMap((m) => m.from.map((from) => ({ event: m.event, from, to: m.to })));

  it('declares each move once, between known statuses, never from a final status or onto itself', () => {
    const keys = moves.map((m) => `${m.event}:${m.from}:${m.to}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const m of moves) {
      expect(STATUSES).toContain(m.to);
      expect(m.from).not.toBe(m.to);
      expect(['shipped', 'cancelled']).not.toContain(m.from);
    }
  });

  for (const m of moves) {
    it(`allows ${m.from ?? 'nothing'} → ${m.to} on ${m.event}: written with its data and in the history`, async () => {
      const seen = await tryMove(m.from, m.to, m.event);
      expect(seen.error).toBeUndefined();
      expect(seen.moved).toBe(true);
      expect(seen.status).toBe(m.to);
      expect(seen.dataStatus).toBe(m.to);
      expect(seen.entries).toEqual([expect.objectContaining({ action: 'status', from: m.from ?? UNKNOWN, to: m.to, reason: 'walked' })]);
    });
  }

  for (const event of EVENTS) {
    it(`refuses every other move on ${event}: a 409 naming it, nothing written, nothing in the history`, async () => {
      const refused = FROMS.flatMap((from) => STATUSES.filter((to) => to !== from && !allowed(event, from, to)).map((to) => ({ from, to })));
      expect(refused.length).toBeGreaterThan(0);
      for (const { from, to } of refused) {
        const seen = await tryMove(from, to, event);
        expect(seen.error, `${from} → ${to}`).toBeInstanceOf(OrderMoveRefused);
        expect((seen.error as OrderMoveRefused).status).toBe(409);
        expect((seen.error as Error).message).toBe(`Order 7001 cannot move from ${from ?? UNKNOWN} to ${to} on ${event}`);
        expect(seen.status).toBe(from ?? UNKNOWN);
        expect(seen.entries).toEqual([]);
      }
    });
  }

  it('writes the data alone when the status stays (no move, nothing in the history)', async () => {
    const seen = await tryMove('shipped', 'shipped', ORDER_EVENTS.postback);
    expect(seen).toMatchObject({ moved: false, status: 'shipped', entries: [] });
    const none = await tryMove('sent', null, ORDER_EVENTS.postback);
    expect(none).toMatchObject({ moved: false, status: 'sent', entries: [] });
  });
});

describe('the rules that pick a move', () => {
  it("the provider's word only ever picks a move the table allows", () => {
    const words = [...STATUSES, 'unknown-word'];
    for (const current of [...FROMS, UNKNOWN])
      for (const incoming of words)
        for (const reached of [null, ...PROGRESS]) {
          const next = nextOrderStatus(current, incoming, reached);
          if (next) expect(mayMove(current, next, ORDER_EVENTS.postback), `${current} + ${incoming} (reached ${reached})`).toBe(true);
        }
    for (const current of FROMS) {
      const sent = nextOrderStatus(current, 'sent', null);
      if (sent) expect(mayMove(current, sent, ORDER_EVENTS.providerSend)).toBe(true);
      const cancelled = nextOrderStatus(current, 'cancelled');
      if (cancelled) expect(mayMove(current, cancelled, ORDER_EVENTS.providerCancelled)).toBe(true);
      const shipped = nextOrderStatus(current, 'shipped', null);
      if (shipped) expect(mayMove(current, shipped, ORDER_EVENTS.shippedInHouse)).toBe(true);
    }
  });

  it("the store's new version only ever picks a move the table allows", () => {
    const base = { id: '1', name: '#1', line_items: [{ id: '2', quantity: 1, sku: 'X' }] };
    const versions = [base, { ...base, line_items: [] }, { ...base, cancelled_at: '2026-01-01T00:00:00Z' }].map((o) => normaliseOrder(o));
    for (const current of [...FROMS, UNKNOWN])
      for (const o of versions) {
        const next = nextStatus(current, o);
        if (next !== current) expect(mayMove(current, next, ORDER_EVENTS.store), `${current} → ${next}`).toBe(true);
      }
  });
});
