// /api/admin/{stores,products,resellers,instances,orders}: the react-admin surface of the orders
// module's stores and records. Stores are admin only; the others are general-data records, site-scoped for non-admins.
import { Router, type Request } from 'express';
import type { Config } from '../../config';
import { notFound } from '../../http/errors';
import { idsFilter, optionalNumber, optionalString, restAccess, simpleRestRouter, type RestResource } from '../../http/simpleRest';
import type { Actor } from '../../http/types';
import { parse } from '../../http/validate';
import { isAdmin } from '../auth';
import { findDesign } from '../designs';
import type { DataRecord, RecordSortField } from '../general-data';
import { upsertBody as recordBody } from '../general-data';
import { RECORD_TYPES } from '../records';
import type { GeneralDataService } from '../general-data';
import { baseUrlOf } from '../../http/baseUrl';
import { PRODUCT_TYPE, productDesignId } from '../production';
import { productBody, storeBody, type Store, type StoreSortField, type StoresService } from '../orders';
import type { Db } from '../../db';
import { fieldError } from '../../http/fieldErrors';

const RECORD_SORT: RecordSortField[] = ['id', 'createdAt', 'updatedAt', 'type', 'name', 'field1', 'field2', 'siteId'];

/** The webhook URL a store is given names this server: PUBLIC_URL, else the address it was called on. */
function storesResource(stores: StoresService, config: Config): RestResource<StoreSortField, Store> {
  const base = (req: Request) => baseUrlOf(req, config);
  return {
    bodies: { update: storeBody },
    sortFields: ['id', 'siteName'],
    defaultSort: { field: 'id', order: 'asc' },
    list: (actor, p, req) => stores.list(actor, { ids: idsFilter(p.filter.id), q: optionalString(p.filter.q, 'q') }, p.sort, p.limit, p.offset, base(req)),
    getOne: (actor, id, req) => stores.get(actor, id, base(req)),
    update: (actor, id, body, req) => stores.update(actor, id, parse(storeBody, body), base(req)),
    remove: (actor, id, req) => stores.remove(actor, id, base(req)),
  };
}

/** A store SKU → design mapping, as the products screens show it. */
export interface Product {
  id: number;
  storeSku: string;
  designId: number | null;
  productName: string | null;
  productType: string | null;
  storeProductId: string | null;
  siteId: number;
  createdAt: string;
  updatedAt: string;
}

export const productOf = (r: DataRecord): Product => ({
  id: r.id,
  storeSku: r.field1 ?? '',
  designId: productDesignId(r) ?? null,
  productName: r.name,
  productType: typeof r.data.productType === 'string' ? r.data.productType : null,
  storeProductId: typeof r.data.storeProductId === 'string' ? r.data.storeProductId : null,
  siteId: r.siteId,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

function productsResource(records: GeneralDataService, db: Db): RestResource<RecordSortField, Product> {
  const getRecord = async (actor: Actor, id: number) => records.get(actor, PRODUCT_TYPE, id);
  async function save(actor: Actor, body: unknown, id?: number): Promise<Product> {
    const input = parse(productBody, body);
    const existing = id ? await getRecord(actor, id) : undefined;
    const siteId = input.siteId ?? existing?.siteId ?? actor.siteId;
    const design = await findDesign(db, input.designId);
    // A design of another site is as unknown as a missing one.
    if (!design || design.siteId !== siteId || (!isAdmin(actor) && design.siteId !== actor.siteId)) throw fieldError('designId', "is not one of this site's designs");
    // One SKU per site: the records service holds it for every route that saves a product.
    const record = await records.upsert(
      actor,
      PRODUCT_TYPE,
      {
        id,
        field1: input.storeSku,
        field2: String(design.id),
        name: input.productName ?? design.name,
        data: { designId: design.id, productType: input.productType === undefined ? design.productType : input.productType, storeProductId: input.storeProductId ?? null },
        siteId,
      },
      { field1: 'storeSku' },
    );
    return productOf(record);
  }
  return {
    bodies: { create: productBody, update: productBody },
    sortFields: RECORD_SORT,
    defaultSort: { field: 'id', order: 'desc' },
    list: async (actor, p) => {
      const { rows, total } = await records.adminList(
        actor,
        {
          type: PRODUCT_TYPE,
          ids: idsFilter(p.filter.id),
          field1: optionalString(p.filter.storeSku, 'storeSku'),
          field2: optionalNumber(p.filter.designId, 'designId')?.toString(),
          siteId: optionalNumber(p.filter.siteId, 'siteId'),
        },
        p.sort,
        p.limit,
        p.offset,
      );
      return { rows: rows.map(productOf), total };
    },
    getOne: async (actor, id) => productOf(await getRecord(actor, id)),
    create: (actor, body) => save(actor, body),
    update: (actor, id, body) => save(actor, body, id),
    remove: async (actor, id) => {
      await getRecord(actor, id);
      return productOf(await records.remove(actor, id));
    },
  };
}

/** Resellers and instances: plain general-data records of one type (field1 code, name, free-form data). */
function plainRecordsResource(records: GeneralDataService, type: string): RestResource<RecordSortField, DataRecord> {
  return {
    bodies: { create: recordBody, update: recordBody },
    sortFields: RECORD_SORT,
    defaultSort: { field: 'id', order: 'desc' },
    list: (actor, p) =>
      records.adminList(
        actor,
        {
          type,
          ids: idsFilter(p.filter.id),
          field1: optionalString(p.filter.field1, 'field1'),
          name: optionalString(p.filter.name, 'name'),
          siteId: optionalNumber(p.filter.siteId, 'siteId'),
        },
        p.sort,
        p.limit,
        p.offset,
      ),
    getOne: (actor, id) => records.get(actor, type, id),
    create: (actor, body) => records.upsert(actor, type, { ...parse(recordBody, body), id: undefined }),
    update: (actor, id, body) => records.upsert(actor, type, { ...parse(recordBody, body), id }),
    remove: async (actor, id) => {
      await records.get(actor, type, id);
      return records.remove(actor, id);
    },
  };
}

/** Orders (shopify-order-log records): read only here; filter q (order name, number, customer, email), status, siteId. */
function ordersResource(records: GeneralDataService): RestResource<RecordSortField, DataRecord> {
  return {
    sortFields: RECORD_SORT,
    defaultSort: { field: 'createdAt', order: 'desc' },
    list: (actor, p) =>
      records.adminList(
        actor,
        {
          type: RECORD_TYPES.order,
          ids: idsFilter(p.filter.id),
          field1: optionalString(p.filter.orderId, 'orderId'),
          status: optionalString(p.filter.status, 'status'),
          search: optionalString(p.filter.q, 'q'),
          siteId: optionalNumber(p.filter.siteId, 'siteId'),
        },
        p.sort,
        p.limit,
        p.offset,
      ),
    getOne: async (actor, id) => {
      const record = await records.get(actor, RECORD_TYPES.order, id).catch(() => undefined);
      if (!record) throw notFound('Order not found');
      return record;
    },
  };
}

export function ordersAdminRoutes(s: { stores: StoresService; generalData: GeneralDataService }, db: Db, config: Config): Router {
  const r = Router();
  // Stores hold a site's secrets: admins only. The rest are site data, scoped by the services.
  r.use('/stores', simpleRestRouter('stores', storesResource(s.stores, config), restAccess.admin));
  r.use('/products', simpleRestRouter('products', productsResource(s.generalData, db), restAccess.siteScoped));
  r.use('/resellers', simpleRestRouter('resellers', plainRecordsResource(s.generalData, RECORD_TYPES.reseller), restAccess.siteScoped));
  r.use('/instances', simpleRestRouter('instances', plainRecordsResource(s.generalData, RECORD_TYPES.instance), restAccess.siteScoped));
  r.use('/orders', simpleRestRouter('orders', ordersResource(s.generalData), restAccess.siteScoped));
  return r;
}
