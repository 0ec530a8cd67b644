import { z } from 'zod';
import { fileUrl, optionalFileUrl } from '../pdf';
import { flag } from '../../http/validate';
import { PRODUCT_TYPES, type ProductType } from '../../../../common/design-doc/types';
import { DESIGN_PROOFS } from '../../../../common/api/printProduction';
import { rowId } from '../../http/validate';

export { PRODUCT_TYPES, type ProductType };
export const NEW_DESIGN_NAME = 'Untitled design';

const positiveId = rowId;
const blankToNull = (v: unknown) => (v === '' ? null : v);

/** Optional text where '' and null mean "none". */
const optionalText = (max: number) =>
  z.preprocess(
    (v) => (typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() || null : v),
    z.string({ error: 'must be text' }).max(max, `is too long (${max} characters at most)`).nullable(),
  ).optional();

export const productType = z.preprocess(blankToNull, z.enum(PRODUCT_TYPES).nullable());

const shortText = (max: number) => z.string({ error: 'must be text' }).trim().max(max, `is too long (${max} characters at most)`);

export const hpAdditionData = z.object({
  attributes: z
    .array(z.object({ name: shortText(100).min(1, 'is required'), value: z.string({ error: 'must be text' }).max(500, 'is too long (500 characters at most)') }))
    .max(100, 'has too many items (100 at most)')
    .default([]),
  stockItems: z
    .array(
      z.object({
        code: shortText(100).min(1, 'is required'),
        name: shortText(200).default(''),
        quantity: z.number({ error: 'must be a whole number' }).int('must be a whole number').min(0, 'must be 0 or more').max(1_000_000, 'is too large'),
      }),
    )
    .max(100, 'has too many items (100 at most)')
    .default([]),
  /** The Site Flow product's own component code (e.g. `Card`); empty means `Content`. */
  componentCode: z.preprocess(blankToNull, shortText(100).nullable()).optional(),
});

export type HpAdditionData = z.infer<typeof hpAdditionData>;

/** data: the editor's document and the artwork pages; importOriginalData is read-only (set by import-from-json). */
export const designData = z
  .object({
    artworkUrls: z.array(fileUrl).max(20, 'has too many pages (20 at most)').optional(),
    // The buyer's proof for this design's lines over the site's PROOF_REQUIRED; null: as the site says.
    proof: z.enum(DESIGN_PROOFS, { error: `must be one of ${DESIGN_PROOFS.join(', ')} (or null: as the site says)` }).nullable().optional(),
  })
  .loose();

export const upsertBody = z.object({
  id: z.preprocess((v) => (v === '' || v === null ? undefined : v), positiveId.optional()),
  name: z.string({ error: 'must be text' }).trim().min(1, 'is required').max(200, 'is too long (200 characters at most)').optional(),
  image: optionalFileUrl,
  sku: optionalText(100),
  isCustomizable: flag.optional(),
  productPdf: optionalFileUrl,
  productId: optionalText(100),
  productType: productType.optional(),
  stock: optionalText(100),
  hpSKU: optionalText(100),
  hpAdditionData: z.preprocess((v) => (v === null ? undefined : v), hpAdditionData.optional()),
  data: designData.optional(),
  siteId: z.preprocess((v) => (v === '' || v === null ? undefined : v), positiveId.optional()),
});

export type UpsertInput = z.infer<typeof upsertBody>;

export const listQuery = z.object({
  page: z.coerce.number({ error: 'must be a whole number' }).int('must be a whole number').min(1, 'must be 1 or more').max(100_000).optional(),
  pageSize: z.coerce.number({ error: 'must be a whole number' }).int('must be a whole number').min(1, 'must be 1 or more').max(100, 'must be 100 at most').optional(),
  createdByUserId: z.preprocess((v) => (v === '' ? undefined : v), positiveId.optional()),
});

export type ListQuery = z.infer<typeof listQuery>;

/** import-from-json {json}: the design as JSON, an object or its text. */
export const importBody = z.object({
  json: z.preprocess(
    (v) => {
      if (typeof v !== 'string') return v;
      try {
        return JSON.parse(v);
      } catch {
        return Symbol.for('invalid-json');
      }
    },
    z
      .custom<Record<string, unknown>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), 'must be a JSON object')
      .meta({ override: { type: ['object', 'string'], description: 'A design export: a JSON object, or its text' } }),
  ),
  siteId: z.preprocess((v) => (v === '' || v === null ? undefined : v), positiveId.optional()),
});

export const frontImageBody = z.object({
  imageUrl: fileUrl,
  name: z.string({ error: 'must be text' }).trim().min(1, 'is required').max(200, 'is too long (200 characters at most)').optional(),
  sku: optionalText(100),
  productType: productType.optional(),
  siteId: z.preprocess((v) => (v === '' || v === null ? undefined : v), positiveId.optional()),
});

export type ImportInput = z.infer<typeof importBody>;
export type FrontImageInput = z.infer<typeof frontImageBody>;
