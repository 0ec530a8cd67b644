// What the stock calls accept: an item's fields, a delivery or a stock-take, a list's query.
import { z } from 'zod';
import { rowId } from '../../http/validate';

const wholeNumber = (max = 10_000_000) => z.coerce.number({ error: 'must be a whole number' }).int('must be a whole number').min(0, 'must be 0 or more').max(max, 'is too large');
const text = (max: number) => z.string({ error: 'must be text' }).trim().max(max, `is too long (${max} characters at most)`);
const note = z.preprocess((v) => (v === null ? undefined : v), text(2000).optional());

/** POST /api/stock-items: a new item (no id) or an item's fields (with id); on hand changes only by Receive and Count. */
export const itemBody = z.object({
  id: z.preprocess((v) => (v === '' || v === null ? undefined : v), rowId.optional()),
  // null (or absent, for an admin): shared by every site.
  siteId: z.preprocess((v) => (v === '' ? null : v), rowId.nullable().optional()),
  name: text(200).min(1, 'is required').optional(),
  unit: text(40).min(1, 'is required').optional(),
  onHand: wholeNumber().optional(),
  reorderPoint: wholeNumber().optional(),
  reorderQuantity: wholeNumber().optional(),
  supplierNote: z.preprocess((v) => (v === '' ? null : v), text(2000).nullable().optional()),
});
export type ItemInput = z.infer<typeof itemBody>;

/** POST /api/stock-items/:id/receive: a delivery of `quantity` (at least 1). */
export const receiveBody = z.object({ quantity: wholeNumber().min(1, 'must be at least 1'), note });
/** POST /api/stock-items/:id/count: a stock-take found `quantity`. */
export const countBody = z.object({ quantity: wholeNumber(), note });

const SORTS = ['id', 'name', 'onHand', 'available', 'reorderPoint'] as const;

export const listQuery = z.object({
  page: z.coerce.number({ error: 'must be a whole number' }).int('must be a whole number').min(1, 'must be 1 or more').optional(),
  pageSize: z.coerce.number({ error: 'must be a whole number' }).int('must be a whole number').min(1, 'must be 1 or more').max(500, 'is too large (500 at most)').optional(),
  /** An admin: one site's items and the shared ones. */
  clientId: rowId.optional(),
  /** 1: only the shared items; 0: only the sites' own. */
  shared: z.enum(['0', '1'], { error: 'must be 0 or 1' }).optional(),
  q: text(200).optional(),
  sort: z.enum(SORTS, { error: `must be one of ${SORTS.join(', ')}` }).optional(),
  order: z.enum(['asc', 'desc', 'ASC', 'DESC'], { error: 'must be asc or desc' }).optional(),
});
export type ListQuery = z.infer<typeof listQuery>;

/** GET /api/stock-items/low: an admin may ask for one site's (and the shared); at most `limit` items. */
export const lowQuery = z.object({
  clientId: rowId.optional(),
  limit: z.coerce.number({ error: 'must be a whole number' }).int('must be a whole number').min(1, 'must be 1 or more').max(100, 'is too large (100 at most)').optional(),
});

export const movementsQuery = z.object({
  page: z.coerce.number({ error: 'must be a whole number' }).int('must be a whole number').min(1, 'must be 1 or more').optional(),
  pageSize: z.coerce.number({ error: 'must be a whole number' }).int('must be a whole number').min(1, 'must be 1 or more').max(500, 'is too large (500 at most)').optional(),
  format: z.enum(['json', 'csv'], { error: 'must be json or csv' }).optional(),
});

/** A design's `data.consumes`: what one unit made takes off the shelf. */
export const consumesSchema = z
  .array(
    z.object({
      stockItemId: rowId,
      perUnit: z.coerce.number({ error: 'must be a number' }).positive('must be more than 0').max(10_000, 'is too large'),
    }),
    { error: 'must be a list of {stockItemId, perUnit}' },
  )
  .max(50, 'has too many items (50 at most)');
