// The role checks of SPEC section 4: org Admin for organization-wide changes, project Owner or org Admin for
// project settings, any organization member for reading; a stranger gets 404, never a hint that a thing exists.

import { and, eq } from 'drizzle-orm';
import type { DbExecutor } from '../db/client.js';
import {
  type OrganizationRole,
  organizationMemberships,
  type ProjectRole,
  projectMembers,
  projects,
} from '../db/schema/index.js';
import { forbidden, notFound } from '../errors/app-error.js';
import { isUuid } from '../validation/uuid.js';

export type Project = typeof projects.$inferSelect;
export type ProjectAccess = {
  project: Project;
  accountId: string;
  organizationRole: OrganizationRole;
  projectRole: ProjectRole | undefined;
};

export const projectNotFound = () => notFound('Project.NotFound', 'No such project.');

export function requireOrganizationAdmin(access: { role: OrganizationRole }, action: string): void {
  if (access.role !== 'Admin') {
    throw forbidden(`Only an organization Admin may ${action}.`, 'Organization.Forbidden');
  }
}

/** Project settings, quotas and project members: the project's Owner or an Admin of its organization. */
export function requireProjectManager(access: ProjectAccess, action: string): void {
  if (access.organizationRole !== 'Admin' && access.projectRole !== 'Owner') {
    throw forbidden(`Only the project's Owner or an organization Admin may ${action}.`, 'Project.Forbidden');
  }
}

/** Loads a project with the caller's roles; 404 when the project is missing or the caller is not in its organization. */
export async function loadProjectAccess(db: DbExecutor, projectId: string, accountId: string): Promise<ProjectAccess> {
  if (!isUuid(projectId)) throw projectNotFound();
  const [row] = await db
    .select({ project: projects, organizationRole: organizationMemberships.role, projectRole: projectMembers.role })
    .from(projects)
    .innerJoin(
      organizationMemberships,
      and(
        eq(organizationMemberships.organizationId, projects.organizationId),
        eq(organizationMemberships.accountId, accountId),
      ),
    )
    .leftJoin(projectMembers, and(eq(projectMembers.projectId, projects.id), eq(projectMembers.accountId, accountId)))
    .where(eq(projects.id, projectId));
  if (!row) throw projectNotFound();
  return {
    project: row.project,
    accountId,
    organizationRole: row.organizationRole,
    projectRole: row.projectRole ?? undefined,
  };
}
