// A loopback HP Site Flow (docs/connect-hp-siteflow.md), faithful to the wire format: HMAC-SHA256 request
// signatures checked exactly in either scheme (PrintOS gateway: x-hp-hmac-*, signing the API path
// without the gateway's own prefix; Site Flow: x-oneflow-*, signing the full pathname), SHA1
// refused, order bodies validated, orders kept in memory, repeated sourceOrderIds refused, the
// submit answered at once (PrintOS) or only acknowledged with errors posted back (Site Flow),
// then postbacks received → printready → printed → shipped on a timeline (after fetching each
// component's file, to prove the provider can reach it).
// Faults: failNext(n, status), delayMs, dropConnections, duplicatePostbacks, reorderPostbacks, losePostbacks,
// failRate (a seeded share of calls answered 429/5xx), holdNext(n) (accept orders, hold the answers).
import crypto from 'node:crypto';
import express, { type ErrorRequestHandler, type RequestHandler, type Response } from 'express';
import { mulberry32 } from './prng';

export interface HpSimFaults {
  /** Every answer waits this long. */
  delayMs: number;
  /** Drop the connection without an answer: true = every call, a number = the next N calls. */
  dropConnections: boolean | number;
  /** Every postback is delivered twice. */
  duplicatePostbacks: boolean;
  /** The postbacks of an order are delivered newest first (shipped before printed…). */
  reorderPostbacks: boolean;
  /** Postbacks are lost on the way (recorded with status 'lost'): true = every one, a number = the next N. */
  losePostbacks: boolean | number;
  /** Seconds put in Retry-After on injected 429/503 answers (none when undefined). */
  retryAfterSeconds?: number;
  /** Share (0–1) of calls answered with one of failStatuses before anything is done (seeded by `seed`). Default 0. */
  failRate: number;
  /** The statuses failRate picks from (default 429, 500, 502, 503). */
  failStatuses: number[];
}

export interface HpSimulatorOptions {
  key: string;
  secret: string;
  /** The signing scheme it checks (default printos). */
  scheme?: 'printos' | 'oneflow';
  /**
   * `answer` (PrintOS): the submit answers the created order or the validation error.
   * `acknowledge` (Site Flow's submit host): the submit answers `{_id, url, timestamp, sourceAccountId}`
   * before validating; a refused order is reported by an "Order Submission Error" postback.
   * Default: `acknowledge` for the oneflow scheme, `answer` otherwise.
   */
  submitMode?: 'answer' | 'acknowledge';
  /**
   * What the acknowledgement's `_id` names: the order (default), or the submission only (the order
   * gets an id of its own). HP's documents do not say; both readings are supported.
   */
  acknowledgementId?: 'order' | 'submission';
  /** The postback body: Presswork's documented template (default) or the raw order object (`{{{prettyJson this}}}`). */
  postbackTemplate?: 'presswork' | 'raw';
  /** Where postbacks go (POST, header x-postback-token). Without it nothing is posted back. */
  postback?: { url: string; token: string };
  /** Milliseconds between timeline steps (default 1000). */
  timeline?: number;
  /** false: orders stay at dataready until sendPostback is called (tests drive the timeline). */
  autoProgress?: boolean;
  faults?: Partial<HpSimFaults>;
  sourceAccount?: string;
  /** A request date further than this from now is refused (default 15 min). */
  maxSkewMs?: number;
  fetchImpl?: typeof fetch;
  now?: () => Date;
  /** Seed of the failRate draws (default 1): the same seed fails the same calls. */
  seed?: number;
}

export type HpStatus = 'received' | 'dataready' | 'printready' | 'printed' | 'shipped' | 'cancelled' | 'error' | 'onhold';

export interface SimOrder {
  _id: string;
  sourceAccount: string;
  status: HpStatus;
  body: { destination?: { name?: string }; orderData: Record<string, unknown> & { sourceOrderId: string } };
  createdAt: string;
  shipment?: { trackingNumber: string; trackingUrl: string; shippedDate: string; carrier: { code: string; service: string; alias: string } };
}

export interface PostbackRecord {
  body: Record<string, unknown>;
  status: number | 'error' | 'lost';
  error?: string;
}

export interface FetchRecord {
  orderId: string;
  sourceOrderId: string;
  path: string;
  status: number | 'error';
  bytes: number;
  isPdf: boolean;
  error?: string;
}

const EVENTS: Record<string, string> = {
  received: 'order.received',
  printready: 'order.printready',
  printed: 'component.printed',
  shipped: 'shipment.shipped',
  cancelled: 'order.cancelled',
  error: 'order.errored',
  onhold: 'order.onhold',
  submissionerror: 'order.submissionerror',
};

const ISO_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

function hpError(res: Response, status: number, message: string, name: string, code: string | number, validations: Array<{ path: string; message: string }> = []) {
  res.status(status).json({ success: false, error: { message, name, code, validations } });
}

const isText = (v: unknown) => typeof v === 'string' && v.trim() !== '';

/** The order body rules: at least one item and one shipment, the required fields of each. */
export function validateOrderBody(body: unknown): Array<{ path: string; message: string }> {
  const out: Array<{ path: string; message: string }> = [];
  const req = (ok: boolean, path: string, message = 'is required') => {
    if (!ok) out.push({ path, message });
  };
  const b = body as { destination?: { name?: unknown }; orderData?: Record<string, unknown> } | null;
  if (!b || typeof b !== 'object') return [{ path: '', message: 'body must be a JSON object' }];
  req(isText(b.destination?.name), 'destination.name');
  const od = b.orderData as { sourceOrderId?: unknown; items?: unknown; shipments?: unknown } | undefined;
  if (!od || typeof od !== 'object') return [...out, { path: 'orderData', message: 'is required' }];
  req(isText(od.sourceOrderId) || typeof od.sourceOrderId === 'number', 'orderData.sourceOrderId');
  const shipments = Array.isArray(od.shipments) ? (od.shipments as Array<Record<string, unknown>>) : [];
  if (!shipments.length) out.push({ path: 'orderData.shipments', message: 'at least one shipment is required' });
  shipments.forEach((s, i) => {
    const p = `orderData.shipments[${i}]`;
    const to = s?.shipTo as Record<string, unknown> | undefined;
    for (const f of ['name', 'address1', 'town', 'postcode', 'isoCountry']) req(isText(to?.[f]), `${p}.shipTo.${f}`);
    // A carrier is named by the account's alias or by code and service (HP's own sample does the latter).
    const carrier = s?.carrier as { alias?: unknown; code?: unknown; service?: unknown } | undefined;
    req(isText(carrier?.alias) || (isText(carrier?.code) && isText(carrier?.service)), `${p}.carrier`, 'needs an alias, or a code and a service');
  });
  const items = Array.isArray(od.items) ? (od.items as Array<Record<string, unknown>>) : [];
  if (!items.length) out.push({ path: 'orderData.items', message: 'at least one item is required' });
  items.forEach((it, i) => {
    const p = `orderData.items[${i}]`;
    req(isText(it?.sourceItemId) || typeof it?.sourceItemId === 'number', `${p}.sourceItemId`);
    req(isText(it?.sku), `${p}.sku`);
    req(typeof it?.quantity === 'number' && Number.isInteger(it.quantity) && it.quantity > 0, `${p}.quantity`, 'must be a whole number above 0');
    const si = it?.shipmentIndex ?? 0;
    req(typeof si === 'number' && Number.isInteger(si) && si >= 0 && si < Math.max(1, shipments.length), `${p}.shipmentIndex`, 'must name a shipment');
    const comps = Array.isArray(it?.components) ? (it.components as Array<Record<string, unknown>>) : [];
    if (!comps.length) out.push({ path: `${p}.components`, message: 'at least one component is required' });
    comps.forEach((c, j) => {
      req(isText(c?.code), `${p}.components[${j}].code`);
      req(isText(c?.path), `${p}.components[${j}].path`);
    });
  });
  return out;
}

export function createHpSimulator(options: HpSimulatorOptions) {
  const now = options.now ?? (() => new Date());
  const fetchImpl = options.fetchImpl ?? fetch;
  const sourceAccount = options.sourceAccount ?? 'presswork';
  const scheme = options.scheme ?? 'printos';
  const submitMode = options.submitMode ?? (scheme === 'oneflow' ? 'acknowledge' : 'answer');
  const postbackTemplate = options.postbackTemplate ?? 'presswork';
  const sourceAccountId = crypto.createHash('sha256').update(`account:${sourceAccount}`).digest('hex').slice(0, 24);
  const maxSkewMs = options.maxSkewMs ?? 15 * 60_000;
  const faults: HpSimFaults = { delayMs: 0, dropConnections: false, duplicatePostbacks: false, reorderPostbacks: false, losePostbacks: false, failRate: 0, failStatuses: [429, 500, 502, 503], ...options.faults };
  const random = mulberry32(options.seed ?? 1);
  // holdNext: accepted orders whose answers wait for releaseHeld().
  let holdCount = 0;
  const held: Array<() => void> = [];
  const heldWaiters: Array<{ n: number; resolve: () => void }> = [];
  const notifyHeld = () => {
    for (let i = heldWaiters.length - 1; i >= 0; i--) if (held.length >= heldWaiters[i].n) heldWaiters.splice(i, 1)[0].resolve();
  };
  const state = {
    postback: options.postback,
    timeline: options.timeline ?? 1000,
    autoProgress: options.autoProgress ?? true,
    acknowledgementId: options.acknowledgementId ?? 'order',
  };
  const orders = new Map<string, SimOrder>();
  const bySource = new Map<string, string>();
  const postbacks: PostbackRecord[] = [];
  const fetches: FetchRecord[] = [];
  const calls: Array<{ method: string; path: string; status: number | 'dropped' }> = [];
  const stats = { submitCalls: 0, created: 0, duplicates: 0 };
  const pending = new Set<Promise<void>>();
  const timers = new Map<NodeJS.Timeout, () => void>();
  let failQueue: Array<number> = [];
  let stopped = false;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (ms <= 0) return void setImmediate(resolve);
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.set(t, resolve);
    });

  const track = (p: Promise<void>) => {
    const wrapped = p.catch(() => undefined).finally(() => pending.delete(wrapped));
    pending.add(wrapped);
  };

  // --- the HTTP surface -----------------------------------------------------------------

  const app = express();
  app.disable('x-powered-by');

  // Faults first: drop, delay, injected failures (these count as calls the client made).
  const faultGate: RequestHandler = async (req, res, next) => {
    const path = req.originalUrl.split('?')[0];
    if (faults.dropConnections === true || (typeof faults.dropConnections === 'number' && faults.dropConnections > 0)) {
      if (typeof faults.dropConnections === 'number') faults.dropConnections--;
      calls.push({ method: req.method, path, status: 'dropped' });
      req.socket.destroy();
      return;
    }
    if (faults.delayMs > 0) await sleep(faults.delayMs);
    let injected = failQueue.shift();
    if (injected === undefined && faults.failRate > 0 && random() < faults.failRate) injected = faults.failStatuses[Math.floor(random() * faults.failStatuses.length)] ?? 500;
    if (injected !== undefined) {
      calls.push({ method: req.method, path, status: injected });
      if ((injected === 429 || injected === 503) && faults.retryAfterSeconds !== undefined) res.set('Retry-After', String(faults.retryAfterSeconds));
      return hpError(res, injected, injected === 429 ? 'Too many requests' : `Injected failure ${injected}`, injected === 429 ? 'TooManyRequests' : 'ServerError', injected);
    }
    res.on('finish', () => calls.push({ method: req.method, path, status: res.statusCode }));
    next();
  };

  /**
   * The HMAC check. PrintOS: "<METHOD> <path><date>", the path as the API sees it (without the
   * gateway's own prefix, i.e. without this app's mount path). Site Flow: "<METHOD> <pathname> <date>",
   * the request's whole pathname. No algorithm header means SHA1, which is refused.
   */
  const hmacGate: RequestHandler = (req, res, next) => {
    const names = scheme === 'oneflow'
      ? { auth: 'x-oneflow-authorization', date: 'x-oneflow-date', algorithm: 'x-oneflow-algorithm' }
      : { auth: 'x-hp-hmac-authentication', date: 'x-hp-hmac-date', algorithm: 'x-hp-hmac-algorithm' };
    const auth = req.get(names.auth);
    const date = req.get(names.date);
    if (!auth || !date) return hpError(res, 401, `Missing ${names.auth} or ${names.date} header`, 'AuthenticationError', 401);
    const colon = auth.indexOf(':');
    const key = colon > 0 ? auth.slice(0, colon) : '';
    const signature = colon > 0 ? auth.slice(colon + 1) : '';
    if (key !== options.key) return hpError(res, 401, 'Unknown API key', 'AuthenticationError', 401);
    const algorithm = (req.get(names.algorithm) ?? 'SHA1').toUpperCase();
    if (algorithm !== 'SHA256') return hpError(res, 400, `HMAC-${algorithm} signatures are not supported; sign with HMAC-SHA256 and send ${names.algorithm}: SHA256`, 'ValidationError', 400);
    if (!ISO_SECONDS.test(date) || Number.isNaN(Date.parse(date))) return hpError(res, 401, `${names.date} must be an ISO-8601 UTC timestamp`, 'AuthenticationError', 401);
    if (Math.abs(Date.parse(date) - now().getTime()) > maxSkewMs) return hpError(res, 401, `${names.date} is too far from the current time`, 'AuthenticationError', 401);
    const signed = scheme === 'oneflow' ? `${req.method} ${req.originalUrl.split('?')[0]} ${date}` : `${req.method} ${req.path}${date}`;
    const expected = crypto.createHmac('sha256', options.secret).update(signed).digest();
    const given = /^[0-9a-f]{64}$/i.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return hpError(res, 401, 'Invalid HMAC signature', 'AuthenticationError', 401);
    next();
  };

  app.use(faultGate);
  app.use(hmacGate);
  app.use(express.json({ limit: '5mb' }));

  const orderView = (o: SimOrder) => ({
    _id: o._id,
    sourceAccount: o.sourceAccount,
    destination: o.body.destination,
    createdAt: o.createdAt,
    orderData: { ...o.body.orderData, status: o.status, ...(o.shipment ? { shipments: withTracking(o) } : {}) },
  });
  const withTracking = (o: SimOrder) =>
    // HP publishes no shipped order object: the tracking fields' names on a shipment are ours.
    (Array.isArray(o.body.orderData.shipments) ? (o.body.orderData.shipments as Array<Record<string, unknown>>) : []).map((s) => ({
      ...s,
      trackingNumber: o.shipment?.trackingNumber,
      trackingUrl: o.shipment?.trackingUrl,
      shippedDate: o.shipment?.shippedDate,
    }));

  const DUPLICATE = { message: 'Source Order ID already exists', validations: [{ path: 'orderData.sourceOrderId', message: 'Source Order ID already exists' }] };

  /** Why an order body is refused (validation, then a repeated sourceOrderId), or undefined. */
  const refusalOf = (body: unknown) => {
    const validations = validateOrderBody(body);
    if (validations.length) return { message: 'Order validation failed', validations };
    const sourceOrderId = String((body as SimOrder['body']).orderData.sourceOrderId);
    return bySource.has(`${sourceAccount}:${sourceOrderId}`) ? DUPLICATE : undefined;
  };

  app.post('/api/order/validate', (req, res) => {
    const refusal = refusalOf(req.body);
    if (refusal) return hpError(res, 400, refusal.message, 'ValidationError', 'ValidationError', refusal.validations);
    res.json({ success: true, validations: [] });
  });

  /** Keeps an accepted order and starts its timeline. */
  const createOrder = (body: SimOrder['body'], id = crypto.randomBytes(12).toString('hex')) => {
    const sourceOrderId = String(body.orderData.sourceOrderId);
    const order: SimOrder = {
      _id: id,
      sourceAccount,
      status: 'dataready',
      body: { ...body, orderData: { ...body.orderData, sourceOrderId } },
      createdAt: now().toISOString(),
    };
    orders.set(order._id, order);
    bySource.set(`${sourceAccount}:${sourceOrderId}`, order._id);
    stats.created++;
    if (state.autoProgress && !stopped) track(runTimeline(order));
    return order;
  };

  app.post('/api/order', (req, res) => {
    stats.submitCalls++;
    if (submitMode === 'acknowledge') {
      // Taken in before any check; the outcome comes later, as a postback when refused.
      const _id = crypto.randomBytes(12).toString('hex');
      const body = req.body as SimOrder['body'];
      const refusal = refusalOf(body);
      if (refusal === DUPLICATE) stats.duplicates++;
      if (!refusal) createOrder(body, state.acknowledgementId === 'order' ? _id : crypto.randomBytes(12).toString('hex'));
      else track(deliver(submissionErrorBody(_id, body, refusal)));
      return res.json({ _id, url: `https://s3.amazonaws.com/order/${_id}`, timestamp: now().toISOString(), sourceAccountId });
    }
    const validations = validateOrderBody(req.body);
    if (validations.length) return hpError(res, 400, 'Order validation failed', 'ValidationError', 'ValidationError', validations);
    const body = req.body as SimOrder['body'];
    const sourceOrderId = String(body.orderData.sourceOrderId);
    const sourceKey = `${sourceAccount}:${sourceOrderId}`;
    // Check and insert with no await in between: two racing submits cannot both pass.
    if (bySource.has(sourceKey)) {
      stats.duplicates++;
      return hpError(res, 400, DUPLICATE.message, 'ValidationError', 'ValidationError', DUPLICATE.validations);
    }
    const order = createOrder(body);
    if (holdCount > 0) {
      // Accepted, but the answer waits: the caller may die before it hears back.
      holdCount--;
      held.push(() => {
        if (!res.writableEnded && !res.destroyed) res.json({ success: true, order: orderView(order) });
      });
      notifyHeld();
      return;
    }
    res.json({ success: true, order: orderView(order) });
  });

  app.get('/api/order/:id', (req, res) => {
    const order = orders.get(String(req.params.id));
    if (!order) return hpError(res, 404, 'Order not found', 'NotFoundError', 404);
    res.json({ success: true, order: orderView(order) });
  });

  app.put('/api/order/:sourceAccount/:sourceOrderId/cancel', (req, res) => {
    const id = bySource.get(`${req.params.sourceAccount}:${req.params.sourceOrderId}`);
    const order = id ? orders.get(id) : undefined;
    if (!order) return hpError(res, 404, 'Order not found', 'NotFoundError', 404);
    if (order.status === 'shipped') return hpError(res, 400, 'A shipped order cannot be cancelled', 'ValidationError', 'ValidationError');
    order.status = 'cancelled';
    if (state.postback) track(sendPostback(order.body.orderData.sourceOrderId, 'cancelled'));
    res.json({ success: true, order: orderView(order) });
  });

  app.use((req, res) => hpError(res, 404, `No such call: ${req.method} ${req.path}`, 'NotFoundError', 404));
  const errors: ErrorRequestHandler = (err, _req, res, _next) => {
    if (err?.type === 'entity.parse.failed') return hpError(res, 400, 'The body is not valid JSON', 'ValidationError', 400);
    hpError(res, typeof err?.status === 'number' ? err.status : 500, String(err?.message ?? 'error'), 'ServerError', 500);
  };
  app.use(errors);

  // --- the timeline and postbacks -------------------------------------------------------

  async function fetchComponents(order: SimOrder) {
    const items = (order.body.orderData.items as Array<{ components?: Array<{ path?: string; fetch?: boolean }> }>) ?? [];
    for (const item of items) {
      for (const c of item.components ?? []) {
        if (!c.path || c.fetch === false) continue;
        const rec: FetchRecord = { orderId: order._id, sourceOrderId: order.body.orderData.sourceOrderId, path: c.path, status: 'error', bytes: 0, isPdf: false };
        try {
          const r = await fetchImpl(c.path, { signal: AbortSignal.timeout(10_000) });
          const buf = Buffer.from(await r.arrayBuffer());
          rec.status = r.status;
          rec.bytes = buf.length;
          rec.isPdf = buf.subarray(0, 5).toString('latin1') === '%PDF-';
        } catch (err) {
          rec.error = (err as Error).message;
        }
        fetches.push(rec);
      }
    }
  }

  function shipmentFor(order: SimOrder) {
    const shipments = (order.body.orderData.shipments as Array<{ carrier?: { alias?: string } }>) ?? [];
    const alias = shipments[0]?.carrier?.alias ?? 'standard';
    const trackingNumber = `HP${crypto.randomBytes(5).toString('hex').toUpperCase()}`;
    order.shipment ??= {
      trackingNumber,
      trackingUrl: `https://tracking.example.com/${trackingNumber}`,
      shippedDate: now().toISOString(),
      carrier: { code: alias.split(/[^a-z0-9]/i)[0].toLowerCase() || 'carrier', service: `${alias} tracked`, alias },
    };
    return order.shipment;
  }

  function postbackBody(order: SimOrder, status: HpStatus, extra: Record<string, unknown> = {}) {
    if (status === 'shipped') shipmentFor(order);
    if (postbackTemplate === 'raw') {
      // `{{{prettyJson this}}}`: the order object itself, as it stands now.
      const view = orderView(order);
      return { ...view, orderData: { ...view.orderData, status }, ...extra } as Record<string, unknown>;
    }
    const body: Record<string, unknown> = {
      event: EVENTS[status] ?? `order.${status}`,
      sourceOrderId: order.body.orderData.sourceOrderId,
      orderId: order._id,
      status,
      timestamp: now().toISOString(),
    };
    if (status === 'shipped') body.shipment = order.shipment;
    return { ...body, ...extra };
  }

  /** The "Order Submission Error" postback of a refused submit (acknowledge mode). */
  function submissionErrorBody(id: string, body: SimOrder['body'], refusal: { message: string; validations: Array<{ path: string; message: string }> }) {
    const error = { message: refusal.message, validations: refusal.validations };
    const sourceOrderId = String(body?.orderData?.sourceOrderId ?? '');
    if (postbackTemplate === 'raw') return { _id: id, sourceAccountId, orderData: { ...(body?.orderData ?? {}), sourceOrderId, status: 'error' }, error };
    return { event: EVENTS.submissionerror, sourceOrderId, orderId: id, status: 'error', timestamp: now().toISOString(), error };
  }

  async function deliver(body: Record<string, unknown>) {
    const target = state.postback;
    if (!target) return;
    if (faults.losePostbacks === true || (typeof faults.losePostbacks === 'number' && faults.losePostbacks > 0)) {
      if (typeof faults.losePostbacks === 'number') faults.losePostbacks--;
      postbacks.push({ body, status: 'lost' });
      return;
    }
    const copies = faults.duplicatePostbacks ? 2 : 1;
    for (let i = 0; i < copies; i++) {
      let rec: PostbackRecord = { body, status: 'error' };
      // The trigger system retries a failed delivery a few times.
      for (let attempt = 0; attempt < 3; attempt++) {
        try {
          const r = await fetchImpl(target.url, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', 'x-postback-token': target.token },
            body: JSON.stringify(body),
            signal: AbortSignal.timeout(10_000),
          });
          await r.text();
          rec = { body, status: r.status };
          if (r.ok || (r.status >= 400 && r.status < 500)) break;
        } catch (err) {
          rec = { body, status: 'error', error: (err as Error).message };
        }
        if (stopped) break;
        await sleep(Math.min(200, state.timeline || 10));
      }
      postbacks.push(rec);
    }
  }

  /** Post back one status for an order now (tests drive out-of-order and late postbacks with it). */
  async function sendPostback(sourceOrderId: string, status: HpStatus, extra?: Record<string, unknown>) {
    const id = bySource.get(`${sourceAccount}:${sourceOrderId}`);
    const order = id ? orders.get(id) : undefined;
    if (!order) throw new Error(`simulator: no order ${sourceOrderId}`);
    await deliver(postbackBody(order, status, extra));
  }

  async function runTimeline(order: SimOrder) {
    await sleep(state.timeline);
    await fetchComponents(order);
    const steps: HpStatus[] = ['received', 'printready', 'printed', 'shipped'];
    const bodies: Array<Record<string, unknown>> = [];
    for (const status of steps) {
      if (stopped || order.status === 'cancelled') return;
      if (status !== 'received') order.status = status;
      const body = postbackBody(order, status);
      if (faults.reorderPostbacks) bodies.unshift(body);
      else await deliver(body);
      if (status !== 'shipped') await sleep(state.timeline);
    }
    for (const body of bodies) await deliver(body);
  }

  return {
    app,
    orders,
    postbacks,
    fetches,
    calls,
    stats,
    faults,
    sourceAccount,
    /** The next n orders accepted are kept, but their answers wait for releaseHeld(). */
    holdNext(n: number) {
      holdCount += n;
    },
    /** How many accepted orders' answers are waiting. */
    heldCount: () => held.length,
    /** Resolves once at least n answers are being held. */
    whenHeld(n: number): Promise<void> {
      return held.length >= n ? Promise.resolve() : new Promise<void>((resolve) => heldWaiters.push({ n, resolve }));
    },
    /** Sends every held answer (to callers still listening) and stops holding. */
    releaseHeld() {
      holdCount = 0;
      for (const send of held.splice(0)) send();
    },
    /** The next n calls answer `status` (429 and 503 carry Retry-After when faults.retryAfterSeconds is set). */
    failNext(n: number, status: number) {
      failQueue = [...failQueue, ...Array.from({ length: n }, () => status)];
    },
    setPostback(target: { url: string; token: string } | undefined) {
      state.postback = target;
    },
    setAcknowledgementId(names: 'order' | 'submission') {
      state.acknowledgementId = names;
    },
    setTimeline(ms: number, autoProgress = state.autoProgress) {
      state.timeline = ms;
      state.autoProgress = autoProgress;
    },
    orderBySource(sourceOrderId: string) {
      const id = bySource.get(`${sourceAccount}:${sourceOrderId}`);
      return id ? orders.get(id) : undefined;
    },
    /** Moves an order to `status` at the provider (as its timeline would) and posts that back. */
    progress(sourceOrderId: string, status: HpStatus) {
      const id = bySource.get(`${sourceAccount}:${sourceOrderId}`);
      const order = id ? orders.get(id) : undefined;
      if (!order) throw new Error(`simulator: no order ${sourceOrderId}`);
      order.status = status;
      const p = deliver(postbackBody(order, status));
      track(p);
      return p;
    },
    sendPostback: (sourceOrderId: string, status: HpStatus, extra?: Record<string, unknown>) => {
      const p = sendPostback(sourceOrderId, status, extra);
      track(p);
      return p;
    },
    /** Resolves when every running timeline and postback has finished. */
    async idle() {
      while (pending.size) await Promise.all([...pending]);
    },
    reset() {
      orders.clear();
      bySource.clear();
      postbacks.length = 0;
      fetches.length = 0;
      calls.length = 0;
      failQueue = [];
      Object.assign(stats, { submitCalls: 0, created: 0, duplicates: 0 });
      Object.assign(faults, { delayMs: 0, dropConnections: false, duplicatePostbacks: false, reorderPostbacks: false, losePostbacks: false, retryAfterSeconds: undefined, failRate: 0, failStatuses: [429, 500, 502, 503] });
      holdCount = 0;
      for (const send of held.splice(0)) send();
      state.acknowledgementId = options.acknowledgementId ?? 'order';
    },
    /** Stops the timelines (pending steps are dropped). */
    stop() {
      stopped = true;
      for (const [t, resolve] of timers) {
        clearTimeout(t);
        resolve();
      }
      timers.clear();
    },
  };
}

export type HpSimulator = ReturnType<typeof createHpSimulator>;
