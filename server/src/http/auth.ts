// Authentication: a bearer token becomes req.actor, read fresh from the database on every request.
import type { RequestHandler } from 'express';
import { unauthorized } from './errors';
import type { Actor } from './types';
import { bearerToken } from '../modules/auth';
import type { UsersService } from '../modules/users';

declare module 'express-serve-static-core' {
  interface Request {
    tokenRejected?: boolean;
  }
}

export function attachActor(users: UsersService): RequestHandler {
  return async (req, _res, next) => {
    const token = bearerToken(req.get('authorization'));
    if (!token) return next();
    const session = await users.authenticate(token);
    if (session) {
      req.actor = session.actor;
      req.token = { jti: session.jti, expiresAt: session.expiresAt };
    } else req.tokenRejected = true;
    next();
  };
}

export const requireUser: RequestHandler = (req, _res, next) => {
  if (req.actor) return next();
  next(unauthorized(req.tokenRejected ? 'Your session has expired or is not valid. Please sign in again.' : 'Please sign in'));
};

/** The signed-in user of a request behind requireUser. */
export function actorOf(req: { actor?: Actor }): Actor {
  if (!req.actor) throw unauthorized();
  return req.actor;
}
