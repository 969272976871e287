// What the organization routes answer inside the envelope's `data` (organization.presenters.ts), as the OpenAPI
// document shows it.
import { z } from 'zod';
import { organizationRole } from '../../../shared/db/schema/index.js';
import { timestamp } from '../../openapi/response-parts.js';

export const organization = z
  .object({
    id: z.uuid(),
    name: z.string(),
    role: z.enum(organizationRole.enumValues).meta({ description: "The caller's role in the organization." }),
    createdAt: timestamp,
  })
  .meta({ id: 'Organization' });
