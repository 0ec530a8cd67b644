// Product designs: a site's designs, changed only by an admin or their creator; a non-admin lists only their own.
import { checkStockUses } from '../stock';
import { isUniqueViolation } from '../../db';
import type { Deps } from '../../deps';
import type { Page } from '../../http/envelope';
import { HttpError, conflict, forbidden, notFound } from '../../http/errors';
import type { Actor } from '../../http/types';
import { isoNow } from '../../lib/clock';
import { pageWindow } from '../../lib/paging';
import { isAdmin } from '../auth';
import type { ArtworkFetcher } from '../pdf';
import type { FileStore } from '../uploads';
import { assertPngOrJpeg, blankA5Png, storeGeneratedFile } from './artworkFiles';
import { designsRepo, type Design, type DesignData, type DesignFilter, type DesignSortField } from './repo';
import { NEW_DESIGN_NAME, type FrontImageInput, type ImportInput, type ListQuery, type UpsertInput } from './schema';
import { findSite, siteExists } from '../sites';
import { fieldError } from '../../http/fieldErrors';
import { isEcard } from '../../../../common/design-doc/types';
import type { PpiThresholds } from '../../../../common/design-doc/resolution';
import { ppiThresholdsOf } from '../../../../common/api/preflight';
import { envValue } from '../../lib/secrets';

export const CHANGE_DENIED = "Only an admin or the design's creator can change this design";
export const DELETE_DENIED = "Only an admin or the design's creator can delete this design";
const SKU_TAKEN = 'Another design of this site already uses this SKU.';
const DESIGN_NOT_FOUND = 'Design not found';

/** The pure rule of spec §6: only an admin or the design's creator may save or delete it. */
export const canChangeDesign = (actor: Actor, design: Pick<Design, 'createdByUserId'>) => isAdmin(actor) || (design.createdByUserId !== null && design.createdByUserId === actor.id);

/** What a user may set in data: importOriginalData is kept as imported (read-only). */
function editableData(data: DesignData | undefined): DesignData {
  if (!data) return {};
  const { importOriginalData: _ignored, ...rest } = data;
  return rest;
}

/** What designs asks of print jobs, given at assembly (print jobs sit above designs). */
export interface DesignsPorts {
  /** How many jobs of a design are not printed yet: such a design may not be deleted. */
  unprintedJobsOf(designId: number): Promise<number>;
}

export function designsService(deps: Deps, store: FileStore, fetchArtwork: ArtworkFetcher, ports: DesignsPorts) {
  const { db, clock } = deps;
  const repo = designsRepo(db);

  async function get(actor: Actor, id: number): Promise<Design> {
    const design = await repo.byId(id);
    if (!design || (!isAdmin(actor) && design.siteId !== actor.siteId)) throw notFound(DESIGN_NOT_FOUND);
    return design;
  }

  /** GET /api/designs/:id: the design and its site's resolution rule (the editor warns live by it). */
  async function view(actor: Actor, id: number): Promise<Design & { ppiThresholds: PpiThresholds }> {
    const design = await get(actor, id);
    const site = await findSite(db, design.siteId);
    return { ...design, ppiThresholds: ppiThresholdsOf((key) => envValue(site?.settings.env ?? [], key)) };
  }

  /** Admin: every design, or one creator's. Non-admin: their own designs only. */
  async function list(actor: Actor, q: ListQuery): Promise<Page<Design>> {
    const w = pageWindow(q.page, q.pageSize);
    const filter: DesignFilter = isAdmin(actor) ? { createdByUserId: q.createdByUserId } : { createdByUserId: actor.id, siteId: actor.siteId };
    const { rows, total } = await repo.list(filter, { field: 'createdAt', order: 'desc' }, w.limit, w.offset);
    return { list: rows, hasNext: w.offset + rows.length < total, total };
  }

  async function adminList(actor: Actor, filter: DesignFilter, sort: { field: DesignSortField; order: 'asc' | 'desc' }, limit: number, offset: number) {
    const scoped = isAdmin(actor) ? filter : { ...filter, createdByUserId: actor.id, siteId: actor.siteId };
    return repo.list(scoped, sort, limit, offset);
  }

  async function targetSite(actor: Actor, siteId: number | undefined): Promise<number> {
    const id = siteId ?? actor.siteId;
    if (id !== actor.siteId && !isAdmin(actor)) throw forbidden('You cannot create designs for another site');
    if (!(await siteExists(db, id))) throw fieldError('siteId', 'does not exist');
    return id;
  }

  async function assertSkuFree(siteId: number, sku: string | null | undefined, exceptId?: number) {
    if (!sku) return;
    const other = await repo.bySku(siteId, sku);
    if (other && other.id !== exceptId) throw fieldError('sku', SKU_TAKEN, 409);
  }

  async function insert(actor: Actor, siteId: number, input: Omit<UpsertInput, 'id' | 'siteId'>, data: DesignData): Promise<Design> {
    await assertSkuFree(siteId, input.sku);
    const now = isoNow(clock);
    try {
      const id = await repo.insert({
        name: input.name ?? NEW_DESIGN_NAME,
        image: input.image ?? null,
        sku: input.sku ?? null,
        isCustomizable: input.isCustomizable ?? true,
        productPdf: input.productPdf ?? null,
        createdByUserId: actor.id,
        productId: input.productId ?? null,
        productType: input.productType ?? null,
        stock: input.stock ?? null,
        hpSKU: input.hpSKU ?? null,
        hpAdditionData: input.hpAdditionData ?? { attributes: [], stockItems: [] },
        data,
        siteId,
        createdAt: now,
        updatedAt: now,
      });
      return (await repo.byId(id))!;
    } catch (err) {
      if (isUniqueViolation(err)) throw fieldError('sku', SKU_TAKEN, 409);
      throw err;
    }
  }

  /** `consumes` (the stock one unit takes) checked: each item the design's site's own or shared. */
  async function withCheckedConsumes(siteId: number, data: DesignData): Promise<DesignData> {
    if (data.consumes === undefined) return data;
    return { ...data, consumes: await checkStockUses(db, siteId, data.consumes) };
  }

  /** POST /api/designs: create (no id; "Untitled design", customizable) or change (admin or creator). */
  async function upsert(actor: Actor, input: UpsertInput): Promise<Design> {
    if (!input.id) {
      const site = await targetSite(actor, input.siteId);
      return insert(actor, site, input, await withCheckedConsumes(site, editableData(input.data)));
    }
    const design = await get(actor, input.id);
    if (!canChangeDesign(actor, design)) throw forbidden(CHANGE_DENIED);
    const siteId = input.siteId ?? design.siteId;
    if (siteId !== design.siteId) {
      if (!isAdmin(actor)) throw forbidden('You cannot move a design to another site');
      if (!(await siteExists(db, siteId))) throw fieldError('siteId', 'does not exist');
    }
    const sku = input.sku === undefined ? design.sku : input.sku;
    await assertSkuFree(siteId, sku, design.id);
    try {
      await repo.update(design.id, {
        name: input.name,
        image: input.image,
        sku: input.sku,
        isCustomizable: input.isCustomizable,
        productPdf: input.productPdf,
        productId: input.productId,
        productType: input.productType,
        stock: input.stock,
        hpSKU: input.hpSKU,
        hpAdditionData: input.hpAdditionData,
        // The Design Info form and the editor each send their part: data keys not sent are kept.
        data: input.data ? { ...design.data, ...(await withCheckedConsumes(siteId, editableData(input.data))) } : undefined,
        siteId: siteId !== design.siteId ? siteId : undefined,
        updatedAt: isoNow(clock),
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw fieldError('sku', SKU_TAKEN, 409);
      throw err;
    }
    return (await repo.byId(design.id))!;
  }

  async function remove(actor: Actor, id: number): Promise<Design> {
    const design = await get(actor, id);
    if (!canChangeDesign(actor, design)) throw forbidden(DELETE_DENIED);
    const inQueue = await ports.unprintedJobsOf(id);
    if (inQueue) throw conflict(`This design is used by ${inQueue} print ${inQueue === 1 ? 'job that is' : 'jobs that are'} not printed yet`);
    await repo.delete(id);
    return design;
  }

  /** A design from an exported JSON: kept whole in data.importOriginalData; its name and SKU are used when present. */
  async function importFromJson(actor: Actor, input: ImportInput): Promise<Design> {
    const json = input.json;
    const name = typeof json.name === 'string' && json.name.trim() ? json.name.trim().slice(0, 200) : NEW_DESIGN_NAME;
    const rawSku = typeof json.sku === 'string' || typeof json.sku === 'number' ? String(json.sku).trim() : '';
    if (rawSku.length > 100) throw fieldError('json.sku', 'must be at most 100 characters');
    return insert(actor, await targetSite(actor, input.siteId), { name, sku: rawSku || null }, { importOriginalData: json });
  }

  /** A card design whose front page is the given image; inside and back pages are blank white A5. */
  async function createWithFrontImage(actor: Actor, input: FrontImageInput, ownOrigin?: string): Promise<Design> {
    const siteId = await targetSite(actor, input.siteId);
    await assertSkuFree(siteId, input.sku);
    let front: Buffer;
    try {
      front = await fetchArtwork(input.imageUrl, { ownOrigin });
    } catch (err) {
      if (err instanceof HttpError && err.status === 400) throw fieldError('imageUrl', `cannot be used: ${err.message}`);
      throw err;
    }
    await assertPngOrJpeg(front, 'imageUrl');
    const design = { name: input.name, sku: input.sku, productType: input.productType, image: input.imageUrl };
    // An e-card is its front alone: no blank print pages.
    if (isEcard(input.productType)) return insert(actor, siteId, design, { artworkUrls: [input.imageUrl] });
    const blank = await storeGeneratedFile(deps, store, { userId: actor.id, siteId }, 'designs/blank-a5.png', 'image/png', await blankA5Png());
    return insert(actor, siteId, design, { artworkUrls: [input.imageUrl, blank, blank, blank] });
  }

  /** data.data: every SKU with its product type (a non-admin: their site's). */
  async function allWithProductType(actor: Actor) {
    return { data: await repo.skusWithProductType(isAdmin(actor) ? undefined : actor.siteId) };
  }

  return { get, view, list, adminList, upsert, remove, importFromJson, createWithFrontImage, allWithProductType, repo };
}

export type DesignsService = ReturnType<typeof designsService>;
