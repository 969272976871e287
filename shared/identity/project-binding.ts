// Whether an account may bind an API key to a project: a member of the project or an Admin of its organization.
// Anyone else gets the same 404 as for a project that does not exist.
import type { AppContext } from '../context.js';
import type { DbExecutor } from '../db/client.js';
import { notFound } from '../errors/app-error.js';
import { mayUseProject } from '../organizations/access.js';

export async function assertCanBindProject(
  ctx: AppContext,
  accountId: string,
  projectId: string,
  db: DbExecutor = ctx.db,
): Promise<void> {
  if (!(await mayUseProject(db, projectId, accountId))) throw notFound('Project.NotFound', 'No such project.');
}
