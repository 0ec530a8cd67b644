import { z } from 'zod';
import { rowId } from '../../http/validate';

const name = z.string().trim().min(1, 'is required').max(100, 'is too long (100 characters at most)');
// bcrypt reads 72 bytes at most; longer passwords would be silently truncated, so refuse them.
export const password = z
  .string()
  .min(8, 'must be at least 8 characters')
  .refine((p) => Buffer.byteLength(p, 'utf8') <= 72, 'must be at most 72 bytes');
const email = z.string().trim().toLowerCase().pipe(z.email('is not a valid email address')).pipe(z.string().max(254));
const id = rowId;

export const loginBody = z.object({
  email: z.string({ error: 'is required' }).trim().toLowerCase().min(1, 'is required'),
  password: z.string({ error: 'is required' }).min(1, 'is required'),
});

export const role = z.enum(['admin', 'user']);

export const registerBody = z.object({
  firstName: name,
  lastName: z.string().trim().max(100).default(''),
  email,
  password,
  role: role.default('user'),
  siteId: id,
});

export const upsertBody = z.object({
  id: z.union([id, z.literal(''), z.null()]).optional().transform((v) => (v ? v : undefined)),
  firstName: name.optional(),
  lastName: z.string().trim().max(100).optional(),
  email: email.optional(),
  password: z.union([password, z.literal(''), z.null()]).optional().transform((v) => (v ? v : undefined)),
  role: role.optional(),
  siteId: id.optional(),
});

export type RegisterInput = z.infer<typeof registerBody>;
export type UpsertInput = z.infer<typeof upsertBody>;
