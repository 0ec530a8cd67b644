// The provider calls of the product API: send-hp, send-hp-single-line, manually-send-hp and the
// hp-webhook postbacks under /api/online-stores; /api/hp-data; and /api/admin/hp-logs.
import { Router, type Response } from 'express';
import { allow } from '../../http/access';
import { idempotent } from '../../http/idempotency';
import { actorOf } from '../../http/auth';
import { ok } from '../../http/envelope';
import { idsFilter, optionalNumber, optionalString, restAccess, simpleRestRouter, type RestResource } from '../../http/simpleRest';
import { parse } from '../../http/validate';
import type { DataRecord, RecordSortField } from '../general-data/repo';
import { detailQuery, hpDataQuery, hpTestBody, manualBody, markShippedBody, postbackBody, sendHpBody, sendLineBody } from './schema';
import type { StoreFulfilments } from './storeFulfilment';
import type { ProviderCancellations } from './cancel';
import type { FulfilmentService, SendOutcome } from './service';
import { fieldError } from '../../http/fieldErrors';

/** A send's answer (docs/orders-fulfilment.md): data {status, hpOrderId} or {success:false, error, errorMes}. */
function answerSend(res: Response, outcome: SendOutcome) {
  if (outcome.status === 'failed') {
    res.status(422).json({ success: false, error: outcome.error, errorMes: outcome.errorMes ?? null });
    return;
  }
  if (outcome.status === 'queued') {
    res.status(202).json({ success: true, data: { status: 'queued', error: outcome.error ?? null, nextAttemptAt: outcome.nextAttemptAt ?? null } });
    return;
  }
  ok(res, { status: outcome.status, hpOrderId: outcome.hpOrderId, sentAt: outcome.sentAt, orderStatus: outcome.orderStatus ?? null });
}

export function onlineStoresFulfilmentRoutes(fulfilment: FulfilmentService, cancellations: ProviderCancellations): Router {
  const r = Router();

  r.post('/shopify-webhook/send-hp', allow.site.describe('Send a store order to HP Site Flow (through the outbox, never twice)', { body: sendHpBody }), idempotent, async (req, res) => {
    const body = parse(sendHpBody, req.body);
    answerSend(res, await fulfilment.sendOrder(actorOf(req), { orderRef: (body.orderId ?? body.id)!, siteId: body.siteId, sendFromJobs: body.sendFromJobs, sendUnpaid: body.sendUnpaid }));
  });

  r.post('/shopify-webhook/send-hp-single-line', allow.site.describe('Send one line of a store order to HP Site Flow', { body: sendLineBody }), idempotent, async (req, res) => {
    const body = parse(sendLineBody, req.body);
    answerSend(res, await fulfilment.sendOrder(actorOf(req), { orderRef: body.orderId, lineId: body.lineId, siteId: body.siteId, sendFromJobs: body.sendFromJobs, sendUnpaid: body.sendUnpaid }));
  });

  r.post('/shopify-webhook/cancel-hp', allow.site.describe('Cancel an order at HP Site Flow that HP has not shipped', { body: sendHpBody }), idempotent, async (req, res) => {
    const body = parse(sendHpBody, req.body);
    const result = await cancellations.cancelNow(actorOf(req), { orderRef: (body.orderId ?? body.id)!, siteId: body.siteId });
    // HP refused (or a setting is missing): 422 with the reason; still trying (no answer yet): 202.
    if (result.status === 'failed') return void res.status(422).json({ success: false, error: result.message, errorMes: result });
    if (result.status === 'pending') return void res.status(202).json({ success: true, data: result });
    ok(res, result);
  });

  r.post('/manually-send-hp', allow.ownSite.describe('Send a hand-made order to HP Site Flow and answer HP\'s reply', { body: manualBody }), idempotent, async (req, res) => {
    const body = parse(manualBody, req.body);
    const result = await fulfilment.manualSend(actorOf(req), body);
    if (result.ok) return ok(res, result.answer);
    res.status(result.status).json({ success: false, data: result.answer, error: result.error, errorMes: result.errorMes });
  });

  // Postbacks: no session; the site's static token in x-postback-token.
  r.post('/hp-webhook', allow.credential('the site\'s postback token in x-postback-token').describe('HP Site Flow postback receiver: status, tracking; stored once, applied, answered', { body: postbackBody }), async (req, res) => {
    const slug = typeof req.query.site === 'string' ? req.query.site : undefined;
    const site = await fulfilment.postbackSite(slug, req.get('x-postback-token'));
    const body = parse(postbackBody, req.body);
    ok(res, await fulfilment.receivePostback(site, body));
  });

  return r;
}

export function hpDataRoutes(fulfilment: FulfilmentService): Router {
  const r = Router();
  r.get('/', allow.ownSite.describe('Data from HP: the provider\'s postbacks, newest first', { query: hpDataQuery }), async (req, res) => {
    ok(res, await fulfilment.listEvents(actorOf(req), parse(hpDataQuery, req.query)));
  });
  r.get('/order/:orderId', allow.site.describe('Everything HP knows of an order: sends, events, lines', { query: detailQuery }), async (req, res) => {
    const orderId = String(req.params.orderId ?? '').trim();
    if (!orderId || orderId.length > 64) throw fieldError('orderId', 'is required (64 characters at most)');
    ok(res, await fulfilment.orderDetail(actorOf(req), orderId, parse(detailQuery, req.query).siteId));
  });
  return r;
}

function hpLogsResource(fulfilment: FulfilmentService): RestResource<RecordSortField, DataRecord> {
  return {
    sortFields: ['id', 'createdAt', 'updatedAt', 'name', 'field1', 'field2', 'siteId'],
    defaultSort: { field: 'createdAt', order: 'desc' },
    list: (actor, p) =>
      fulfilment.adminLogs(
        actor,
        {
          ids: idsFilter(p.filter.id),
          type: optionalString(p.filter.type, 'type'),
          field1: optionalString(p.filter.orderId ?? p.filter.field1, 'orderId'),
          field2: optionalString(p.filter.field2, 'field2'),
          status: optionalString(p.filter.status, 'status'),
          siteId: optionalNumber(p.filter.siteId, 'siteId'),
        },
        p.sort,
        p.limit,
        p.offset,
      ),
    getOne: (actor, id) => fulfilment.adminLog(actor, id),
  };
}

export const hpLogsAdminRoutes = (fulfilment: FulfilmentService) => simpleRestRouter('hp-logs', hpLogsResource(fulfilment), restAccess.siteScoped);

/** The HP Site Flow connectivity test, beside the spec's /api/test calls: admin only. */
export function hpTestRoutes(fulfilment: FulfilmentService): Router {
  const r = Router();
  r.post('/send-hp', allow.admin.describe('HP Site Flow connectivity test: a signed call with the site\'s keys', { body: hpTestBody }), idempotent, async (req, res) => {
    const { site } = parse(hpTestBody, req.body ?? {});
    ok(res, await fulfilment.testHp(actorOf(req), site));
  });
  return r;
}

/** /api/orders: Mark shipped (lines printed in house) and the store write-backs of an order. */
export function storeFulfilmentRoutes(storeFulfilments: StoreFulfilments): Router {
  const r = Router();
  r.post('/mark-shipped', allow.site.describe('Mark lines printed in house shipped: the tracking goes back to the store', { body: markShippedBody }), idempotent, async (req, res) => {
    const body = parse(markShippedBody, req.body);
    ok(res, await storeFulfilments.markShipped(actorOf(req), body));
  });
  r.get('/:orderId/store-fulfilments', allow.site.describe('An order\'s tracking write-backs to the store', { query: detailQuery }), async (req, res) => {
    const orderId = String(req.params.orderId ?? '').trim();
    if (!orderId || orderId.length > 64) throw fieldError('orderId', 'is required (64 characters at most)');
    ok(res, await storeFulfilments.ofOrder(actorOf(req), orderId, parse(detailQuery, req.query).siteId));
  });
  return r;
}
