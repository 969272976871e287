// Project members: organization members given a project role (Owner or Member).

import { and, asc, eq, sql } from 'drizzle-orm';
import { type AuditActor, recordAudit } from '../audit/audit-log.js';
import type { AppContext } from '../context.js';
import type { DbExecutor } from '../db/client.js';
import { accounts, organizationMemberships, type ProjectRole, projectMembers } from '../db/schema/index.js';
import { badRequest, notFound } from '../errors/app-error.js';
import { isUuid } from '../validation/uuid.js';
import { memberNotFound } from './members.js';
import { membershipRow } from './organizations.js';
import { deleteKeysBeyondAccess, forgetDeletedKeys } from './project-key-access.js';

export type ProjectMemberEntry = { userId: string; email: string; name: string; role: ProjectRole; addedAt: Date };

const memberEntries = (db: DbExecutor) =>
  db
    .select({
      userId: projectMembers.accountId,
      email: accounts.email,
      name: accounts.name,
      role: projectMembers.role,
      addedAt: projectMembers.addedAt,
    })
    .from(projectMembers)
    .innerJoin(accounts, eq(accounts.id, projectMembers.accountId));

export async function listProjectMembers(db: DbExecutor, projectId: string): Promise<ProjectMemberEntry[]> {
  return memberEntries(db)
    .where(eq(projectMembers.projectId, projectId))
    .orderBy(asc(projectMembers.addedAt), asc(projectMembers.accountId));
}

type ProjectRef = { id: string; organizationId: string };

const auditTarget = (project: ProjectRef, userId: string) => ({
  organizationId: project.organizationId,
  target: { type: 'project_member', id: `${project.id}/${userId}` },
});

/** Adds an organization member to the project, or changes their project role (`created` tells which), and records
 * the role given in the audit log. */
export async function putProjectMember(
  db: DbExecutor,
  project: ProjectRef,
  userId: string,
  role: ProjectRole,
  actor: AuditActor,
): Promise<{ member: ProjectMemberEntry; created: boolean }> {
  const notInOrganization = () =>
    badRequest('ProjectMember.NotInOrganization', 'userId must be a member of the project’s organization.');
  if (!isUuid(userId)) throw notInOrganization();
  return db.transaction(async (tx) => {
    // Locked until the commit: a removal from the organization either committed first (refused here) or waits and
    // then deletes this project role with the others (members.ts, removeMember).
    const [membership] = await tx
      .select({ role: organizationMemberships.role })
      .from(organizationMemberships)
      .where(membershipRow(project.organizationId, userId))
      .for('share');
    if (!membership) throw notInOrganization();
    const [before] = await tx
      .select({ role: projectMembers.role })
      .from(projectMembers)
      .where(and(eq(projectMembers.projectId, project.id), eq(projectMembers.accountId, userId)))
      .for('update');
    const [upserted] = await tx
      .insert(projectMembers)
      .values({ projectId: project.id, accountId: userId, role })
      .onConflictDoUpdate({ target: [projectMembers.projectId, projectMembers.accountId], set: { role } })
      // xmax is 0 on a freshly inserted row and set on a row the upsert updated.
      .returning({ inserted: sql<boolean>`(xmax = 0)` });
    if (!upserted) throw new Error('project member upsert returned nothing');
    await recordAudit(tx, actor, {
      action: 'project_member.role.set',
      ...auditTarget(project, userId),
      before: before ? { role: before.role } : null,
      after: { role },
    });
    // Read in the transaction: once it commits, a removal from the organization waiting on the lock above may delete
    // the role before a later read (the answer was then a 500 for a role that had been given).
    const [member] = await memberEntries(tx).where(
      and(eq(projectMembers.projectId, project.id), eq(projectMembers.accountId, userId)),
    );
    if (!member) throw new Error('project member written but not read back');
    return { member, created: upserted.inserted };
  });
}

/** Removes a project member; unless they are an Admin of the organization, their keys bound to it are deleted. */
export async function removeProjectMember(
  ctx: Pick<AppContext, 'db' | 'redis' | 'config'>,
  project: ProjectRef,
  userId: string,
  actor: AuditActor,
): Promise<void> {
  if (!isUuid(userId)) throw memberNotFound();
  const revoked = await ctx.db.transaction(async (tx) => {
    const [deleted] = await tx
      .delete(projectMembers)
      .where(and(eq(projectMembers.projectId, project.id), eq(projectMembers.accountId, userId)))
      .returning({ role: projectMembers.role });
    if (!deleted) throw notFound('ProjectMember.NotFound', 'No such member in this project.');
    const keys = await deleteKeysBeyondAccess(tx, project.organizationId, userId);
    await recordAudit(tx, actor, {
      action: 'project_member.remove',
      ...auditTarget(project, userId),
      before: { role: deleted.role },
      ...(keys.length > 0 ? { after: { deletedApiKeys: keys.map((k) => k.id) } } : {}),
    });
    return keys;
  });
  await forgetDeletedKeys(ctx, revoked);
}
