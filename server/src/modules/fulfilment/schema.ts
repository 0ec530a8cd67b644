import { z } from 'zod';
import { flag } from '../print-jobs/schema';
import { rowId } from '../../http/validate';

/** A store id: text or a number, kept as text. */
const ref = z
  .union([z.string(), z.number()], { error: 'must be text or a number' })
  .transform((v) => String(v).trim())
  .pipe(z.string().min(1, 'is required').max(64, 'is too long (64 characters at most)'));

const optionalSiteId = z.preprocess((v) => (v === '' || v === null ? undefined : v), rowId.optional());

/** `sendFromJobs`: the operator's yes to sending lines that are in the Jobs queue (asked after a 409). */
export const sendHpBody = z
  .object({ id: ref.optional(), orderId: ref.optional(), siteId: optionalSiteId, sendFromJobs: flag.optional(), sendUnpaid: flag.optional() })
  .refine((b) => b.id !== undefined || b.orderId !== undefined, { message: 'is required', path: ['orderId'] });

export const sendLineBody = z.object({ orderId: ref, lineId: ref, siteId: optionalSiteId, sendFromJobs: flag.optional(), sendUnpaid: flag.optional() });

/** The manual form: free text everywhere (spec §5), quantity made a number. */
const free = z
  .union([z.string(), z.number(), z.null()])
  .optional()
  .transform((v) => (v === null || v === undefined ? '' : String(v)));

export const manualBody = z.object({
  orderData: z.object({ sourceOrderId: free, customerName: free }).loose().default({ sourceOrderId: '', customerName: '' }),
  items: z
    .array(
      z
        .object({
          pdfUrl: free,
          sku: free,
          quantity: z
            .union([z.string(), z.number(), z.null()])
            .optional()
            .transform((v) => Number(v ?? 0)),
          sourceItemId: free,
        })
        .loose(),
    )
    .max(500)
    .default([]),
  shipTo: z
    .object({ name: free, address1: free, address2: free, town: free, isoCountry: free, postcode: free })
    .loose()
    .default({ name: '', address1: '', address2: '', town: '', isoCountry: '', postcode: '' }),
  siteId: optionalSiteId,
});

const textish = z.union([z.string(), z.number()]).transform((v) => String(v));

const firstText = (...vs: unknown[]) => vs.map((v) => (typeof v === 'string' || typeof v === 'number' ? String(v).trim() : '')).find(Boolean) ?? '';

/**
 * Site Flow's own order object, as a trigger template of `{{{prettyJson this}}}` posts it, read as
 * our postback: its sourceOrderId, _id, status and the first shipment with tracking. Our own
 * template's body (it has a top-level sourceOrderId) passes unchanged.
 */
export function postbackFromOrderObject(v: unknown): unknown {
  const o = v as { _id?: unknown; sourceOrderId?: unknown; orderData?: Record<string, unknown>; error?: unknown; [k: string]: unknown } | null;
  if (!o || typeof o !== 'object' || Array.isArray(o) || o.sourceOrderId !== undefined || !o.orderData || typeof o.orderData !== 'object') return v;
  const od = o.orderData;
  const status = firstText(od.status);
  const shipments = Array.isArray(od.shipments) ? (od.shipments as Array<Record<string, unknown>>) : [];
  const tracked = shipments.find((s) => firstText(s?.trackingNumber));
  return {
    event: o.error ? 'order.submissionerror' : `order.${status || 'update'}`,
    sourceOrderId: od.sourceOrderId,
    orderId: o._id,
    status,
    // Nothing in the object says when the event happened: a repeat of a status is a duplicate.
    timestamp: firstText(tracked?.shippedDate, o.modified, o.updatedAt, od.date, o.createdAt) || 'order-object',
    ...(tracked ? { shipment: { trackingNumber: tracked.trackingNumber, trackingUrl: tracked.trackingUrl ?? null, shippedDate: tracked.shippedDate ?? null, carrier: tracked.carrier ?? null } } : {}),
    ...(o.error ? { error: o.error } : {}),
    order: o,
  };
}

/** The (ours) default postback body of docs/orders-fulfilment.md, or Site Flow's raw order object. */
export const postbackBody = z.preprocess(
  postbackFromOrderObject,
  z
    .object({
      event: z.string().min(1).max(200),
      sourceOrderId: textish.pipe(z.string().min(1).max(200)),
      orderId: textish.optional(),
      status: z.string().min(1).max(32),
      timestamp: z.string().min(1).max(64),
      shipment: z
        .object({
          trackingNumber: textish.optional().nullable(),
          trackingUrl: z.string().max(2048).optional().nullable(),
          shippedDate: z.string().max(64).optional().nullable(),
          carrier: z.object({ code: z.string().optional().nullable(), service: z.string().optional().nullable(), alias: z.string().optional().nullable() }).loose().optional().nullable(),
        })
        .loose()
        .optional()
        .nullable(),
      /** An "Order Submission Error": why Site Flow refused an order it had acknowledged. */
      error: z
        .object({ message: z.string().max(2000).optional().nullable(), validations: z.array(z.object({ path: z.unknown(), message: z.unknown() }).loose()).max(200).optional().nullable() })
        .loose()
        .optional()
        .nullable(),
    })
    .loose(),
);

export const hpDataQuery = z.object({
  page: z.coerce.number().int().min(1, 'must be 1 or more').max(100_000).optional(),
  pageSize: z.coerce.number().int().min(1).max(100).optional(),
  siteId: optionalSiteId,
  orderId: z.string().max(64).optional(),
  status: z.string().max(32).optional(),
});

export const detailQuery = z.object({ siteId: optionalSiteId });

export type PostbackBody = z.infer<typeof postbackBody>;

/** POST /api/test/send-hp: the site (slug or id); the caller's own site when absent. */
export const hpTestBody = z.object({ site: z.union([z.string(), z.number()]).transform(String).pipe(z.string().min(1).max(64)).optional() });

const httpUrl = z
  .string()
  .trim()
  .max(2048, 'is too long (2048 characters at most)')
  .refine((v) => {
    try {
      return ['http:', 'https:'].includes(new URL(v).protocol);
    } catch {
      return false;
    }
  }, 'must be a web address (https://…)');

/** Mark shipped: lines printed in house leave with this tracking. */
export const markShippedBody = z.object({
  site: z.union([z.string(), z.number()]).transform(String).pipe(z.string().min(1).max(64)).optional(),
  siteId: optionalSiteId,
  orderId: ref,
  lineIds: z.array(ref).max(250, 'names too many lines (250 at most)').optional(),
  carrier: z.string().trim().min(1, 'is required').max(255, 'is too long (255 characters at most)'),
  trackingNumber: z.string().trim().min(1, 'is required').max(255, 'is too long (255 characters at most)'),
  trackingUrl: z.preprocess((v) => (v === '' || v === null ? undefined : v), httpUrl.optional()),
});
