import { z } from 'zod';
import { SEARCH_MAX_CHARS } from '../../../../common/api/search';

export const searchQuery = z.object({
  q: z.string({ error: 'must be text' }).trim().max(SEARCH_MAX_CHARS, `must be ${SEARCH_MAX_CHARS} characters at most`).optional(),
});
