// Whether an account may bind an API key to a project: a member of the project or an Admin of its organization.
// Anyone else gets the same 404 as for a project that does not exist (a member of the organization, with a message
// saying what to do). The check runs in the transaction that inserts
// the key and locks the rows that grant the right (FOR SHARE) until it commits: a removal from the project or a
// demotion racing with the insert waits for it, then deletes the new key with the others
// (shared/organizations/project-key-access.ts); one that committed first is seen here and refuses the key.
import { and, eq } from 'drizzle-orm';
import type { DbExecutor } from '../db/client.js';
import { organizationMemberships, projectMembers, projects } from '../db/schema/index.js';
import { notFound } from '../errors/app-error.js';
import { projectNotFound } from '../organizations/access.js';
import { isUuid } from '../validation/uuid.js';

export async function assertCanBindProject(tx: DbExecutor, accountId: string, projectId: string): Promise<void> {
  if (!isUuid(projectId)) throw projectNotFound();
  const [membership] = await tx
    .select({ role: organizationMemberships.role })
    .from(projects)
    .innerJoin(
      organizationMemberships,
      and(
        eq(organizationMemberships.organizationId, projects.organizationId),
        eq(organizationMemberships.accountId, accountId),
      ),
    )
    .where(eq(projects.id, projectId))
    // The project row too: a delete waits for this key's commit and takes the key with it (its foreign key would
    // otherwise fail the insert: a 500).
    .for('share', { of: [organizationMemberships, projects] });
  if (!membership) throw projectNotFound();
  if (membership.role === 'Admin') return;
  const [member] = await tx
    .select({ role: projectMembers.role })
    .from(projectMembers)
    .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.accountId, accountId)))
    .for('share');
  // A member of the organization can read the project (SPEC section 4), so the answer may say why: the same 404, with
  // what to do (a new user's trial read "No such project." about a project the console had just shown them).
  if (!member) throw notFound('Project.NotFound', NOT_A_PROJECT_MEMBER);
}

const NOT_A_PROJECT_MEMBER =
  "No such project among yours: you are not a member of this project, and only its members and the organization's " +
  'Admins may make its keys. Ask its Owner or an Admin to add you (POST /api/projects/{id}/members).';
