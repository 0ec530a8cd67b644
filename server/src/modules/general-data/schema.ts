import { z } from 'zod';

export const recordType = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'type must be lower-case letters, digits and hyphens (64 at most)');

const flag = z.union([z.boolean(), z.literal(0), z.literal(1), z.literal('0'), z.literal('1')]).transform((v) => v === true || v === 1 || v === '1');

export const permissionBody = z.object({ create: flag.optional(), read: flag.optional(), update: flag.optional(), delete: flag.optional() });

const text = z.union([z.string().max(255), z.number()]).transform((v) => String(v)).nullable();

export const upsertBody = z.object({
  id: z.union([z.coerce.number().int().positive(), z.literal(''), z.null()]).optional().transform((v) => (v ? v : undefined)),
  field1: text.optional(),
  field2: text.optional(),
  name: text.optional(),
  data: z.record(z.string(), z.unknown()).optional(),
  publicPermission: permissionBody.optional(),
  siteId: z.coerce.number().int().positive().optional(),
});

const zeroOne = z.enum(['0', '1', 'true', 'false']).transform((v) => v === '1' || v === 'true');

// An empty query value (`field2=`) means "no filter": the spec's orders screen sends field2 empty for all clients.
const filterText = (max: number) => z.preprocess((v) => (v === '' ? undefined : v), z.string().max(max).optional());

export const listQuery = z.object({
  field1: filterText(255),
  field2: filterText(255),
  name: filterText(255),
  userId: z.coerce.number().int().positive().optional(),
  siteId: z.coerce.number().int().positive().optional(),
  page: z.coerce.number().int().min(1, 'must be 1 or more').max(100_000).optional(),
  pageSize: z.coerce.number().int().min(1).max(100).optional(),
  allClients: zeroOne.optional(),
  status: filterText(32),
  /** Statuses to leave out, comma-separated (order logs leave out `no-lines` unless a status is asked for). */
  excludeStatus: filterText(200).transform((v) => (v === undefined ? undefined : v.split(',').map((s) => s.trim()).filter(Boolean))),
  q: filterText(100),
});

export type UpsertRecord = z.infer<typeof upsertBody>;
export type ListQuery = z.infer<typeof listQuery>;
