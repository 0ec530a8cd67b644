// Who may call a route, declared beside the route's definition:
//   r.get('/:id', allow.site, handler)
// The declaration is also the route's first gate (a session where one is needed, admin where
// declared). Services still check each record's site: the declaration is the outer wall, not the
// only one. The security suite reads these declarations from the route table (http/routeTable.ts)
// and fails for a route that has none, so no route can be added without saying who may call it.
import type { RequestHandler } from 'express';
import { assertAdmin } from '../modules/auth';
import { actorOf, requireUser } from './auth';

export type Access =
  /** Anyone, signed in or not (sign-in, the site's public info, the UI's pages). */
  | 'public'
  /** No session: the caller proves itself another way (store HMAC, provider postback token, signed upload URL). */
  | 'credential'
  /** Any signed-in user; acts on the caller's own account only (me, sign-out, upload link). */
  | 'signedIn'
  /** Any signed-in user; reads or writes only the caller's own site's records (lists, creates). */
  | 'ownSite'
  /** A record or site named in the path: its own site's users and admins; another site's user gets 403/404. */
  | 'site'
  /** Admins only. */
  | 'admin';

/**
 * What a route does, for the API reference (GET /api/openapi.json): one line, and the zod schemas
 * it validates its body and query with — the same objects its handler parses with, so the
 * reference cannot drift from what the route accepts (server/test/openapi.test.ts checks both).
 */
export interface RouteDoc {
  summary: string;
  /** Several when the route accepts one of several bodies. */
  body?: import('zod').ZodType | import('zod').ZodType[];
  query?: import('zod').ZodType;
  /** A body that is not JSON: its media type (a file upload, a PDF). */
  bodyType?: string;
  /** What `data` of a successful answer (`{success: true, data}`) is. */
  response?: import('zod').ZodType;
}

export type AccessHandler = RequestHandler & {
  access: Access;
  why?: string;
  doc?: RouteDoc;
  /** The same declaration, with what the route does: `allow.site.describe('One batch with its jobs')`. */
  describe(summary: string, io?: Omit<RouteDoc, 'summary'>): AccessHandler;
};

function declare(access: Access, gate: RequestHandler, why?: string, doc?: RouteDoc): AccessHandler {
  const h = ((req, res, next) => gate(req, res, next)) as AccessHandler;
  h.access = access;
  if (why) h.why = why;
  if (doc) h.doc = doc;
  h.describe = (summary, io) => declare(access, gate, why, { summary, ...io });
  return h;
}

const pass: RequestHandler = (_req, _res, next) => next();
const adminGate: RequestHandler = (req, res, next) =>
  requireUser(req, res, (err?: unknown) => {
    if (err) return next(err);
    try {
      assertAdmin(actorOf(req));
      next();
    } catch (e) {
      next(e);
    }
  });

export const allow = {
  public: declare('public', pass),
  /** `why`: what the caller proves instead of a session, e.g. 'Shopify HMAC of the raw body'. */
  credential: (why: string) => declare('credential', pass, why),
  signedIn: declare('signedIn', requireUser),
  ownSite: declare('ownSite', requireUser),
  site: declare('site', requireUser),
  admin: declare('admin', adminGate),
};

/** The declaration among a route's handlers, if any. */
export function accessOf(handlers: readonly RequestHandler[]): AccessHandler | undefined {
  return handlers.find((h): h is AccessHandler => typeof (h as Partial<AccessHandler>).access === 'string');
}
