import { z } from 'zod';
import { isShopifyApiVersion, SHOPIFY_AUTHS } from '../../integrations/shopifyAdmin';
import { PRODUCT_TYPES } from '../../../../common/design-doc/types';
import { MAKE_IN_HOUSE_LIMIT } from '../../../../common/api/orders';
import { rowId } from '../../http/validate';
import { canBeRowId } from '../../db';

/** A store order id: text or a number, kept as text (int64). */
const storeOrderId = z
  .union([z.string(), z.number()], { error: 'must be text or a number' })
  .transform((v) => String(v).trim())
  .pipe(z.string().min(1, 'is required').max(64, 'is too long (64 characters at most)'));

const optionalText = (max: number) => z.preprocess((v) => (v === '' || v === null ? undefined : v), z.union([z.string(), z.number()]).transform((v) => String(v).trim()).pipe(z.string().max(max)).optional());

const siteId = z.preprocess((v) => (v === '' || v === null ? undefined : v), rowId.optional());

const flag = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.literal('0'), z.literal('1')], { error: 'must be true or false' })
  .transform((v) => v === true || v === 1 || v === '1');

export const checkOrderBody = z
  .object({ id: optionalText(64), name: optionalText(64), siteId })
  .refine((b) => Boolean(b.id || b.name), { message: 'Give the order id or the order name' });

export const rerunOrderBody = z.object({
  id: storeOrderId,
  siteId,
  flags: z
    .object({ addToAdestra: flag.optional(), addToRaisersEdge: flag.optional(), sendEcard: flag.optional(), sendToHP: flag.optional() })
    .default({}),
  /** The operator's yes to sending an order that has shipped to HP again. */
  sendShipped: flag.optional(),
});

/** `{id}` or `{orderId}`: the store order id. */
export const orderRefBody = z
  .object({ id: optionalText(64), orderId: optionalText(64), siteId })
  .refine((b) => Boolean(b.id || b.orderId), { message: 'is required', path: ['id'] })
  .transform((b) => ({ id: (b.id || b.orderId)!, siteId: b.siteId }));

/** order-to-arwork `{ids, siteId?}`: many orders made in house at once (List Orders' Make in house). */
export const orderIdsBody = z.object({
  ids: z.array(storeOrderId, { error: 'must be a list of order ids' }).min(1, 'must name at least one order').max(MAKE_IN_HOUSE_LIMIT, `must name at most ${MAKE_IN_HOUSE_LIMIT} orders (send more in several calls)`),
  siteId,
});

export const orderLineBody = z.object({ id: storeOrderId, lineId: storeOrderId, siteId });
/** hood-download-pdf: `printInHouse` is the operator's yes to printing here a line the provider makes. */
export const lineFileBody = orderLineBody.extend({ printInHouse: flag.optional() });

export type CheckOrderInput = z.infer<typeof checkOrderBody>;
export type RerunOrderInput = z.infer<typeof rerunOrderBody>;
export type OrderLineInput = z.infer<typeof orderLineBody>;

// ---------------------------------------------------------------------------------------------
// Admin REST bodies

const secretValue = z.preprocess((v) => (v === null ? '' : v), z.string().trim().max(500).optional());

export const storeBody = z.object({
  shopDomain: z.preprocess(
    (v) => (v === null ? '' : v),
    z
      .string()
      .trim()
      .toLowerCase()
      .max(255)
      .refine((d) => d === '' || /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/.test(d), 'must be a host name like my-shop.myshopify.com')
      .optional(),
  ),
  webhookSecret: secretValue,
  previousSecret: secretValue,
  auth: z.enum(SHOPIFY_AUTHS, { error: 'must be client_credentials, authorization_code or static_token' }).optional(),
  clientId: z.preprocess((v) => (v === null ? '' : v), z.string().trim().max(255).optional()),
  clientSecret: secretValue,
  autoSendToHP: flag.optional(),
  sendWhen: z.enum(['paid', 'created'], { error: 'must be paid or created' }).optional(),
  adminToken: secretValue,
  apiVersion: z.preprocess(
    (v) => (v === null ? '' : v),
    z
      .string()
      .trim()
      .refine((v) => v === '' || isShopifyApiVersion(v), 'must be a Shopify API version like 2026-07, or unstable')
      .optional(),
  ),
  adminUrl: z.preprocess(
    (v) => (v === null ? '' : v),
    z
      .string()
      .trim()
      .max(500)
      .refine((v) => v === '' || /^https?:\/\/[^\s/]+(\/[^\s]*)?$/.test(v), 'must be an http(s) URL, or empty for https://<shop domain>')
      .optional(),
  ),
});

/** `{site: <slug>}`: the store of an admin's Check connection / Register webhooks. */
export const storeSiteBody = z.object({ site: z.string({ error: 'is required' }).trim().min(1, 'is required').max(64) });

export type StoreInput = z.infer<typeof storeBody>;

export const productBody = z.object({
  storeSku: z.union([z.string(), z.number()]).transform((v) => String(v).trim()).pipe(z.string().min(1, 'is required').max(255)),
  designId: z.coerce.number({ error: 'must be a design id' }).int().positive('must be a design id').refine(canBeRowId, 'must be a design id'),
  productName: optionalText(255),
  productType: z.preprocess((v) => (v === '' ? null : v), z.enum(PRODUCT_TYPES).nullable().optional()),
  storeProductId: optionalText(64),
  siteId,
});

export type ProductInput = z.infer<typeof productBody>;

/** An ISO 8601 time (a date, or a date and time with Z or an offset), as Shopify's search takes it. */
const isoTime = z
  .string({ error: 'must be a date and time like 2026-11-25T10:00:00Z' })
  .trim()
  .refine((s) => /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/.test(s) && !Number.isNaN(Date.parse(s)), 'must be a date and time like 2026-11-25T10:00:00Z');

/** Sync from store: the site's slug, and optionally how far back to look. */
export const reconcileBody = z.object({
  site: z.string({ error: 'is required' }).trim().min(1, 'is required').max(64),
  since: z.preprocess((v) => (v === '' || v === null ? undefined : v), isoTime.optional()),
});

export type ReconcileInput = z.infer<typeof reconcileBody>;
