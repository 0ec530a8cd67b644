// Needs attention: what is wrong on the floor, worst first, each row with the screen where it is
// fixed. Every kind is read with an indexed, bounded query from the module that owns its table;
// late and at risk are the ship-by views' own verdicts (ship-by/views.ts), never a second rule.
import {
  ATTENTION_KIND_LIMIT,
  ATTENTION_KINDS,
  SEVERITIES,
  SEVERITY_OF,
  jobInQueueLink,
  type AttentionAnswer,
  type AttentionCounts,
  type AttentionItem,
  type AttentionKind,
} from '../../../../common/api/attention';
import type { PipelineStep } from '../../../../common/api/pipeline';
import type { ShipByState } from '../../../../common/api/shipBy';
import type { Deps } from '../../deps';
import type { Actor } from '../../http/types';
import { createHash } from 'node:crypto';
import { formatDateTime } from '../../lib/clock';
import { changeMark, watchChanges } from '../../lib/dbChanges';
import { isAdmin } from '../auth';
import { siteScope } from '../auth';
import { HP_ORDER_KIND, type OutboxRow, failedOutboxRows, providerFirstPrintedFrom, providerFirstSentFrom, providerPrintedBefore, providerSentBefore } from '../fulfilment';
import { HP_SOURCE } from '../fulfilment';
import { PROGRESS, SIDE, TERMINAL, orderNames, ordersPlacedSince } from '../orders';
import { STORE_FULFILMENT_KIND, storeHoldNotices } from '../fulfilment';
import { failingDeliveriesBySource } from '../inbox';
import { SHOPIFY_SOURCE } from '../orders';
import { PIPELINE_KIND, type PipelinePayload, pipelineRunsOfOrder } from '../pipeline';
import { heldPrintJobs, owedPrintJobs } from '../print-jobs';
import { siteNames } from '../search';
import { checkOrderLink } from '../search';
import { shipByViews } from '../ship-by';
import { RE_SOURCE } from '../sync';
import { heldLineRoutes } from '../routing';
import { changesAsked } from '../waiting';
import { lowStockItems } from '../stock';
import { stockLastsWords } from '../../../../common/api/stock';

/**
 * Late and at risk are judged over the jobs of the last four weeks (made, or printed and not
 * shipped, since then): an order older than that still unshipped is a matter for List Orders.
 */
export const ATTENTION_WINDOW_DAYS = 28;
/** The most orders, and jobs of each half (made by hand, printed), read for ship-by: the oldest, so the worst. */
const OWED_SCAN_LIMIT = 5000;
/** Order statuses that still owe the customer a shipment. */
const OPEN_STATUSES = [...PROGRESS, ...SIDE].filter((s) => !TERMINAL.has(s));

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const STEP_NAME: Record<PipelineStep, string> = { addToRaisersEdge: "adding the buyer to Raiser's Edge", addToAdestra: 'adding the buyer to Adestra', sendEcard: 'sending the e-card' };
// Where a failing source is looked into: admins have the all-sites screens, staff their site's orders.
const WEBHOOK_OF: Record<string, { what: string; link: string; adminLink: string }> = {
  [SHOPIFY_SOURCE]: { what: 'order webhooks from the store', link: '/orders', adminLink: '/all-orders' },
  [HP_SOURCE]: { what: 'postbacks from HP Site Flow', link: '/orders', adminLink: '/hp-data' },
  [RE_SOURCE]: { what: "webhooks from Raiser's Edge", link: '/re-n-adestra-sync', adminLink: '/re-n-adestra-sync' },
};

/** An error as a short clause (a provider's answer can be a page long). */
const brief = (error: string | null) => {
  const text = (error ?? 'no reason given').replace(/\s+/g, ' ').trim();
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
};
const orderLabel = (name: string | null, orderId: string) => `Order ${name || orderId}`;
const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();
const severityRank = (s: AttentionItem['severity']) => SEVERITIES.indexOf(s);
const kindRank = (k: AttentionKind) => ATTENTION_KINDS.indexOf(k);

/** Worst first: severity, then the longest-standing, then the kind's place. */
export function worstFirst(a: AttentionItem, b: AttentionItem): number {
  return severityRank(a.severity) - severityRank(b.severity) || a.since.localeCompare(b.since) || kindRank(a.kind) - kindRank(b.kind);
}

interface Found {
  items: AttentionItem[];
  /** How many there are, beyond the items kept. */
  total: number;
}

/** An answer as a tab is sent it: its body's digest is its ETag, so equal answers share one. */
export interface AttentionReply {
  answer: AttentionAnswer;
  /** The answer as JSON, serialised once for every ask it serves. */
  json: string;
  etag: string;
}

/** Most scopes whose answer is kept (the least recently computed is let go first). */
const KEPT_SCOPES_MAX = 500;

/** The earliest of some future times (ms), or Infinity. */
const soonest = (now: number, times: Iterable<number>) => {
  let next = Infinity;
  for (const t of times) if (t > now && t < next) next = t;
  return next;
};

export function attentionService(deps: Deps) {
  const { db, clock, config } = deps;
  const timeZone = config.sync.timezone;
  const views = shipByViews(deps);
  const when = (iso: string) => formatDateTime(iso, timeZone);
  const item = (kind: AttentionKind, rest: Omit<AttentionItem, 'kind' | 'severity'>): AttentionItem => ({ kind, severity: SEVERITY_OF[kind], ...rest });
  const kept = (items: AttentionItem[], total = items.length): Found => ({ items: items.sort(worstFirst).slice(0, ATTENTION_KIND_LIMIT), total });

  /**
   * Late and at risk: the lines of orders placed in the window and not shipped nor cancelled (one
   * row an order, at its earliest ship-by), and jobs made by hand; printed and not shipped: jobs
   * printed here, by order.
   */
  async function owed(siteId: number | undefined, now: Date, changes: number[]): Promise<Record<'late' | 'atRisk' | 'notShipped', Found>> {
    const from = new Date(now.getTime() - ATTENTION_WINDOW_DAYS * DAY).toISOString();
    const [orders, jobs] = await Promise.all([
      ordersPlacedSince(db, siteId, OPEN_STATUSES, from, OWED_SCAN_LIMIT).then((o) => views.onOrders(o)),
      owedPrintJobs(db, siteId, { from, printedFrom: from }, OWED_SCAN_LIMIT).then((j) => views.onJobs(j)),
    ]);
    const unshippedSince = now.getTime() - config.attention.unshippedDays * DAY;
    const earliest = (a: string | undefined, b: string) => (a && a < b ? a : b);
    type Owed = { siteId: number; who: string; link: string; ids: Pick<AttentionItem, 'orderId' | 'jobId'>; late?: string; atRisk?: string };
    const owing: Owed[] = [];
    for (const o of orders) {
      const g: Owed = { siteId: o.siteId, who: orderLabel(o.field2, o.field1 ?? ''), link: checkOrderLink(o.field1 ?? ''), ids: { orderId: o.field1 ?? '' } };
      for (const line of (o.data.line_items ?? []) as Array<Partial<ShipByState>>) {
        if (line?.due === 'late' && line.shipBy) g.late = earliest(g.late, line.shipBy);
        if (line?.due === 'atRisk' && line.shipBy) g.atRisk = earliest(g.atRisk, line.shipBy);
      }
      owing.push(g);
    }
    const printedByOrder = new Map<string, { job: (typeof jobs)[number]; printedAt: string }>();
    for (const j of jobs) {
      if (j.orderStatus === null || !j.shopifyOrderId) {
        const g: Owed = { siteId: j.clientId, who: `Job ${j.id} (${j.productName})`, link: jobInQueueLink(j.id), ids: { jobId: j.id } };
        if (j.due === 'late' && j.shipBy) g.late = j.shipBy;
        if (j.due === 'atRisk' && j.shipBy) g.atRisk = j.shipBy;
        owing.push(g);
      } else if (j.isPrinted && j.printedAt && Date.parse(j.printedAt) < unshippedSince) {
        const key = `${j.clientId}\n${j.shopifyOrderId}`;
        printedByOrder.set(key, { job: j, printedAt: earliest(printedByOrder.get(key)?.printedAt, j.printedAt) });
      }
    }
    const settings = await views.settingsOfSites([...orders.map((o) => o.siteId), ...jobs.map((j) => j.clientId)]);
    // When the clock alone changes this answer: a ship-by reached or coming within the at-risk hours,
    // a job passing the unshipped days, a row leaving the window.
    const riskMs = (site: number) => (settings.get(site)?.atRiskHours ?? 0) * HOUR;
    const windowMs = ATTENTION_WINDOW_DAYS * DAY;
    const unshippedMs = config.attention.unshippedDays * DAY;
    for (const o of orders) {
      changes.push(Date.parse(o.createdAt) + windowMs);
      for (const line of (o.data.line_items ?? []) as Array<Partial<ShipByState>>) {
        const at = line?.shipBy ? Date.parse(line.shipBy) : NaN;
        if (!Number.isNaN(at)) changes.push(at + 1, at - riskMs(o.siteId));
      }
    }
    for (const j of jobs) {
      changes.push(Date.parse(j.createdAt) + windowMs);
      if (j.printedAt) changes.push(Date.parse(j.printedAt) + windowMs, Date.parse(j.printedAt) + unshippedMs);
      const at = j.shipBy ? Date.parse(j.shipBy) : NaN;
      if (!Number.isNaN(at)) changes.push(at + 1, at - riskMs(j.clientId));
    }
    const late: AttentionItem[] = [];
    const atRisk: AttentionItem[] = [];
    for (const g of owing) {
      if (g.late) late.push(item('late', { title: `${g.who} is late: ship by ${when(g.late)}`, link: g.link, since: g.late, siteId: g.siteId, ...g.ids }));
      // At risk since its ship-by less its site's at-risk hours.
      else if (g.atRisk) atRisk.push(item('atRisk', { title: `${g.who} is at risk: ship by ${when(g.atRisk)} and not printed yet`, link: g.link, since: plus(g.atRisk, -(settings.get(g.siteId)?.atRiskHours ?? 0) * HOUR), siteId: g.siteId, ...g.ids }));
    }
    const notShipped: AttentionItem[] = [...printedByOrder.values()].map(({ job: j, printedAt }) =>
      item('notShipped', {
        title: `${orderLabel(j.orderName, j.shopifyOrderId!)} was printed on ${when(printedAt)} and has not shipped`,
        link: checkOrderLink(j.shopifyOrderId!),
        since: plus(printedAt, config.attention.unshippedDays * DAY),
        siteId: j.clientId,
        orderId: j.shopifyOrderId!,
      }),
    );
    // Orders HP Site Flow printed and never shipped (their jobs are the provider's, never printed here).
    const [byHp, nextByHp] = await Promise.all([
      providerPrintedBefore(db, siteId, new Date(unshippedSince).toISOString(), ATTENTION_KIND_LIMIT),
      providerFirstPrintedFrom(db, siteId, new Date(unshippedSince).toISOString()),
    ]);
    if (nextByHp) changes.push(Date.parse(nextByHp) + unshippedMs + 1);
    const listed = new Set(notShipped.map((i) => `${i.siteId}\n${i.orderId}`));
    for (const o of byHp.rows) {
      if (listed.has(`${o.siteId}\n${o.storeOrderId}`)) continue;
      notShipped.push(
        item('notShipped', {
          title: `${orderLabel(o.name, o.storeOrderId)} was printed by HP Site Flow on ${when(o.since)} and has not shipped`,
          link: checkOrderLink(o.storeOrderId),
          since: plus(o.since, config.attention.unshippedDays * DAY),
          siteId: o.siteId,
          orderId: o.storeOrderId,
        }),
      );
    }
    return { late: kept(late), atRisk: kept(atRisk), notShipped: kept(notShipped, notShipped.length + Math.max(0, byHp.total - byHp.rows.length)) };
  }

  async function held(siteId: number | undefined): Promise<Found> {
    const { rows, total } = await heldPrintJobs(db, siteId, ATTENTION_KIND_LIMIT);
    const items = rows.map((j) =>
      item('held', {
        title: j.stockHold
          ? `Job ${j.id} (${j.productName})${j.orderName ? ` of order ${j.orderName}` : ''} is waiting for stock, ${j.stockHold}: receive it in Setup → Stock`
          : `Job ${j.id} (${j.productName})${j.orderName ? ` of order ${j.orderName}` : ''} is held by preflight: check its print file and approve or fix it`,
        link: jobInQueueLink(j.id, true),
        since: j.heldSince,
        siteId: j.clientId,
        jobId: j.id,
        ...(j.shopifyOrderId ? { orderId: j.shopifyOrderId } : {}),
      }),
    );
    return kept(items, total);
  }

  /** Lines a routing rule held (a reason for staff), until someone routes them. */
  async function routingHeld(siteId: number | undefined): Promise<Found> {
    const rows = await heldLineRoutes(db, siteId === undefined ? 'all' : [siteId], ATTENTION_KIND_LIMIT + 1);
    const names = new Map<string, string | null>();
    for (const sid of new Set(rows.map((r) => r.siteId))) {
      const ids = rows.filter((r) => r.siteId === sid).map((r) => r.orderId);
      for (const [id, name] of await orderNames(db, sid, ids)) names.set(`${sid}\n${id}`, name);
    }
    const items = rows.slice(0, ATTENTION_KIND_LIMIT).map((r) =>
      item('routingHeld', {
        title: `Line ${r.lineId} of ${orderLabel(names.get(`${r.siteId}\n${r.orderId}`) ?? null, r.orderId)} is held: ${brief(r.reason ?? null)}. Route it now, or send or make it by hand`,
        link: checkOrderLink(r.orderId),
        since: r.at,
        siteId: r.siteId,
        orderId: r.orderId,
        lineId: r.lineId,
      }),
    );
    return kept(items, rows.length);
  }

  /** A buyer asked for a change to a proof (or the proof could not be e-mailed): staff edit the line or cancel it. */
  async function proofChanges(siteId: number | undefined): Promise<Found> {
    const { rows, total } = await changesAsked(db, siteId, ATTENTION_KIND_LIMIT);
    const items = [];
    for (const w of rows) {
      const name = (await orderNames(db, w.siteId, [w.orderId])).get(w.orderId) ?? w.orderId;
      items.push(
        item('proofChange', {
          title: `Order ${name}: ${w.message?.startsWith('The proof could not be e-mailed') ? w.message : `the buyer asked for a change to the proof: “${brief(w.message)}”`}. Edit the line's personalisation (a new proof goes) or cancel it`,
          link: checkOrderLink(w.orderId),
          since: w.since,
          siteId: w.siteId,
          orderId: w.orderId,
        }),
      );
    }
    return kept(items, total);
  }

  /** Stock at or under its reorder point, with the days it lasts at the last 14 days' use. */
  async function lowStock(siteId: number | undefined, now: Date): Promise<Found> {
    const low = await lowStockItems(deps, siteId, ATTENTION_KIND_LIMIT);
    const items = low.map(({ item: s, daysLeft }) => {
      const lasts = stockLastsWords(daysLeft);
      const reorder = s.reorderQuantity > 0 ? `; reorder ${s.reorderQuantity} ${s.unit}` : '';
      return item('lowStock', {
        title: `${s.name}: ${s.available} ${s.unit} available, at or under the reorder point of ${s.reorderPoint}; ${lasts}${reorder}`,
        link: `/stock-items/${s.id}/show`,
        since: now.toISOString(),
        siteId: s.siteId,
        stockItemId: s.id,
      });
    });
    return kept(items, items.length);
  }

  async function hpNoAck(siteId: number | undefined, now: Date, changes: number[]): Promise<Found> {
    const ms = config.attention.hpAckHours * HOUR;
    const before = new Date(now.getTime() - ms).toISOString();
    const [{ rows, total }, next] = await Promise.all([providerSentBefore(db, siteId, before, ATTENTION_KIND_LIMIT), providerFirstSentFrom(db, siteId, before)]);
    if (next) changes.push(Date.parse(next) + ms + 1);
    const items = rows.map((o) =>
      item('hpNoAck', {
        title: `${orderLabel(o.name, o.storeOrderId)} was sent to HP Site Flow on ${when(o.since)} and HP has not acknowledged it`,
        link: checkOrderLink(o.storeOrderId),
        since: plus(o.since, ms),
        siteId: o.siteId,
        orderId: o.storeOrderId,
      }),
    );
    return kept(items, total);
  }

  /** The store names of the orders of some outbox rows, by site and order id. */
  async function namesOf(rows: OutboxRow[]): Promise<(r: OutboxRow) => string> {
    const bySite = new Map<number, string[]>();
    for (const r of rows) if (r.siteId !== null) bySite.set(r.siteId, [...(bySite.get(r.siteId) ?? []), r.payload.orderId]);
    const names = new Map<string, string | null>();
    for (const [site, ids] of bySite) for (const [id, name] of await orderNames(db, site, [...new Set(ids)])) names.set(`${site}\n${id}`, name);
    return (r) => orderLabel(names.get(`${r.siteId}\n${r.payload.orderId}`) ?? null, r.payload.orderId);
  }

  /** One row a failed outbox row, naming its order, opening Check order. */
  async function outboxItems(kind: AttentionKind, rows: OutboxRow[], title: (order: string, r: OutboxRow) => string): Promise<AttentionItem[]> {
    const label = await namesOf(rows);
    return rows.map((r) => item(kind, { title: title(label(r), r), link: checkOrderLink(r.payload.orderId), since: r.updatedAt, siteId: r.siteId, orderId: r.payload.orderId }));
  }

  async function failedSends(siteId: number | undefined): Promise<Found> {
    const { rows, total } = await failedOutboxRows(db, HP_ORDER_KIND, siteId, ATTENTION_KIND_LIMIT);
    const items = await outboxItems('sendFailed', rows, (order, r) => `${order}${r.payload.lineId ? ` (line ${r.payload.lineId})` : ''} could not be sent to HP Site Flow: ${brief(r.error)}`);
    return kept(items, total);
  }

  /** Stores whose token may not hold fulfillment orders: one row a site, until a hold works there. */
  async function storeHoldsRefused(siteId: number | undefined): Promise<Found> {
    const { rows, total } = await storeHoldNotices(db, siteId, ATTENTION_KIND_LIMIT);
    const names = await siteNames(db, rows.flatMap((r) => (r.siteId === null ? [] : [r.siteId])));
    const items = rows.map((r) =>
      item('storeHoldRefused', {
        title: `The store of ${names.get(r.siteId!) ?? 'a site'} does not let Presswork put waiting orders on hold (its access token lacks the write_merchant_managed_fulfillment_orders scope): orders still wait in Presswork, but the store does not show them as on hold. Grant the scope (reinstall or update the app) in Setup → Stores`,
        link: '/stores',
        since: r.updatedAt,
        siteId: r.siteId,
      }),
    );
    return kept(items, total);
  }

  async function failedWriteBacks(siteId: number | undefined): Promise<Found> {
    const { rows, total } = await failedOutboxRows(db, STORE_FULFILMENT_KIND, siteId, ATTENTION_KIND_LIMIT);
    const items = await outboxItems('writeBackFailed', rows, (order, r) => `The store was not told that ${order.replace(/^Order/, 'order')} shipped: ${brief(r.error)}`);
    return kept(items, total);
  }

  /** Failed pipeline steps, less those a later run of the same step has done (or is doing). */
  async function failedSteps(siteId: number | undefined): Promise<Found> {
    const { rows, total } = await failedOutboxRows(db, PIPELINE_KIND, siteId, ATTENTION_KIND_LIMIT);
    const stepOf = (r: OutboxRow) => {
      const p = r.payload as PipelinePayload;
      return `${p.step}\n${p.lineId ?? ''}`;
    };
    const still: OutboxRow[] = [];
    for (const r of rows) {
      const runs = r.siteId === null ? [] : await pipelineRunsOfOrder(db, r.siteId, r.payload.orderId);
      if (!runs.some((x) => x.id > r.id && stepOf(x) === stepOf(r) && x.status !== 'failed')) still.push(r);
    }
    const items = await outboxItems('pipelineFailed', still, (order, r) => {
      const step = (r.payload as PipelinePayload).step;
      return `${order}: ${STEP_NAME[step] ?? step} failed: ${brief(r.error)}`;
    });
    return kept(items, total - (rows.length - still.length));
  }

  async function failingWebhooks(siteId: number | undefined, admin: boolean): Promise<Found> {
    const groups = await failingDeliveriesBySource(db, siteId);
    const items = groups.map((g) => {
      const source = WEBHOOK_OF[g.source] ?? { what: `webhooks (${g.source})`, link: '/orders', adminLink: '/all-orders' };
      return item('webhookFailing', {
        title: `${g.count === 1 ? `1 of the ${source.what} has` : `${g.count} ${source.what} have`} failed to process; the latest: ${brief(g.lastError)}`,
        link: admin ? source.adminLink : source.link,
        since: g.since,
        siteId: g.siteId,
      });
    });
    return kept(items, groups.reduce((n, g) => n + g.count, 0));
  }

  /** The answer now, and the first moment the clock alone would change it (ms, or Infinity). */
  async function compute(siteId: number | undefined, admin: boolean): Promise<{ answer: AttentionAnswer; computedAt: number; validUntil: number }> {
    const now = clock.now();
    const changes: number[] = [];
    const [owedJobs, heldJobs, heldLines, noAck, sends, writeBacks, steps, webhooks, proofs, low, holdsRefused] = await Promise.all([
      owed(siteId, now, changes),
      held(siteId),
      routingHeld(siteId),
      hpNoAck(siteId, now, changes),
      failedSends(siteId),
      failedWriteBacks(siteId),
      failedSteps(siteId),
      failingWebhooks(siteId, admin),
      proofChanges(siteId),
      lowStock(siteId, now),
      storeHoldsRefused(siteId),
    ]);
    const found: Record<AttentionKind, Found> = { ...owedJobs, held: heldJobs, routingHeld: heldLines, hpNoAck: noAck, sendFailed: sends, writeBackFailed: writeBacks, pipelineFailed: steps, webhookFailing: webhooks, proofChange: proofs, lowStock: low, storeHoldRefused: holdsRefused };
    const counts = { total: 0, critical: 0 } as AttentionCounts;
    for (const kind of ATTENTION_KINDS) {
      counts[kind] = found[kind].total;
      counts.total += found[kind].total;
      if (SEVERITY_OF[kind] === 'critical') counts.critical += found[kind].total;
    }
    const items = ATTENTION_KINDS.flatMap((k) => found[k].items).sort(worstFirst);
    // Admins see every site's problems: each row says whose.
    if (admin) {
      const names = await siteNames(db, items.flatMap((i) => (i.siteId === null ? [] : [i.siteId])));
      for (const i of items) if (i.siteId !== null && names.has(i.siteId)) i.siteName = names.get(i.siteId);
    }
    return { answer: { items, counts }, computedAt: now.getTime(), validUntil: soonest(now.getTime(), changes) };
  }

  // Every open tab asks every 30 s for a list that rarely changes: the answer of each scope (a site
  // as its staff see it, every site or one as an admin sees it) is kept until a write to the
  // database or the clock could change it, so most asks cost a token check and one change mark.
  watchChanges(db);
  interface Kept extends AttentionReply {
    mark: string;
    /** The clock's span over which the answer holds: a clock set back (a test's, an NTP step) asks again too. */
    computedAt: number;
    validUntil: number;
  }
  const keptAnswers = new Map<string, Kept>();
  const computing = new Map<string, Promise<Kept>>();

  async function fresh(key: string, siteId: number | undefined, admin: boolean): Promise<Kept> {
    const mark = await changeMark(db);
    const had = keptAnswers.get(key);
    const now = clock.now().getTime();
    if (had && had.mark === mark && now >= had.computedAt && now < had.validUntil) return had;
    // Tabs asking together share one computation of the same state.
    const flight = `${key}\n${mark}`;
    let pending = computing.get(flight);
    if (!pending) {
      pending = compute(siteId, admin)
        .then(({ answer, computedAt, validUntil }): Kept => {
          const json = JSON.stringify(answer);
          const etag = `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`;
          const kept = { answer, json, etag, mark, computedAt, validUntil };
          keptAnswers.delete(key);
          keptAnswers.set(key, kept);
          // One entry a scope asked lately: an admin naming site after site cannot grow it for ever.
          if (keptAnswers.size > KEPT_SCOPES_MAX) keptAnswers.delete(keptAnswers.keys().next().value!);
          return kept;
        })
        .finally(() => computing.delete(flight));
      computing.set(flight, pending);
    }
    return pending;
  }

  /** The answer with its ETag (a digest of nothing but this answer, so it tells one site nothing of another). */
  async function reply(actor: Actor, clientId?: number): Promise<AttentionReply> {
    const siteId = siteScope(actor, clientId);
    const admin = isAdmin(actor);
    const { answer, json, etag } = await fresh(`${admin ? 'admin' : 'staff'}:${siteId ?? 'all'}`, siteId, admin);
    return { answer, json, etag };
  }

  return {
    /** Staff: their own site's problems; admins: every site's, or one site's (`clientId`). */
    list: async (actor: Actor, clientId?: number): Promise<AttentionAnswer> => (await reply(actor, clientId)).answer,
    reply,
  };
}

export type AttentionService = ReturnType<typeof attentionService>;
