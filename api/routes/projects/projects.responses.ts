// What the project routes answer inside the envelope's `data` (projects.presenters.ts), as the OpenAPI document
// shows it.
import { z } from 'zod';
import { projectRole, projectStatus } from '../../../shared/db/schema/index.js';
import { optionalLimit as limit, timestamp } from '../../openapi/response-parts.js';
import { createdApiKey } from '../api-keys/api-keys.responses.js';

export const project = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string().optional(),
    organizationId: z.uuid(),
    status: z.enum(projectStatus.enumValues),
    templateId: z.uuid().optional().meta({ description: 'The template the project was made from.' }),
    createdAt: timestamp,
  })
  .meta({ id: 'Project' });

export const projectDeleted = z.object({ message: z.string(), id: z.uuid() });

export const projectMember = z
  .object({
    userId: z.uuid(),
    email: z.string(),
    name: z.string(),
    role: z.enum(projectRole.enumValues),
    addedAt: timestamp,
  })
  .meta({ id: 'ProjectMember' });

/** A project's or a template's four quota limits. */
export const quotaLimits = {
  dailyRequestLimit: limit,
  dailyTokenLimit: limit,
  monthlyRequestLimit: limit,
  monthlyTokenLimit: limit,
};

const quotaSettings = {
  projectId: z.uuid(),
  ...quotaLimits,
  enforceQuota: z.boolean(),
  customResetDay: z
    .number()
    .int()
    .min(1)
    .max(28)
    .meta({ description: 'The day of the month the monthly window resets.' }),
  createdAt: timestamp,
  updatedAt: timestamp,
};

export const projectQuota = z.object({ ...quotaSettings, requestsPerMinuteLimit: limit }).meta({ id: 'ProjectQuota' });

export const projectFromTemplate = project
  .extend({
    templateName: z.string(),
    quota: z.object(quotaSettings).meta({ description: "The project's quota, copied from the template." }),
    rateLimit: z.object({ requestsPerMinuteLimit: limit }),
    apiKeys: z
      .array(createdApiKey)
      .length(1)
      .meta({ description: "The project's API key, with its token: shown this once." }),
  })
  .meta({ id: 'ProjectFromTemplate' });
