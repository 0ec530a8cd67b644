// Turns anything thrown into the spec's envelope. No stack trace ever reaches a client.
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { HttpError } from './errors';
import { fail } from './envelope';
import { storageFault } from '../db';
import { IntegrationError } from '../integrations/crmHttp';

export const UNSTORABLE_TEXT = 'The request holds a NUL character (\\u0000), which cannot be stored';

/**
 * A NUL character in the path or query (%00) is refused before any route: no file or record name
 * holds one, and PostgreSQL cannot compare text with it (found by the fuzz suite on PostgreSQL).
 */
export function refuseNulInUrl(): RequestHandler {
  return (req, res, next) => (/%00/i.test(req.originalUrl) ? fail(res, 400, UNSTORABLE_TEXT) : next());
}

export function notFoundHandler(): RequestHandler {
  return (req, res) => fail(res, 404, `No such call: ${req.method} ${req.originalUrl.split("?")[0]}`);
}

/**
 * A failure of an outside service (the CRM, the email platform) as the API answers it: 400 for our
 * own missing settings, 503 when it is rate-limited or its quota is spent (with its Retry-After),
 * else 502; the body carries the typed error's details.
 */
export function integrationHttpError(err: IntegrationError): HttpError {
  const status = err.kind === 'config' ? 400 : err.kind === 'rate-limited' || err.kind === 'quota' ? 503 : 502;
  const headers = err.info.retryAfterSeconds !== undefined ? { 'Retry-After': String(err.info.retryAfterSeconds) } : undefined;
  return new HttpError(status, err.message, err.toJSON(), headers);
}

export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (res.headersSent) {
      req.socket.destroy();
      return;
    }
    const known = err instanceof IntegrationError ? integrationHttpError(err) : err;
    if (known instanceof HttpError) {
      if (known.headers) res.set(known.headers);
      return fail(res, known.status, known.message, known.details, known.field);
    }
    // body-parser and friends mark client errors with status/type.
    const status = typeof err?.status === 'number' ? err.status : typeof err?.statusCode === 'number' ? err.statusCode : 500;
    if (err?.type === 'entity.parse.failed') return fail(res, 400, 'The request body is not valid JSON');
    if (err?.type === 'entity.too.large') return fail(res, 413, 'The request body is too large');
    if (status >= 400 && status < 500) return fail(res, status, typeof err?.expose === 'boolean' && err.expose ? String(err.message) : 'Bad request');
    // Text PostgreSQL cannot store (a NUL character, \u0000 in JSON): the caller's input, not our fault.
    if (err?.code === '22021' || err?.code === '22P05') return fail(res, 400, UNSTORABLE_TEXT);
    // Disk full, database locked or busy: a clear 507/503 (the caller may retry), not a 500.
    const fault = storageFault(err);
    if (fault) {
      log.warn({ err, method: req.method, path: req.path }, 'storage fault');
      if (fault.retryAfterSeconds) res.set('Retry-After', String(fault.retryAfterSeconds));
      return fail(res, fault.status, fault.message);
    }
    log.error({ err, method: req.method, path: req.path }, 'unhandled error');
    return fail(res, 500, 'Something went wrong on our side; it has been logged');
  };
}
