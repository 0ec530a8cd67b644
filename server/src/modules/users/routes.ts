import { Router } from 'express';
import { z } from 'zod';
import { allow } from '../../http/access';
import { idempotent } from '../../http/idempotency';
import { actorOf } from '../../http/auth';
import { ok } from '../../http/envelope';
import { badRequest } from '../../http/errors';
import { idParam, parse } from '../../http/validate';
import type { UsersService } from './service';
import { loginBody, registerBody, upsertBody } from './schema';

export const MISSING_CREDENTIALS = 'Please input your email and password';

/** A page of a list (1 when absent). */
const pageQuery = z.object({ page: z.coerce.number().int().min(1).optional() });

export function usersRoutes(users: UsersService): Router {
  const r = Router();

  r.post('/login', allow.public.describe('Sign in with email and password: a bearer token and the user', { body: loginBody }), async (req, res) => {
    const body = loginBody.safeParse(req.body ?? {});
    if (!body.success) throw badRequest(MISSING_CREDENTIALS);
    ok(res, await users.login(body.data.email, body.data.password, req.ip ?? 'unknown'));
  });

  // Revokes the token presented, if any: signing out twice (or after expiry) is not an error.
  r.post('/logout', allow.public.describe('Sign out: the token is revoked on the server'), async (req, res) => {
    if (req.actor && req.token) await users.logout(req.token.jti, req.token.expiresAt);
    ok(res, null);
  });

  r.post('/register', allow.admin.describe('Create a user of a site', { body: registerBody }), idempotent, async (req, res) => {
    ok(res, await users.register(actorOf(req), parse(registerBody, req.body)), 201);
  });

  r.get('/me', allow.signedIn.describe('The signed-in user'), async (req, res) => {
    ok(res, await users.get(actorOf(req), actorOf(req).id));
  });

  r.get('/list-by-site/:id', allow.admin.describe('A site\'s users, a page at a time', { query: pageQuery }), async (req, res) => {
    const { page } = parse(pageQuery, req.query);
    ok(res, await users.listBySite(actorOf(req), idParam(req.params.id), page));
  });

  // Admins: any user; a user: their own account only (the service checks).
  r.post('/upsert', allow.signedIn.describe('Change a user (one\'s own, or any for an admin)', { body: upsertBody }), idempotent, async (req, res) => {
    ok(res, await users.upsert(actorOf(req), parse(upsertBody, req.body)));
  });

  r.get('/:id', allow.site.describe('One user'), async (req, res) => {
    ok(res, await users.get(actorOf(req), idParam(req.params.id)));
  });

  return r;
}
