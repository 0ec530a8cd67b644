// /api/admin/<resource>: the react-admin screens' REST surface. Same services as the product API.
import { Router } from 'express';
import { allow } from '../../http/access';
import { idsFilter, optionalNumber, optionalString, restAccess, simpleRestRouter, type RestResource } from '../../http/simpleRest';
import { parse } from '../../http/validate';
import type { DataRecord, RecordSortField } from '../general-data/repo';
import { recordType, upsertBody as recordBody } from '../general-data/schema';
import type { GeneralDataService } from '../general-data/service';
import { designsResource } from '../designs/adminResource';
import type { DesignsService } from '../designs/service';
import { printJobsResource } from '../print-jobs/adminResource';
import type { PrintJobsService } from '../print-jobs/service';
import type { SiteSortField } from '../sites/repo';
import { siteBody } from '../sites/schema';
import type { MaskedSite, SitesService } from '../sites/service';
import type { SortField as UserSortField } from '../users/repo';
import { registerBody, role, upsertBody as userUpsertBody } from '../users/schema';
import type { PublicUser, UsersService } from '../users/service';
import { fieldError } from '../../http/fieldErrors';

export interface AdminServices {
  sites: SitesService;
  users: UsersService;
  generalData: GeneralDataService;
  printJobs: PrintJobsService;
  designs: DesignsService;
}

function sitesResource(sites: SitesService): RestResource<SiteSortField, MaskedSite> {
  return {
    bodies: { create: siteBody, update: siteBody },
    sortFields: ['id', 'name', 'slug', 'createdAt'],
    defaultSort: { field: 'id', order: 'asc' },
    list: (actor, p) => sites.list(actor, { ids: idsFilter(p.filter.id), q: optionalString(p.filter.q, 'q') }, p.sort, p.limit, p.offset),
    getOne: async (actor, id) => (await sites.get(actor, id)) as MaskedSite,
    create: (actor, body) => sites.upsert(actor, { ...parse(siteBody, body), id: undefined }),
    update: (actor, id, body) => sites.upsert(actor, { ...parse(siteBody, body), id }),
    remove: (actor, id) => sites.remove(actor, id),
  };
}

function usersResource(users: UsersService): RestResource<UserSortField, PublicUser> {
  return {
    bodies: { create: registerBody, update: userUpsertBody },
    sortFields: ['id', 'firstName', 'lastName', 'email', 'role', 'siteId', 'createdAt'],
    defaultSort: { field: 'id', order: 'asc' },
    list: (actor, p) => {
      const r = p.filter.role === undefined || p.filter.role === '' ? undefined : role.safeParse(p.filter.role);
      if (r && !r.success) throw fieldError('filter.role', 'must be admin or user');
      return users.list(
        actor,
        { ids: idsFilter(p.filter.id), siteId: optionalNumber(p.filter.siteId, 'siteId'), q: optionalString(p.filter.q, 'q'), role: r?.data },
        p.sort,
        p.limit,
        p.offset,
      );
    },
    getOne: (actor, id) => users.get(actor, id),
    create: (actor, body) => users.register(actor, parse(registerBody, body)),
    update: (actor, id, body) => users.upsert(actor, { ...parse(userUpsertBody, body), id }),
    remove: (actor, id) => users.remove(actor, id),
  };
}

function generalDataResource(records: GeneralDataService): RestResource<RecordSortField, DataRecord> {
  const typeOf = (body: unknown) => parse(recordType, (body as { type?: unknown } | null)?.type);
  return {
    bodies: { create: recordBody, update: recordBody },
    sortFields: ['id', 'createdAt', 'updatedAt', 'type', 'name', 'field1', 'field2', 'siteId'],
    defaultSort: { field: 'id', order: 'desc' },
    list: (actor, p) =>
      records.adminList(
        actor,
        {
          ids: idsFilter(p.filter.id),
          type: p.filter.type === undefined ? undefined : parse(recordType, p.filter.type),
          field1: optionalString(p.filter.field1, 'field1'),
          field2: optionalString(p.filter.field2, 'field2'),
          name: optionalString(p.filter.name, 'name'),
          siteId: optionalNumber(p.filter.siteId, 'siteId'),
          userId: optionalNumber(p.filter.userId, 'userId'),
        },
        p.sort,
        p.limit,
        p.offset,
      ),
    getOne: async (actor, id) => {
      const record = await records.repo.byId(id);
      return records.get(actor, record?.type ?? '', id);
    },
    create: (actor, body) => records.upsert(actor, typeOf(body), { ...parse(recordBody, body), id: undefined }),
    update: async (actor, id, body) => {
      const existing = await records.repo.byId(id);
      return records.upsert(actor, existing?.type ?? typeOf(body), { ...parse(recordBody, body), id });
    },
    remove: (actor, id) => records.remove(actor, id),
  };
}

export function adminRoutes(s: AdminServices): Router {
  const r = Router();
  // Tenants and their users: admins only (a user changes their own account through /api/users/upsert);
  // a user may read their own site (without its settings).
  r.use('/sites', simpleRestRouter('sites', sitesResource(s.sites), { ...restAccess.admin, getOne: allow.site.describe('One site by id (react-admin)') }));
  r.use('/users', simpleRestRouter('users', usersResource(s.users), restAccess.admin));
  // Site data: any signed-in user, scoped to their site by the services.
  r.use('/general-data', simpleRestRouter('general-data', generalDataResource(s.generalData), restAccess.siteScoped));
  r.use('/print-jobs', simpleRestRouter('print-jobs', printJobsResource(s.printJobs), restAccess.siteScoped));
  r.use('/designs', simpleRestRouter('designs', designsResource(s.designs), restAccess.siteScoped));
  return r;
}
