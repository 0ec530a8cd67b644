import { z } from 'zod';
import { PRINT_JOB_SORTS, PRODUCT_TYPES } from '../../../../common/api/printProduction';
import { fileUrl, isFileUrl, optionalFileUrl } from '../pdf';
import { day, flag, rowId } from '../../http/validate';
import { BULK_ACTIONS, BULK_LIMIT } from '../../../../common/api/bulk';
import { REPRINT_NOTE_MAX, REPRINT_REASONS, REPRINT_RESPONSIBLES } from '../../../../common/api/reprints';
import { PRINT_FORMATS } from '../../../../common/design-doc/printSize';


/** Query-string boolean. */
export const queryFlag = z.enum(['0', '1', 'true', 'false'], { error: 'must be 0 or 1' }).transform((v) => v === '1' || v === 'true');


/** A store's id: given as text or a number, kept as text. */
export const externalId = z
  .union([z.string(), z.number()], { error: 'must be text or a number' })
  .transform((v) => String(v).trim())
  .pipe(z.string().min(1, 'must not be empty').max(64, 'is too long (64 characters at most)'));

const optionalExternalId = z.preprocess((v) => (v === '' || v === null ? undefined : v), externalId.optional());

const positiveId = rowId;

export const jobData = z
  .object({
    pregeneratedPDF: optionalFileUrl,
    product: z
      .object({ physicalWidth: z.number().positive().optional(), physicalHeight: z.number().positive().optional() })
      .loose()
      .optional(),
    storeProductId: z.union([z.string().max(64), z.number()]).optional(),
    /** What the job prints as; taken from its design when it has one. */
    format: z.enum(PRINT_FORMATS, { error: `must be one of ${PRINT_FORMATS.join(', ')}` }).optional(),
  })
  .loose();

export const createBody = z.object({
  clientId: z.preprocess((v) => (v === '' || v === null ? undefined : v), positiveId.optional()),
  artworkUrls: z.array(fileUrl).max(20, 'has too many pages (20 at most)').optional(),
  previewUrl: optionalFileUrl,
  productId: optionalExternalId,
  productName: z.string().trim().min(1, 'is required').max(255, 'is too long (255 characters at most)').optional(),
  designId: z.preprocess((v) => (v === '' ? null : v), positiveId.nullable()).optional(),
  quantity: z.coerce.number({ error: 'must be a whole number' }).int('must be a whole number').min(1, 'must be at least 1').max(10_000, 'must be at most 10000').default(1),
  flags: z.object({ readyForPrint: flag.optional() }).optional(),
  shopifyOrderId: optionalExternalId,
  lineItemId: optionalExternalId,
  data: jobData.optional(),
});

const missing = (input: unknown) => input === undefined || input === null || input === '';
const reprintReason = z.enum(REPRINT_REASONS, {
  error: (iss) => `${missing(iss.input) ? 'is required: one' : 'must be one'} of ${REPRINT_REASONS.join(', ')}`,
});
const reprintResponsible = z.enum(REPRINT_RESPONSIBLES, {
  error: (iss) => `${missing(iss.input) ? 'is required: one' : 'must be one'} of ${REPRINT_RESPONSIBLES.join(', ')}`,
});
const reprintNote = z.preprocess(
  (v) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v),
  z.string({ error: 'must be text' }).trim().max(REPRINT_NOTE_MAX, `must be at most ${REPRINT_NOTE_MAX} characters`).optional(),
);

/** What a reprint carries beside its flags, optional here: `reprintWhy` decides when the call reprints. */
const reprintFields = { reprintReason: reprintReason.optional(), reprintResponsible: reprintResponsible.optional(), reprintNote };

/**
 * Why a job is reprinted and whose fault it was; `other` says what happened. The service checks it
 * for every caller (one job, bulk, the demo seed), so no reprint is recorded without one.
 */
export const reprintWhy = z
  .object({ reprintReason, reprintResponsible, reprintNote })
  .superRefine((v, ctx) => {
    if (v.reprintReason === 'other' && !v.reprintNote) ctx.addIssue({ code: 'custom', path: ['reprintNote'], message: 'is required when reprintReason is other: say what happened' });
  });

export const changeBody = z
  .object({
    id: positiveId,
    isPrinted: flag.optional(),
    isPDFDownloaded: flag.optional(),
    isRePrinted: flag.optional(),
    /** The operator's yes to printing here an item the provider makes. */
    printInHouse: flag.optional(),
    ...reprintFields,
  });

export const listQuery = z.object({
  page: z.coerce.number({ error: 'must be a whole number' }).int('must be a whole number').min(1, 'must be 1 or more').max(100_000).optional(),
  pageSize: z.coerce.number({ error: 'must be a whole number' }).int('must be a whole number').min(1, 'must be 1 or more').max(100, 'must be 100 at most').optional(),
  isPrinted: queryFlag.optional(),
  readyForPrint: queryFlag.optional(),
  /** 1: the jobs held by preflight (not printed, not withdrawn); 0: those not held. */
  held: queryFlag.optional(),
  clientId: positiveId.optional(),
  sort: z.enum(PRINT_JOB_SORTS, { error: `must be one of ${PRINT_JOB_SORTS.join(', ')}` }).optional(),
  order: z.enum(['asc', 'desc'], { error: 'must be asc or desc' }).optional(),
  productType: z.enum(PRODUCT_TYPES, { error: `must be one of ${PRODUCT_TYPES.join(', ')}` }).optional(),
});


export const reportsQuery = z
  .object({ from: day.optional(), to: day.optional(), clientId: positiveId.optional() })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'must not be after To', path: ['from'] });

export const orderIdParam = z.string().trim().min(1, 'is required').max(64, 'is too long (64 characters at most)');

/** Pages given with the PDF call may also be inline PNG/JPEG data URLs (they are not stored). */
const pageImage = z
  .string({ error: 'must be a URL' })
  .trim()
  .refine((v) => (isFileUrl(v) && v.length <= 2048) || /^data:image\/(png|jpe?g);base64,/i.test(v), 'must be an http(s) URL, an uploaded /files/… address or a PNG/JPEG data URL');

export const pdfBody = z.object({
  id: positiveId,
  printInHouse: flag.optional(),
  /** `jobs`: the Jobs queue's download, refused (409) once the job is printed. Else Print History's (and any other). */
  from: z.enum(['jobs', 'history'], { error: 'must be jobs or history' }).optional(),
  images: z.array(pageImage).max(20, 'has too many pages (20 at most)').optional(),
});

export type CreateInput = z.infer<typeof createBody>;
export type ChangeInput = z.infer<typeof changeBody>;
export type ListQuery = z.infer<typeof listQuery>;
export type ReportsQuery = z.infer<typeof reportsQuery>;

const bulkIds = z
  .array(rowId, { error: 'must be a list of print job ids' })
  .min(1, 'must name at least one print job')
  .max(BULK_LIMIT, `has too many print jobs (${BULK_LIMIT} at most in one go)`);

export const bulkBody = z
  .object({
    ids: bulkIds,
    action: z.enum(BULK_ACTIONS, { error: `must be one of ${BULK_ACTIONS.join(', ')}` }),
    ...reprintFields,
  });

export const bulkPdfBody = z.object({
  ids: bulkIds,
  /** As the single PDF call: `jobs` marks each job downloaded and refuses printed ones; `history` does neither. */
  from: z.enum(['jobs', 'history'], { error: 'must be jobs or history' }).optional(),
});

export type BulkInput = z.infer<typeof bulkBody>;
export type ReprintWhyInput = z.infer<typeof reprintWhy>;
