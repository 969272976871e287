// Projects of an organization: creation (the creator becomes its Owner), listing, reading and deletion.
import { and, count, desc, eq, exists } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import type { DbExecutor } from '../db/client.js';
import { apiKeys, projectMembers, projects } from '../db/schema/index.js';
import { CredentialCache } from '../identity/credential-cache.js';
import type { Project } from './access.js';
import { countHeldUnderLock, MAX_PROJECTS_PER_ORGANIZATION, organizationLimitErrors } from './organization-limits.js';
import { quotaCountersOf } from './project-quotas.js';

export type ProjectInput = { name: string; description?: string | undefined; templateId?: string };

/** Inserts the project and its Owner within the organization's cap; callers run it inside their transaction. */
export async function insertProject(
  tx: DbExecutor,
  organizationId: string,
  ownerId: string,
  input: ProjectInput,
): Promise<Project> {
  const held = await countHeldUnderLock(tx, organizationId, projects, eq(projects.organizationId, organizationId));
  if (held >= MAX_PROJECTS_PER_ORGANIZATION) throw organizationLimitErrors.projects();
  const [project] = await tx
    .insert(projects)
    .values({
      organizationId,
      name: input.name,
      description: input.description ?? null,
      templateId: input.templateId ?? null,
      createdBy: ownerId,
    })
    .returning();
  if (!project) throw new Error('project insert returned nothing');
  await tx.insert(projectMembers).values({ projectId: project.id, accountId: ownerId, role: 'Owner' });
  return project;
}

export async function createProject(
  ctx: Pick<AppContext, 'db'>,
  organizationId: string,
  ownerId: string,
  input: ProjectInput,
): Promise<Project> {
  return ctx.db.transaction((tx) => insertProject(tx, organizationId, ownerId, input));
}

/** The organization's projects, newest first; `mine` keeps only those the caller is a project member of. */
export async function listProjects(
  db: DbExecutor,
  organizationId: string,
  accountId: string,
  options: { page: number; size: number; mine: boolean },
): Promise<{ projects: Project[]; total: number }> {
  const membership = db
    .select({ one: projectMembers.projectId })
    .from(projectMembers)
    .where(and(eq(projectMembers.projectId, projects.id), eq(projectMembers.accountId, accountId)));
  const where = options.mine
    ? and(eq(projects.organizationId, organizationId), exists(membership))
    : eq(projects.organizationId, organizationId);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(projects)
      .where(where)
      .orderBy(desc(projects.createdAt), desc(projects.id))
      .limit(options.size)
      .offset((options.page - 1) * options.size),
    db.select({ n: count() }).from(projects).where(where),
  ]);
  return { projects: rows, total: total?.n ?? 0 };
}

/**
 * Deletes the project; its members, quota, history and bound API keys go with it (foreign keys cascade). The
 * keys' cached credentials and the quota settings are dropped after the commit, so the keys fail at once.
 */
export async function deleteProject(
  ctx: Pick<AppContext, 'db' | 'redis' | 'config'>,
  projectId: string,
): Promise<void> {
  const { keys, organizationId } = await ctx.db.transaction(async (tx) => {
    const bound = await tx
      .select({ tokenHash: apiKeys.tokenHash })
      .from(apiKeys)
      .where(eq(apiKeys.projectId, projectId))
      // In id order, the order a ledger batch locks keys in (shared/wallet/ledger-rows.ts): no lock-order cycle.
      .orderBy(apiKeys.id)
      .for('update');
    const [deleted] = await tx
      .delete(projects)
      .where(eq(projects.id, projectId))
      .returning({ organizationId: projects.organizationId });
    return { keys: bound.map((k) => k.tokenHash), organizationId: deleted?.organizationId };
  });
  await new CredentialCache(ctx.redis, ctx.config.REDIS_PREFIX).invalidateCredentials(keys);
  if (organizationId) await quotaCountersOf(ctx).forget(projectId, organizationId);
}
