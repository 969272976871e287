// Organization members: the paged list (optionally searched by name or e-mail), role changes and removal, guarding the last Admin under a row lock.

import { and, asc, count, eq, ilike, inArray, or } from 'drizzle-orm';
import { type AuditActor, recordAudit } from '../audit/audit-log.js';
import type { AppContext } from '../context.js';
import type { DbExecutor } from '../db/client.js';
import { containsPattern } from '../db/like-pattern.js';
import {
  accounts,
  type OrganizationRole,
  organizationMemberships,
  organizations,
  projectMembers,
  projects,
} from '../db/schema/index.js';
import { conflict, notFound } from '../errors/app-error.js';
import { isUuid } from '../validation/uuid.js';
import { membershipOf, membershipRow } from './organizations.js';
import { deleteKeysBeyondAccess, forgetDeletedKeys } from './project-key-access.js';

export type MemberEntry = {
  userId: string;
  email: string;
  name: string;
  role: OrganizationRole;
  status: 'Active';
  joinedAt: Date;
};

export const memberNotFound = () => notFound('Member.NotFound', 'No such member in this organization.');
const lastAdmin = () =>
  conflict('Member.LastAdmin', 'The organization must keep at least one Admin: promote someone else first.');

export async function listMembers(
  db: DbExecutor,
  organizationId: string,
  paging: { page: number; size: number; q?: string | undefined },
): Promise<{ members: MemberEntry[]; total: number }> {
  const pattern = paging.q ? containsPattern(paging.q) : undefined;
  const where = and(
    eq(organizationMemberships.organizationId, organizationId),
    pattern ? or(ilike(accounts.name, pattern), ilike(accounts.email, pattern)) : undefined,
  );
  const [rows, [totalRow]] = await Promise.all([
    db
      .select({
        userId: organizationMemberships.accountId,
        email: accounts.email,
        name: accounts.name,
        role: organizationMemberships.role,
        status: organizationMemberships.status,
        joinedAt: organizationMemberships.joinedAt,
      })
      .from(organizationMemberships)
      .innerJoin(accounts, eq(accounts.id, organizationMemberships.accountId))
      .where(where)
      .orderBy(asc(organizationMemberships.joinedAt), asc(organizationMemberships.accountId))
      .limit(paging.size)
      .offset((paging.page - 1) * paging.size),
    db
      .select({ n: count() })
      .from(organizationMemberships)
      .innerJoin(accounts, eq(accounts.id, organizationMemberships.accountId))
      .where(where),
  ]);
  return { members: rows, total: totalRow?.n ?? 0 };
}

/**
 * Runs `change` with the organization row locked, so two Admins demoting or removing each other at once
 * cannot leave the organization without an Admin.
 */
async function withOrganizationLocked<T>(
  ctx: Pick<AppContext, 'db'>,
  organizationId: string,
  change: (tx: DbExecutor) => Promise<T>,
): Promise<T> {
  return ctx.db.transaction(async (tx) => {
    await tx
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(organizations.id, organizationId))
      .for('update');
    return change(tx);
  });
}

async function adminCount(tx: DbExecutor, organizationId: string) {
  const [row] = await tx
    .select({ n: count() })
    .from(organizationMemberships)
    .where(and(eq(organizationMemberships.organizationId, organizationId), eq(organizationMemberships.role, 'Admin')));
  return row?.n ?? 0;
}

/** Changes a member's role; one who stops being an Admin loses the keys bound to projects they are not a member of. */
export async function changeMemberRole(
  ctx: Pick<AppContext, 'db' | 'redis' | 'config'>,
  organizationId: string,
  userId: string,
  role: OrganizationRole,
  actor: AuditActor,
): Promise<{ userId: string; role: OrganizationRole }> {
  if (!isUuid(userId)) throw memberNotFound();
  const { changed, revoked } = await withOrganizationLocked(ctx, organizationId, async (tx) => {
    const current = (await membershipOf(tx, organizationId, userId))?.role;
    if (!current) throw memberNotFound();
    if (current === 'Admin' && role !== 'Admin' && (await adminCount(tx, organizationId)) <= 1) throw lastAdmin();
    await tx.update(organizationMemberships).set({ role }).where(membershipRow(organizationId, userId));
    const keys = role === 'Admin' ? [] : await deleteKeysBeyondAccess(tx, organizationId, userId);
    await recordAudit(tx, actor, {
      action: 'member.role.set',
      organizationId,
      target: { type: 'account', id: userId },
      before: { role: current },
      after: { role, ...(keys.length > 0 ? { deletedApiKeys: keys.map((k) => k.id) } : {}) },
    });
    return { changed: { userId, role }, revoked: keys };
  });
  await forgetDeletedKeys(ctx, revoked);
  return changed;
}

/**
 * Removes a member, their project memberships in this organization and their API keys bound to its projects
 * (whose cached credentials are dropped after the commit, so they fail at once).
 */
export async function removeMember(
  ctx: Pick<AppContext, 'db' | 'redis' | 'config'>,
  organizationId: string,
  userId: string,
  actor: AuditActor,
): Promise<void> {
  if (!isUuid(userId)) throw memberNotFound();
  const revoked = await withOrganizationLocked(ctx, organizationId, async (tx) => {
    const current = (await membershipOf(tx, organizationId, userId))?.role;
    if (!current) throw memberNotFound();
    if (current === 'Admin' && (await adminCount(tx, organizationId)) <= 1) throw lastAdmin();
    // The membership first: it waits for a project role being given under its `FOR SHARE` lock (project-members.ts),
    // so the project roles deleted next include that one.
    await tx.delete(organizationMemberships).where(membershipRow(organizationId, userId));
    const orgProjects = tx
      .select({ id: projects.id })
      .from(projects)
      .where(eq(projects.organizationId, organizationId));
    await tx
      .delete(projectMembers)
      .where(and(eq(projectMembers.accountId, userId), inArray(projectMembers.projectId, orgProjects)));
    const keys = await deleteKeysBeyondAccess(tx, organizationId, userId);
    await recordAudit(tx, actor, {
      action: 'member.remove',
      organizationId,
      target: { type: 'account', id: userId },
      before: { role: current },
      after: { deletedApiKeys: keys.map((k) => k.id) },
    });
    return keys;
  });
  await forgetDeletedKeys(ctx, revoked);
}
