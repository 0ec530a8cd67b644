import { z } from 'zod';
import { rowId } from '../../http/validate';

export const DEFAULT_MAIN_COLOR = '#000000';
const RESERVED_SLUGS = new Set(['info', 'new', 'api', 'admin']);

export const slug = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(64, 'is too long (64 characters at most)')
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'may only hold lower-case letters, digits and single hyphens')
  .refine((s) => !RESERVED_SLUGS.has(s), 'is reserved');

const envVar = z.object({
  key: z.string().trim().min(1, 'is required').max(100).regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'may only hold letters, digits and _'),
  value: z.string().max(4096).default(''),
});

const logo = z
  .string()
  .trim()
  .max(2048)
  .refine((v) => v === '' || /^https?:\/\/[^\s]+$/i.test(v) || /^\/files\/[^\s]+$/.test(v), 'must be an http(s) URL or an uploaded file')
  .nullable();

export const siteBody = z.object({
  id: z.union([rowId, z.literal(''), z.null()]).optional().transform((v) => (v ? v : undefined)),
  name: z.string().trim().min(1, 'is required').max(200),
  slug,
  logo: logo.optional(),
  theme: z
    .object({ mainColor: z.string().trim().regex(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'must be a colour like #e91e63').or(z.literal('')).optional() })
    .loose()
    .optional(),
  settings: z
    .object({
      env: z
        .array(envVar)
        .max(200)
        .refine((list) => new Set(list.map((v) => v.key)).size === list.length, 'has the same key twice')
        // Absent means "keep the stored variables" (the service falls back to them), not "delete them all".
        .optional(),
    })
    .loose()
    .optional(),
});

export type SiteInput = z.infer<typeof siteBody>;
