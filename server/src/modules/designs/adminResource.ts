// /api/admin/designs: the react-admin surface of the same service (same permission rules).
import { idsFilter, optionalNumber, optionalString, type RestResource } from '../../http/simpleRest';
import { parse } from '../../http/validate';
import type { Design, DesignSortField } from './repo';
import { PRODUCT_TYPES, upsertBody, type ProductType } from './schema';
import type { DesignsService } from './service';
import { fieldError, oneOf } from '../../http/fieldErrors';

function optionalProductType(value: unknown): ProductType | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (!PRODUCT_TYPES.includes(value as ProductType)) throw fieldError('filter.productType', oneOf(PRODUCT_TYPES));
  return value as ProductType;
}

export function designsResource(designs: DesignsService): RestResource<DesignSortField, Design> {
  return {
    bodies: { create: upsertBody, update: upsertBody },
    sortFields: ['id', 'name', 'sku', 'productType', 'createdAt', 'updatedAt', 'siteId'],
    defaultSort: { field: 'createdAt', order: 'desc' },
    list: (actor, p) =>
      designs.adminList(
        actor,
        {
          ids: idsFilter(p.filter.id),
          q: optionalString(p.filter.q, 'q'),
          createdByUserId: optionalNumber(p.filter.createdByUserId, 'createdByUserId'),
          siteId: optionalNumber(p.filter.siteId, 'siteId'),
          productType: optionalProductType(p.filter.productType),
        },
        p.sort,
        p.limit,
        p.offset,
      ),
    getOne: (actor, id) => designs.get(actor, id),
    create: (actor, body) => designs.upsert(actor, { ...parse(upsertBody, body), id: undefined }),
    update: (actor, id, body) => designs.upsert(actor, { ...parse(upsertBody, body), id }),
    remove: (actor, id) => designs.remove(actor, id),
  };
}
