// /api/search: the header search, as the user types (a read: no idempotency key).
import { Router } from 'express';
import { allow } from '../../http/access';
import { actorOf } from '../../http/auth';
import { ok } from '../../http/envelope';
import { parse } from '../../http/validate';
import { searchQuery } from './schema';
import type { SearchService } from './service';

export function searchRoutes(search: SearchService): Router {
  const r = Router();
  r.get('/', allow.ownSite.describe('Header search: orders, jobs, batches, designs, sites and users by prefix', { query: searchQuery }), async (req, res) => {
    ok(res, await search.search(actorOf(req), parse(searchQuery, req.query).q ?? ''));
  });
  return r;
}
