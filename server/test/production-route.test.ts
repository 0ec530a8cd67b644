// Where an order line goes and whether it may go now: production's one decision, each reason of it.
import { describe, expect, it } from 'vitest';
import type { Design } from '../src/modules/designs/repo';
import { ECARD_NOT_PRINTED, type LineMapping } from '../src/modules/production/designForLine';
import { ORDER_CANCELLED, ORDER_UNPAID, type PrintHold } from '../src/modules/orders/orderHold';
import { autoSendOf } from '../src/modules/orders/webhookSites';
import { linesSentToProvider, ROUTE_CODES, routeLine, type LineRoute, type RouteCode, type RouteInput } from '../src/modules/production/route';
import { NOTHING_LEFT } from '../../common/api/units';

const design = (o: Partial<Design> = {}) => ({ id: 5, name: 'Poster', hpSKU: 'HP-POSTER', productType: 'Poster', ...o }) as Design;
const line = { id: '11', sku: 'P', quantity: 1 };
const mapped = (o: Partial<LineMapping> = {}): LineMapping => ({ line, design: design(), via: 'design', ...o });
type Job = NonNullable<RouteInput['job']>;
const job = (o: Partial<Job> = {}): Job => ({ id: 40, madeBy: 'inHouse', held: false, withdrawn: null, isPrinted: false, isPDFDownloaded: false, preflight: [], ...o });
const cancelled: PrintHold = { code: ORDER_CANCELLED, message: 'The order was cancelled in the store: it is not printed or sent' };
const unpaid: PrintHold = { code: ORDER_UNPAID, message: 'The order is not paid yet (payment status: pending)' };

const inWindow = { state: { until: '2026-11-20T10:30:00.000Z', reason: 'hold' as const }, sentence: 'in the change window until 10:30' };

/** One row per reason: what the line is, and where it goes. */
const TABLE: Array<{ code: RouteCode; input: RouteInput; goes: LineRoute['goes']; now: boolean; reason: string; waiting?: LineRoute['waiting'] }> = [
  { code: 'waiting', input: { mapping: mapped(), waiting: inWindow }, goes: 'provider', now: false, reason: 'In the change window until 10:30', waiting: inWindow.state },
  { code: 'cancelled', input: { hold: cancelled, mapping: mapped(), job: job() }, goes: 'nowhere', now: false, reason: cancelled.message },
  { code: 'unpaid', input: { hold: unpaid, mapping: mapped() }, goes: 'provider', now: false, reason: unpaid.message },
  { code: 'removed', input: { mapping: mapped({ design: null, via: null, removed: true, reason: NOTHING_LEFT }) }, goes: 'nowhere', now: false, reason: NOTHING_LEFT },
  { code: 'ecard', input: { mapping: mapped({ ecard: true, design: design({ productType: 'E-card' }) }) }, goes: 'email', now: true, reason: ECARD_NOT_PRINTED },
  { code: 'withdrawn', input: { mapping: mapped(), job: job({ withdrawn: { at: '2026-01-01T00:00:00Z', reason: NOTHING_LEFT } }) }, goes: 'in-house', now: false, reason: `Job #40 left the queue: ${NOTHING_LEFT}` },
  {
    code: 'held',
    input: { mapping: mapped(), job: job({ madeBy: 'provider', held: true, preflight: [{ severity: 'error', code: 'low-resolution', message: 'Page 1 is 90 ppi' }] as Job['preflight'] }) },
    goes: 'provider',
    now: false,
    reason: 'held by preflight: Page 1 is 90 ppi',
  },
  { code: 'at-provider', input: { mapping: mapped(), job: job({ madeBy: 'provider' }) }, goes: 'provider', now: false, reason: 'Sent to HP Site Flow (job #40): HP makes it' },
  { code: 'printing-in-house', input: { mapping: mapped(), job: job({ isPDFDownloaded: true }) }, goes: 'in-house', now: false, reason: 'it is being printed in house (job #40)' },
  { code: 'queued-in-house', input: { mapping: mapped(), job: job() }, goes: 'in-house', now: false, reason: 'In the Jobs queue (job #40)' },
  { code: 'no-design', input: { mapping: mapped({ design: null, via: null, reason: 'No design or product has the SKU P' }) }, goes: 'nowhere', now: false, reason: 'No design or product has the SKU P' },
  { code: 'no-provider-sku', input: { mapping: mapped({ design: design({ hpSKU: null }) }) }, goes: 'in-house', now: true, reason: 'The design "Poster" has no provider SKU (hpSKU)' },
  { code: 'ready', input: { mapping: mapped() }, goes: 'provider', now: true, reason: 'The provider makes it' },
];

describe('routeLine', () => {
  it('the table covers every reason', () => {
    expect(TABLE.map((r) => r.code).sort()).toEqual([...ROUTE_CODES].sort());
  });

  for (const row of TABLE) {
    it(`${row.code}: goes ${row.goes}, ${row.now ? 'now' : 'not now'}`, () => {
      expect(routeLine(row.input)).toEqual({ lineId: '11', goes: row.goes, now: row.now, code: row.code, reason: row.reason, waiting: row.waiting ?? null });
    });
  }

  it('a line sent without a job is the provider’s; an unpaid e-card waits; an unpaid order’s floor-only line waits for the floor', () => {
    expect(routeLine({ mapping: mapped(), sentToProvider: true })).toMatchObject({ goes: 'provider', now: false, code: 'at-provider', reason: 'Sent to HP Site Flow: HP makes it' });
    expect(routeLine({ hold: unpaid, mapping: mapped({ ecard: true }) })).toMatchObject({ goes: 'email', now: false, code: 'ecard' });
    expect(routeLine({ hold: unpaid, mapping: mapped({ design: design({ hpSKU: null }) }) })).toMatchObject({ goes: 'in-house', now: false, code: 'unpaid' });
  });

  it('a job held for stock says so, not "held by preflight"', () => {
    const r = routeLine({ mapping: mapped(), job: job({ held: true, stockHold: 'out of stock: Mugs (short by 3)' }) });
    expect(r).toMatchObject({ code: 'held', now: false, reason: 'held for stock: out of stock: Mugs (short by 3)' });
    expect(r.reason).not.toMatch(/preflight/);
  });

  it('a cancelled order stops every line, a job or none; a withdrawn job trumps its hold', () => {
    for (const input of [{ mapping: mapped() }, { mapping: mapped(), job: job({ madeBy: 'provider' }) }, { mapping: mapped({ ecard: true }) }]) expect(routeLine({ ...input, hold: cancelled }).code).toBe('cancelled');
    expect(routeLine({ mapping: mapped(), job: job({ held: true, withdrawn: { at: 'x', reason: 'gone' } }) }).code).toBe('withdrawn');
  });
});

describe('auto-send', () => {
  it('a waiting line is not made now (routing leaves it until its wait ends); a line made already waits for nothing', () => {
    expect(routeLine({ mapping: mapped(), waiting: inWindow })).toMatchObject({ code: 'waiting', now: false });
    // A line made already waits for nothing: its job says where it is.
    expect(routeLine({ mapping: mapped(), job: job(), waiting: inWindow })).toMatchObject({ code: 'queued-in-house', waiting: null });
  });

  it('HP_AUTO_SEND is on for 1, true, yes, on in any case, and off otherwise', () => {
    const env = (value: string) => [{ key: 'HP_AUTO_SEND', value }];
    for (const on of ['1', 'true', 'TRUE', 'Yes', 'on', ' on ']) expect(autoSendOf(env(on)), on).toBe(true);
    for (const off of ['0', 'false', 'no', 'off', '', 'maybe']) expect(autoSendOf(env(off)), off).toBe(false);
    expect(autoSendOf([])).toBe(false);
  });

  it('the lines the provider was sent are those with a send time', () => {
    expect([...linesSentToProvider({ preGeneratedHPItems: [{ lineId: 1, sentAt: 'x' }, { lineId: 2, sentAt: '' }] })]).toEqual(['1']);
    expect(linesSentToProvider({}).size).toBe(0);
  });
});
