import { z } from 'zod';
import { HISTORY_SUBJECT_KINDS } from '../../../../common/api/history';
import { rowId } from '../../http/validate';
import { day } from '../../http/validate';

const blankless = (v: unknown) => (v === '' || v === null ? undefined : v);

/** GET /api/online-stores/order-history?id=<store order id>[&siteId=] (siteId: an admin's choice of site). */
export const orderHistoryQuery = z.object({
  id: z.string({ error: 'is required' }).trim().min(1, 'is required').max(64, 'is too long (64 characters at most)'),
  siteId: z.preprocess(blankless, rowId.optional()),
});

/** GET /api/history: filters of the admin trail; from/to are days (YYYY-MM-DD), both included. */
export const trailQuery = z
  .object({
    kind: z.preprocess(blankless, z.enum(HISTORY_SUBJECT_KINDS as [string, ...string[]], { error: `must be one of ${HISTORY_SUBJECT_KINDS.join(', ')}` }).optional()),
    siteId: z.preprocess(blankless, rowId.optional()),
    actor: z.preprocess(blankless, z.string().trim().max(100, 'is too long (100 characters at most)').optional()),
    from: z.preprocess(blankless, day.optional()),
    to: z.preprocess(blankless, day.optional()),
    page: z.preprocess(blankless, z.coerce.number({ error: 'must be a page number' }).int('must be a whole number').min(1, 'must be 1 or more').max(100_000, 'is too far').optional()),
    pageSize: z.preprocess(blankless, z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(1, 'must be 1 or more').max(200, 'must be 200 or less').optional()),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'must not be after To', path: ['from'] });

export type TrailQuery = z.infer<typeof trailQuery>;
