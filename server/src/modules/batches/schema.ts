import { z } from 'zod';
import { progressKey } from '../../http/progress';
import { rowId } from '../../http/validate';
import { MAX_BATCH_JOBS } from '../../../../common/api/batches';
import { queryFlag } from '../print-jobs';
import { BATCH_STATES } from './repo';

export { MAX_BATCH_JOBS };

export const createBody = z.object({
  jobIds: z
    .array(rowId, { error: 'must be a list of print job ids' })
    .min(1, 'must name at least one print job')
    .max(MAX_BATCH_JOBS, `must name at most ${MAX_BATCH_JOBS} print jobs`)
    .refine((ids) => new Set(ids).size === ids.length, 'names a print job twice'),
  sheet: z.string().trim().min(1).max(40).optional(),
});

export const stateBody = z.object({
  state: z.enum(BATCH_STATES, { error: `must be one of ${BATCH_STATES.join(', ')}` }),
});

export const listQuery = z.object({
  state: z.enum(BATCH_STATES, { error: `must be one of ${BATCH_STATES.join(', ')}` }).optional(),
  /** 1: only batches the automatic rule is still filling; 0: the others. */
  filling: queryFlag.optional(),
  clientId: rowId.optional(),
  page: z.coerce.number().int().min(1).optional(),
  pageSize: z.coerce.number().int().min(1).max(200).optional(),
});

export const sheetsQuery = z.object({
  clientId: rowId.optional(),
});

/** GET /api/batches/:id/pdf: a key of the caller's own to follow its progress by. */
export const sheetsPdfQuery = z.object({
  progress: progressKey.optional(),
});

export const sheetsProgressQuery = z.object({
  key: progressKey,
});

export type CreateBatchInput = z.infer<typeof createBody>;
export type BatchListQuery = z.infer<typeof listQuery>;
