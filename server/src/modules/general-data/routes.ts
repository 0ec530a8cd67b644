import { Router } from 'express';
import { allow } from '../../http/access';
import { idempotent } from '../../http/idempotency';
import { actorOf } from '../../http/auth';
import { ok } from '../../http/envelope';
import { idParam, parse } from '../../http/validate';
import type { GeneralDataService } from './service';
import { listQuery, recordType, upsertBody } from './schema';

export function generalDataRoutes(records: GeneralDataService): Router {
  const r = Router();
  // List: the answer's data.data is the list (spec §7), with hasNext and total beside it.
  r.get('/:type', allow.ownSite.describe('General-data records of a type (orders log, HP log, sync runs…), paged', { query: listQuery }), async (req, res) => {
    const type = parse(recordType, req.params.type);
    ok(res, await records.list(actorOf(req), type, parse(listQuery, req.query)));
  });

  r.get('/:type/:id', allow.site.describe('One general-data record'), async (req, res) => {
    ok(res, await records.get(actorOf(req), parse(recordType, req.params.type), idParam(req.params.id)));
  });

  r.post('/:type', allow.ownSite.describe('Create or change a general-data record', { body: upsertBody }), idempotent, async (req, res) => {
    ok(res, await records.upsert(actorOf(req), parse(recordType, req.params.type), parse(upsertBody, req.body)));
  });

  return r;
}
