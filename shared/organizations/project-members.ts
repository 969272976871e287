// Project members: organization members given a project role (Owner or Member).
import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbExecutor } from '../db/client.js';
import { accounts, type ProjectRole, projectMembers } from '../db/schema/index.js';
import { badRequest, notFound } from '../errors/app-error.js';
import { memberNotFound } from './members.js';
import { isUuid, membershipOf } from './organizations.js';

export type ProjectMemberEntry = { userId: string; email: string; name: string; role: ProjectRole; addedAt: Date };

export async function listProjectMembers(db: DbExecutor, projectId: string): Promise<ProjectMemberEntry[]> {
  return db
    .select({
      userId: projectMembers.accountId,
      email: accounts.email,
      name: accounts.name,
      role: projectMembers.role,
      addedAt: projectMembers.addedAt,
    })
    .from(projectMembers)
    .innerJoin(accounts, eq(accounts.id, projectMembers.accountId))
    .where(eq(projectMembers.projectId, projectId))
    .orderBy(asc(projectMembers.addedAt), asc(projectMembers.accountId));
}

/** Adds an organization member to the project, or changes their project role; `created` tells which. */
export async function putProjectMember(
  db: DbExecutor,
  project: { id: string; organizationId: string },
  userId: string,
  role: ProjectRole,
): Promise<{ member: ProjectMemberEntry; created: boolean }> {
  if (!isUuid(userId) || !(await membershipOf(db, project.organizationId, userId))) {
    throw badRequest('ProjectMember.NotInOrganization', 'userId must be a member of the project’s organization.');
  }
  const [row] = await db
    .insert(projectMembers)
    .values({ projectId: project.id, accountId: userId, role })
    .onConflictDoUpdate({ target: [projectMembers.projectId, projectMembers.accountId], set: { role } })
    // xmax is 0 on a freshly inserted row and set on a row the upsert updated.
    .returning({ inserted: sql<boolean>`(xmax = 0)` });
  if (!row) throw new Error('project member upsert returned nothing');
  const members = await listProjectMembers(db, project.id);
  const member = members.find((m) => m.userId === userId) as ProjectMemberEntry;
  return { member, created: row.inserted };
}

export async function removeProjectMember(db: DbExecutor, projectId: string, userId: string): Promise<void> {
  if (!isUuid(userId)) throw memberNotFound();
  const deleted = await db
    .delete(projectMembers)
    .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.accountId, userId)))
    .returning({ id: projectMembers.accountId });
  if (deleted.length === 0) throw notFound('ProjectMember.NotFound', 'No such member in this project.');
}
