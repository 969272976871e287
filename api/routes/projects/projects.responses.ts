// What the project routes answer inside the envelope's `data` (projects.presenters.ts), as the OpenAPI document
// shows it.
import { z } from 'zod';
import { projectStatus } from '../../../shared/db/schema/index.js';
import { timestamp } from '../../openapi/response-parts.js';

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
