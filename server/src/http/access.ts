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

export type AccessHandler = RequestHandler & { access: Access; why?: string };

function declare(access: Access, gate: RequestHandler, why?: string): AccessHandler {
  const h = ((req, res, next) => gate(req, res, next)) as AccessHandler;
  h.access = access;
  if (why) h.why = why;
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
