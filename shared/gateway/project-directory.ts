// Which organization a project belongs to, cached in process: projects never move between organizations, and a
// deleted project's keys are deleted with it (so they fail authentication before this is asked).
import { eq } from 'drizzle-orm';
import type { DbExecutor } from '../db/client.js';
import { projects } from '../db/schema/index.js';
import { forbidden } from '../errors/app-error.js';

const TTL_MS = 10 * 60_000;
const MAX_ENTRIES = 10_000;
const cache = new Map<string, { organizationId: string; until: number }>();

export async function organizationOfProject(ctx: { db: DbExecutor }, projectId: string): Promise<string> {
  const hit = cache.get(projectId);
  if (hit && hit.until > Date.now()) return hit.organizationId;
  const [row] = await ctx.db
    .select({ organizationId: projects.organizationId })
    .from(projects)
    .where(eq(projects.id, projectId));
  if (!row) throw forbidden('The API key is bound to a project that no longer exists.', 'Auth.ProjectKeyRequired');
  rememberProject(projectId, row.organizationId);
  return row.organizationId;
}

/** Seeds the cache with a pair the caller read itself (a project's creation, a key's authentication). */
export function rememberProject(projectId: string, organizationId: string): void {
  if (cache.size >= MAX_ENTRIES) cache.clear();
  cache.set(projectId, { organizationId, until: Date.now() + TTL_MS });
}
