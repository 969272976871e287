// What the project template routes answer inside the envelope's `data` (presentTemplate), as the OpenAPI document
// shows it.
import { z } from 'zod';
import { templateCategory } from '../../../shared/db/schema/index.js';
import { optionalLimit, timestamp } from '../../openapi/response-parts.js';
import { quotaLimits } from '../projects/projects.responses.js';

export const projectTemplate = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string().optional(),
    category: z.enum(templateCategory.enumValues),
    tags: z.array(z.string()),
    isSystem: z.boolean().meta({ description: 'A built-in template.' }),
    isPublic: z.boolean(),
    usageCount: z.number().int().nonnegative(),
    icon: z.string().optional(),
    organizationId: z.uuid().optional().meta({ description: 'The owning organization; absent on built-in ones.' }),
    createdAt: timestamp,
    config: z.object({
      quota: z.object(quotaLimits),
      rateLimit: z.object({ requestsPerMinuteLimit: optionalLimit }),
    }),
  })
  .meta({ id: 'ProjectTemplate' });
