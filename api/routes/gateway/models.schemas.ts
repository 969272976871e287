// Query of GET /v1/models: Anthropic's pagination parameters.
import { z } from 'zod';

export const modelListQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(1000).default(20),
    after_id: z.string().min(1).optional(),
    before_id: z.string().min(1).optional(),
  })
  .refine((q) => !(q.after_id && q.before_id), { error: 'send after_id or before_id, not both' });
