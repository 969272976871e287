// What every `/api/projects/{projectId}/…` route declares: signed in, the project loaded (any member of its
// organization reads it; a stranger gets 404 Project.NotFound, as does an id that names no project).
import { projectNotFound } from '../../../shared/organizations/access.js';
import { uuidParam } from '../../http/path-params.js';
import { inProject } from '../../middleware/organization-access.js';

export const inProjectRoute = {
  access: 'bearer',
  dailyQuota: 'shown',
  before: inProject,
  params: { projectId: uuidParam({ notFound: projectNotFound }) },
} as const;
