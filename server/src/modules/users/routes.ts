import { Router } from 'express';
import { z } from 'zod';
import { actorOf, requireUser } from '../../http/auth';
import { ok } from '../../http/envelope';
import { badRequest } from '../../http/errors';
import { idParam, parse } from '../../http/validate';
import type { UsersService } from './service';
import { loginBody, registerBody, upsertBody } from './schema';

export const MISSING_CREDENTIALS = 'Please input your email and password';

export function usersRoutes(users: UsersService): Router {
  const r = Router();

  r.post('/login', async (req, res) => {
    const body = loginBody.safeParse(req.body ?? {});
    if (!body.success) throw badRequest(MISSING_CREDENTIALS);
    ok(res, await users.login(body.data.email, body.data.password, req.ip ?? 'unknown'));
  });

  r.post('/logout', async (req, res) => {
    if (req.actor && req.token) await users.logout(req.token.jti, req.token.expiresAt);
    ok(res, null);
  });

  r.post('/register', requireUser, async (req, res) => {
    ok(res, await users.register(actorOf(req), parse(registerBody, req.body)), 201);
  });

  r.get('/me', requireUser, async (req, res) => {
    ok(res, await users.get(actorOf(req), actorOf(req).id));
  });

  r.get('/list-by-site/:id', requireUser, async (req, res) => {
    const { page } = parse(z.object({ page: z.coerce.number().int().min(1).optional() }), req.query);
    ok(res, await users.listBySite(actorOf(req), idParam(req.params.id), page));
  });

  r.post('/upsert', requireUser, async (req, res) => {
    ok(res, await users.upsert(actorOf(req), parse(upsertBody, req.body)));
  });

  r.get('/:id', requireUser, async (req, res) => {
    ok(res, await users.get(actorOf(req), idParam(req.params.id)));
  });

  return r;
}
