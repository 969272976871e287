// Whether an account may bind an API key to a project. Organizations own projects; until a project exists
// there is nothing to bind to, so every id is unknown.
import type { AppContext } from '../context.js';
import { notFound } from '../errors/app-error.js';

export async function assertCanBindProject(_ctx: AppContext, _accountId: string, _projectId: string): Promise<void> {
  throw notFound('Project.NotFound', 'No such project.');
}
