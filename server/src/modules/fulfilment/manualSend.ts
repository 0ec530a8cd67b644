// manually-send-hp: an operator's own provider body, sent with a site's settings, not through the
// outbox (the operator sees the answer and decides); logged like any send.
import { badRequest } from '../../http/errors';
import type { Actor } from '../../http/types';
import { HpError } from '../../integrations/hpSiteflow';
import { siteScope } from '../auth';
import { clientFor, nowIso, SendFailure, siteSettings, text, type FulfilmentContext } from './context';
import { buildManualBody, type ManualInput } from './orderBody';
import type { HpSettings } from './settings';
import { writeSendLog } from './sendLog';

export interface ManualSendResult {
  ok: boolean;
  status: number;
  answer: unknown;
  error?: string;
  errorMes?: unknown;
}

export async function manualSend(ctx: FulfilmentContext, actor: Actor, input: ManualInput & { siteId?: number }): Promise<ManualSendResult> {
  const siteId = siteScope(actor, input.siteId) ?? actor.siteId;
  let settings: HpSettings;
  try {
    ({ settings } = await siteSettings(ctx, siteId));
  } catch (err) {
    if (err instanceof SendFailure) throw badRequest(err.message);
    throw err;
  }
  const body = buildManualBody(input, settings);
  const orderId = text(input.orderData.sourceOrderId);
  let result: ManualSendResult;
  try {
    const answer = await clientFor(ctx, settings).submitOrder(body);
    result = { ok: true, status: 200, answer };
  } catch (err) {
    if (!(err instanceof HpError)) throw err;
    const answer = err.body ?? { success: false, error: { message: err.message, code: err.code, validations: err.validations } };
    result = { ok: false, status: err.status >= 400 && err.status < 500 && err.status !== 429 ? 422 : 502, answer, error: err.message, errorMes: { status: err.status, code: err.code, validations: err.validations } };
  }
  await writeSendLog(
    ctx.db,
    {
      siteId,
      orderId,
      lineId: null,
      status: result.ok ? 'sent' : 'failed',
      data: { sentData: body, results: result.answer, attempts: 1, manual: true, ...(result.error ? { error: result.error } : {}) },
      userId: actor.id,
    },
    nowIso(ctx),
  );
  return result;
}
