// Request bodies and queries of the API-key routes.
import { z } from 'zod';
import { displayName } from '../../../shared/validation/display-name.js';

export const createApiKeyBody = z.object({
  name: displayName(),
  projectId: z.uuid().optional(),
});

export const usageQuery = z.object({
  days: z.coerce.number().int().min(1).max(90).default(7),
});

export const quotaRequestBody = z.object({
  requestedQuota: z.number().int().min(1).max(1_000_000),
  reason: z.string().trim().max(1000).optional(),
});
