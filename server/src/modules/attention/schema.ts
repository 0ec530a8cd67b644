import { z } from 'zod';

export const attentionQuery = z.object({
  clientId: z.coerce.number({ error: 'must be a site id' }).int('must be a site id').positive('must be a site id').optional(),
});
