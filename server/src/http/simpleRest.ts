// The admin REST surface in the exact protocol of ra-data-simple-rest:
// GET /res?sort=["field","ASC"]&range=[0,24]&filter={...} → JSON array + Content-Range;
// GET /res/:id, POST /res, PUT /res/:id, DELETE /res/:id → plain records.
import { Router, type Request } from 'express';
import { z } from 'zod';
import { allow, type AccessHandler } from './access';
import { actorOf } from './auth';
import type { Actor } from './types';
import { idempotent } from './idempotency';
import { idParam } from './validate';
import { fieldError } from './fieldErrors';

export interface ListParams<F extends string> {
  filter: Record<string, unknown>;
  sort: { field: F; order: 'asc' | 'desc' };
  limit: number;
  offset: number;
}

/** Each call also gets the request (e.g. for the address the server was called on). */
export interface RestResource<F extends string, R extends { id: number }> {
  sortFields: readonly F[];
  defaultSort: { field: F; order: 'asc' | 'desc' };
  list(actor: Actor, params: ListParams<F>, req: Request): Promise<{ rows: R[]; total: number }>;
  getOne(actor: Actor, id: number, req: Request): Promise<R>;
  create?(actor: Actor, body: unknown, req: Request): Promise<R>;
  update?(actor: Actor, id: number, body: unknown, req: Request): Promise<R>;
  remove?(actor: Actor, id: number, req: Request): Promise<R>;
  /** The schemas create and update validate the body with (the API reference shows them). */
  bodies?: { create?: z.ZodType; update?: z.ZodType };
}

/** Who may call each of a resource's calls (one `allow.*` per route). */
export type RestAccess = Record<'list' | 'getOne' | 'create' | 'update' | 'remove', AccessHandler>;

export const restAccess = {
  /** Every call: admins only. */
  admin: { list: allow.admin, getOne: allow.admin, create: allow.admin, update: allow.admin, remove: allow.admin },
  /**
   * Any signed-in user: the list and create act on the caller's own site (`ownSite`); a record
   * named by id is its own site's users' and admins' (`site`). The service checks each record.
   */
  siteScoped: { list: allow.ownSite, getOne: allow.site, create: allow.ownSite, update: allow.site, remove: allow.site },
} satisfies Record<string, RestAccess>;

export const MAX_PAGE = 500;

function jsonQuery(req: Request, name: string): unknown {
  const raw = req.query[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string') throw fieldError(name, 'must be given once, as JSON');
  try {
    return JSON.parse(raw);
  } catch {
    throw fieldError(name, 'is not valid JSON');
  }
}

const sortSchema = z.tuple([z.string(), z.string().transform((s) => s.toLowerCase()).pipe(z.enum(['asc', 'desc']))]);
const rangeSchema = z.tuple([z.number().int().min(0), z.number().int().min(0)]).refine(([a, b]) => b >= a, 'end before start');

/** The list's query as the reference shows it: three JSON strings (parseListQuery reads them). */
const listQuery = z.object({
  sort: z.string().optional().meta({ description: 'JSON ["field","ASC"|"DESC"]' }),
  range: z.string().optional().meta({ description: 'JSON [start, end], at most 500 records' }),
  filter: z.string().optional().meta({ description: 'JSON object of filters' }),
});

export function parseListQuery<F extends string>(req: Request, resource: Pick<RestResource<F, never>, 'sortFields' | 'defaultSort'>): ListParams<F> {
  const sortRaw = jsonQuery(req, 'sort');
  const rangeRaw = jsonQuery(req, 'range');
  const filterRaw = jsonQuery(req, 'filter') ?? {};
  let sort = resource.defaultSort;
  if (sortRaw !== undefined) {
    const s = sortSchema.safeParse(sortRaw);
    if (!s.success) throw fieldError('sort', 'must be ["field","ASC"|"DESC"]');
    if (!resource.sortFields.includes(s.data[0] as F)) throw fieldError('sort', `cannot be by ${s.data[0]}`);
    sort = { field: s.data[0] as F, order: s.data[1] };
  }
  let limit = 25;
  let offset = 0;
  if (rangeRaw !== undefined) {
    const r = rangeSchema.safeParse(rangeRaw);
    if (!r.success) throw fieldError('range', 'must be [start, end] with whole numbers');
    offset = r.data[0];
    limit = Math.min(r.data[1] - r.data[0] + 1, MAX_PAGE);
  }
  if (typeof filterRaw !== 'object' || filterRaw === null || Array.isArray(filterRaw)) throw fieldError('filter', 'must be a JSON object');
  return { filter: filterRaw as Record<string, unknown>, sort, limit, offset };
}

export function simpleRestRouter<F extends string, R extends { id: number }>(name: string, resource: RestResource<F, R>, access: RestAccess): Router {
  const router = Router();
  router.get('/', access.list.describe(`List ${name} (react-admin simple-rest: ?sort, ?range, ?filter; Content-Range)`, { query: listQuery }), async (req, res) => {
    const params = parseListQuery(req, resource);
    const { rows, total } = await resource.list(actorOf(req), params, req);
    const end = rows.length ? params.offset + rows.length - 1 : params.offset;
    res.set('Content-Range', `${name} ${params.offset}-${end}/${total}`).json(rows);
  });
  router.get('/:id', access.getOne.describe(`One of ${name} by id`), async (req, res) => {
    res.json(await resource.getOne(actorOf(req), idParam(req.params.id), req));
  });
  if (resource.create) {
    const create = resource.create;
    router.post('/', access.create.describe(`Create one of ${name}; answers the record`, { body: resource.bodies?.create }), idempotent, async (req, res) => {
      res.status(201).json(await create(actorOf(req), req.body, req));
    });
  }
  if (resource.update) {
    const update = resource.update;
    router.put('/:id', access.update.describe(`Replace one of ${name} by id; answers the record`, { body: resource.bodies?.update }), async (req, res) => {
      res.json(await update(actorOf(req), idParam(req.params.id), req.body, req));
    });
  }
  if (resource.remove) {
    const remove = resource.remove;
    router.delete('/:id', access.remove.describe(`Delete one of ${name} by id; answers the deleted record`), async (req, res) => {
      res.json(await remove(actorOf(req), idParam(req.params.id), req));
    });
  }
  return router;
}

/** filter.id may be one id or a list (getMany). */
export function idsFilter(value: unknown): number[] | undefined {
  if (value === undefined) return undefined;
  const list = Array.isArray(value) ? value : [value];
  const ids = list.map(Number).filter((n) => Number.isSafeInteger(n) && n > 0);
  if (ids.length !== list.length) throw fieldError('filter.id', 'must be whole numbers');
  return ids;
}

export function optionalNumber(value: unknown, field: string): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0) throw fieldError(`filter.${field}`, 'must be a whole number');
  return n;
}

export function optionalString(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' && typeof value !== 'number') throw fieldError(`filter.${field}`, 'must be text');
  return String(value);
}
