// The spec's generic data records (production notes, order logs, provider events, sync logs and
// configs…): scoped to a site, readable and writable per publicPermission.
import type { Deps } from '../../deps';
import { conflict, forbidden, notFound } from '../../http/errors';
import type { Actor } from '../../http/types';
import { isoNow } from '../../lib/clock';
import { pageWindow } from '../../lib/paging';
import { DEFAULT_PERMISSION, canOnRecord, isAdmin, type Permission } from '../auth';
import { generalDataRepo, type DataRecord, type RecordFilter, type RecordSortField } from './repo';
import type { ListQuery, UpsertRecord } from './schema';
import { DuplicateOrderError, refuseHandMove } from '../orders';
import { RECORD_TYPES, SYSTEM_TYPES } from '../records';
import { PRODUCTION_NOTE_MAX } from '../../../../common/api/printProduction';
import { siteExists } from '../sites';
import { fieldError } from '../../http/fieldErrors';
import type { OrderRecord } from '../orders';
import { waitingOfOrders } from '../waiting';

export { SYSTEM_TYPES };

/** Statuses a list leaves out unless asked for: orders without line items (nothing to print) are hidden (spec §2). */
// A Map, not an object: a type named like an Object.prototype key (`constructor`) must find nothing.
export const HIDDEN_STATUSES: ReadonlyMap<string, string[]> = new Map([[RECORD_TYPES.order, ['no-lines']]]);

/** The orders table holds one order per (site, store order id): a hand-made copy is refused, not stored twice. */
const duplicateOrder = (err: unknown) =>
  err instanceof DuplicateOrderError
    ? conflict(
        `This site already has an order with this store order id (field1)${err.existingId ? `: record ${err.existingId}` : ''}. Orders are unique per site and store order id; update that record (send its id) instead of creating another`,
      )
    : err;

/** Ship-by dates on listed orders' lines: ship-by's views, given at assembly (they read orders). */
export interface RecordsShipBy {
  onOrders(orders: OrderRecord[]): Promise<OrderRecord[]>;
}

export function generalDataService(deps: Deps, { shipBy }: { shipBy: RecordsShipBy }) {
  const { db, clock } = deps;
  const repo = generalDataRepo(db);
  // List Orders: each line carries its ship-by. Only in lists: a record read to be edited and saved back must not store it.
  // And each order says what it still waits for (change window, buyer's proof), in the shop's time.
  const withShipBy = async (type: string, rows: DataRecord[]): Promise<DataRecord[]> => {
    if (type !== RECORD_TYPES.order) return rows;
    const orders = await shipBy.onOrders(rows as OrderRecord[]);
    const waits = await waitingOfOrders(db, orders.filter((o) => o.field1).map((o) => ({ siteId: o.siteId, orderId: o.field1! })), deps.config.sync.timezone);
    if (!waits.size) return orders;
    return orders.map((o) => {
      const waiting = waits.get(`${o.siteId}\n${o.field1}`);
      return waiting ? { ...o, data: { ...o.data, waiting } } : o;
    });
  };

  function check(actor: Actor, record: DataRecord | undefined, action: 'read' | 'update' | 'delete'): DataRecord {
    if (!record) throw notFound('Record not found');
    const verdict = canOnRecord(actor, record, action);
    if (verdict === 'not-found') throw notFound('Record not found');
    if (verdict === 'forbidden') throw forbidden(`You may not ${action} this record`);
    return record;
  }

  async function get(actor: Actor, type: string, id: number) {
    const record = await repo.byId(id);
    return check(actor, record && record.type === type ? record : undefined, 'read');
  }

  /** The spec's list call: one page of a type, newest first, in the caller's site unless allClients (admin). */
  async function list(actor: Actor, type: string, q: ListQuery) {
    if (q.allClients && !isAdmin(actor)) throw forbidden('Only an admin can list all clients');
    const w = pageWindow(q.page, q.pageSize);
    const filter: RecordFilter = {
      type,
      field1: q.field1,
      field2: q.field2,
      name: q.name,
      // Records Presswork writes itself have no creator: the spec's orders screen sends userId anyway.
      userId: SYSTEM_TYPES.has(type) ? undefined : q.userId,
      status: q.status,
      excludeStatus: q.status === undefined ? (q.excludeStatus ?? HIDDEN_STATUSES.get(type)) : undefined,
      search: q.q,
    };
    if (isAdmin(actor)) {
      if (!q.allClients) filter.siteId = q.siteId ?? actor.siteId;
    } else {
      filter.siteId = actor.siteId;
      filter.readableBy = { userId: actor.id };
    }
    const { rows, total, hasNext, totalIsCapped } = await repo.list(filter, { field: 'createdAt', order: 'desc' }, w.limit, w.offset);
    return { data: await withShipBy(type, rows), hasNext, total, totalIsCapped, page: w.page };
  }

  async function adminList(actor: Actor, filter: RecordFilter, sort: { field: RecordSortField; order: 'asc' | 'desc' }, limit: number, offset: number) {
    const scoped: RecordFilter = isAdmin(actor) ? filter : { ...filter, siteId: actor.siteId, readableBy: { userId: actor.id } };
    return repo.list(scoped, sort, limit, offset);
  }

  /**
   * A site maps a store SKU (a product's field1) to one design: a second product with it is refused
   * (409), whichever route saves it. `field` names the SKU as the caller's input does.
   */
  async function checkProductSku(siteId: number, sku: string | null | undefined, id: number | undefined, field: string): Promise<void> {
    if (!sku) return;
    const { rows } = await repo.list({ type: RECORD_TYPES.product, siteId, field1: sku }, { field: 'id', order: 'asc' }, 2, 0);
    if (rows.some((r) => r.id !== id)) throw fieldError(field, 'This site already maps this SKU.', 409);
  }

  /** Create (no id) or update a record of `type`. `names`: what the caller's input calls field1 (its errors say so). */
  async function upsert(actor: Actor, type: string, input: UpsertRecord, names: { field1?: string } = {}): Promise<DataRecord> {
    if (SYSTEM_TYPES.has(type) && !isAdmin(actor)) throw forbidden(`Records of type ${type} are written by Presswork itself`);
    if (type === RECORD_TYPES.productionNote) checkProductionNote(input.data);
    const skuField = names.field1 ?? 'field1';
    const now = isoNow(clock);
    if (input.id) {
      const existing = await repo.byId(input.id);
      const record = check(actor, existing && existing.type === type ? existing : undefined, 'update');
      const isOwnerOrAdmin = isAdmin(actor) || record.userId === actor.id;
      const permission = input.publicPermission ? { ...record.publicPermission, ...stripUndefined(input.publicPermission) } : undefined;
      // The spec's upsert payload carries publicPermission: sending it back unchanged is not a change.
      const permissionChanges = permission !== undefined && (Object.keys(permission) as Array<keyof Permission>).some((k) => permission[k] !== record.publicPermission[k]);
      if (permissionChanges && !isOwnerOrAdmin) throw forbidden('Only the creator or an admin can change who may use this record');
      if (input.siteId !== undefined && input.siteId !== record.siteId) {
        if (!isAdmin(actor)) throw forbidden('You cannot move a record to another site');
        if (!(await siteExists(db, input.siteId))) throw fieldError('siteId', 'does not exist');
      }
      if (type === RECORD_TYPES.product) await checkProductSku((isAdmin(actor) ? input.siteId : undefined) ?? record.siteId, input.field1 ?? record.field1, record.id, skuField);
      // An order's status moves only through orders' table of moves (orders/orderState.ts).
      if (type === RECORD_TYPES.order) refuseHandMove(record.status, input.data);
      await repo
        .update(record.id, {
          field1: input.field1,
          field2: input.field2,
          name: input.name,
          data: input.data,
          siteId: isAdmin(actor) ? input.siteId : undefined,
          publicPermission: permission,
          updatedAt: now,
        })
        .catch((err: unknown) => {
          throw duplicateOrder(err);
        });
      return (await repo.byId(record.id))!;
    }
    const siteId = input.siteId ?? actor.siteId;
    if (siteId !== actor.siteId && !isAdmin(actor)) throw forbidden('You cannot create records for another site');
    if (!(await siteExists(db, siteId))) throw fieldError('siteId', 'does not exist');
    if (type === RECORD_TYPES.order && !input.field1) throw fieldError('field1', 'An order needs its store order ID.');
    if (type === RECORD_TYPES.product) await checkProductSku(siteId, input.field1, undefined, skuField);
    const id = await repo
      .insert({
      type,
      field1: input.field1 ?? null,
      field2: input.field2 ?? null,
      name: input.name ?? null,
      data: input.data ?? {},
      siteId,
      userId: actor.id,
      publicPermission: { ...DEFAULT_PERMISSION, ...stripUndefined(input.publicPermission ?? {}) },
      createdAt: now,
      updatedAt: now,
    })
      .catch((err: unknown) => {
        throw duplicateOrder(err);
      });
    return (await repo.byId(id))!;
  }

  async function remove(actor: Actor, id: number): Promise<DataRecord> {
    const record = check(actor, await repo.byId(id), 'delete');
    if (SYSTEM_TYPES.has(record.type) && !isAdmin(actor)) throw forbidden(`Records of type ${record.type} are kept by Presswork itself`);
    await repo.delete(id);
    return record;
  }

  return { get, list, adminList, upsert, remove, repo };
}

/** A production note is text of PRODUCTION_NOTE_MAX characters at most (the admin counts down to it). */
function checkProductionNote(data: Record<string, unknown> | undefined): void {
  const note = data?.note;
  if (note === undefined || note === null) return;
  if (typeof note !== 'string') throw fieldError('data.note', 'must be text');
  if (note.length > PRODUCTION_NOTE_MAX) throw fieldError('data.note', `must be at most ${PRODUCTION_NOTE_MAX} characters`);
}

function stripUndefined(p: Partial<Permission>): Partial<Permission> {
  return Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined));
}

export type GeneralDataService = ReturnType<typeof generalDataService>;
