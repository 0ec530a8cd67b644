// GET /metrics: the Prometheus text of this instance (lib/metrics.ts). With METRICS_TOKEN set, the
// scraper sends it as a bearer token; without one, only a client on this machine may scrape.
import crypto from 'node:crypto';
import { Router, type Request, type RequestHandler } from 'express';
import type { Config } from '../../config';
import { allow } from '../../http/access';
import { HttpError, forbidden } from '../../http/errors';
import type { Metrics } from '../../lib/metrics';

const digest = (s: string) => crypto.createHash('sha256').update(s).digest();

/** Headers a proxy adds to what it forwards. */
const FORWARDED = ['forwarded', 'x-forwarded-for', 'x-real-ip', 'via'];

const isLoopbackAddress = (address: string | undefined) => !!address && (/^127\./.test(address) || address === '::1' || /^::ffff:127\./i.test(address));

/**
 * A client on this machine: the TCP peer is a loopback address and the request was not forwarded.
 * The socket's address, not req.ip: req.ip comes from X-Forwarded-For whenever TRUST_PROXY trusts
 * the peer (by default, any loopback peer), and anyone can write that header, so it cannot decide
 * who reads the metrics. A reverse proxy on the same machine connects from loopback too, so a
 * request carrying a proxy's headers is someone else's, passed on — not a local client.
 */
export function isLocalClient(req: Request): boolean {
  return isLoopbackAddress(req.socket.remoteAddress) && !FORWARDED.some((h) => req.headers[h] !== undefined);
}

function metricsGate(config: Config): RequestHandler {
  const token = config.metrics.token;
  const expected = token ? digest(token) : undefined;
  return (req, _res, next) => {
    if (expected) {
      const given = /^Bearer +(\S+)$/i.exec(req.get('authorization') ?? '')?.[1];
      // Digests of equal length, compared in constant time: the answer's timing says nothing of the token.
      if (given && crypto.timingSafeEqual(digest(given), expected)) return next();
      return next(new HttpError(401, 'The metrics need the METRICS_TOKEN as a bearer token (Authorization: Bearer <token>)', undefined, { 'WWW-Authenticate': 'Bearer realm="metrics"' }));
    }
    if (isLocalClient(req)) return next();
    next(forbidden('The metrics are served to clients on this machine only; set METRICS_TOKEN to scrape them from elsewhere'));
  };
}

export function metricsRoutes(metrics: Metrics, config: Config): Router {
  const r = Router();
  r.get('/metrics', allow.credential('METRICS_TOKEN as a bearer token; without one set, a client on this machine (loopback, not forwarded)').describe('Prometheus metrics of this instance (text exposition format)'), metricsGate(config), async (_req, res) => {
    const text = await metrics.scrape();
    res.set({ 'Content-Type': metrics.contentType, 'Cache-Control': 'no-store' }).send(text);
  });
  return r;
}
