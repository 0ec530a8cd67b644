import { z } from 'zod';
import { badRequest } from '../../http/errors';
import { isDay } from '../../lib/time';

// The spec's exact texts (§5), typo included.
export const MSG_CONSTITUENT_REQUIRED = 'Please enter RE constitunent id';
export const MSG_DAY_REQUIRED = 'Please enter the date';
export const MSG_DAY_FORMAT = 'The date must be in the format YYYY-MM-DD';
export const MSG_DAY_FUTURE = 'The date is in the future: no contact can have changed on that day yet';

const body = (v: unknown) => (v && typeof v === 'object' ? (v as Record<string, unknown>) : {});

export function constituentIdOf(input: unknown): string {
  const raw = body(input).constituent_id ?? body(input).constituentId;
  const id = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
  if (!id) throw badRequest(MSG_CONSTITUENT_REQUIRED);
  if (!/^[A-Za-z0-9-]{1,64}$/.test(id)) throw badRequest('constituent_id: must be the CRM id (letters, digits and hyphens)');
  return id;
}

export function dayOf(input: unknown, field = 'day', required = true): string | undefined {
  const raw = body(input)[field];
  const day = typeof raw === 'string' ? raw.trim() : '';
  if (!day) {
    if (required) throw badRequest(MSG_DAY_REQUIRED);
    return undefined;
  }
  if (!isDay(day)) throw badRequest(MSG_DAY_FORMAT);
  return day;
}

export const targetDate = z
  .string()
  .trim()
  .refine((v) => v === 'yesterday' || v === 'today' || isDay(v), "must be 'yesterday', 'today' or a date YYYY-MM-DD");

export const configBody = z.object({
  // The spec keeps the hour as text; the scheduler needs a whole hour of the day.
  hour: z
    .union([z.string(), z.number()])
    .transform((v) => String(v).trim())
    .refine((v) => /^\d{1,2}$/.test(v) && Number(v) <= 23, 'Hour must be a whole number from 0 to 23 (24h format)')
    .transform((v) => String(Number(v))),
  targetDate: targetDate.optional(),
});

export const fileBody = z.object({
  name: z.string().trim().min(1).max(200),
  force: z.union([z.boolean(), z.literal(1), z.literal(0), z.literal('1'), z.literal('0'), z.literal('true'), z.literal('false')]).optional().transform((v) => v === true || v === 1 || v === '1' || v === 'true'),
});

export const runListQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).optional(),
  pageSize: z.coerce.number().int().min(1).max(100).optional(),
  kind: z.enum(['one', 'day', 'webhook', 'unsubscribe', 'export80', 'export92']).optional(),
  field1: z.string().max(255).optional(),
  status: z.enum(['running', 'success', 'partial', 'failed']).optional(),
});

export const reCallBody = z.object({
  site: z.string().max(64).optional(),
  path: z
    .string()
    .trim()
    .regex(/^\/(constituent|commpref)\/v1\/[A-Za-z0-9/_\-.?=&%:]*$/, 'must be a SKY API path under /constituent/v1/ or /commpref/v1/')
    .default('/constituent/v1/constituents?limit=1'),
});

export const testBody = z.object({ site: z.string().max(64).optional() });

/** The e-mail check: with `to`, a real test message is sent there. */
export const emailTestBody = testBody.extend({
  to: z.string().trim().max(254).email('to: must be an e-mail address').optional(),
});

/** The consent names the sync writes into the CRM; empty means none is sent. */
export const consentSettingsBody = z.object({
  source: z.string().trim().max(200, 'source: 200 characters at most').default(''),
  category: z.string().trim().max(200, 'category: 200 characters at most').default(''),
});
