// Organizations and the caller's membership in them: creation, listing and the current-organization rule.

import { and, asc, eq } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import type { DbExecutor } from '../db/client.js';
import { type OrganizationRole, organizationMemberships, organizations } from '../db/schema/index.js';
import { badRequest, notFound } from '../errors/app-error.js';
import { isUuid } from '../validation/uuid.js';
import { createWallet } from '../wallet/wallets.js';

export type Organization = typeof organizations.$inferSelect;
export type OrganizationWithRole = Organization & { role: OrganizationRole };
/** Who is acting in which organization, with which organization role. */
export type OrganizationAccess = { organizationId: string; accountId: string; role: OrganizationRole };

export const organizationNotFound = () =>
  notFound('Organization.NotFound', 'No such organization, or you are not a member of it.');

/**
 * Creates an organization with the caller as its Admin, in ONE transaction. Everything an organization
 * owns from birth (its wallet, issue 5) is added inside this transaction.
 */
export async function createOrganization(
  ctx: Pick<AppContext, 'db'>,
  accountId: string,
  input: { name: string },
): Promise<OrganizationWithRole> {
  return ctx.db.transaction(async (tx) => {
    const [organization] = await tx
      .insert(organizations)
      .values({ name: input.name, createdBy: accountId })
      .returning();
    if (!organization) throw new Error('organization insert returned nothing');
    await tx.insert(organizationMemberships).values({ organizationId: organization.id, accountId, role: 'Admin' });
    await createWallet(tx, organization.id);
    return { ...organization, role: 'Admin' as const };
  });
}

export async function listOrganizationsOf(db: DbExecutor, accountId: string): Promise<OrganizationWithRole[]> {
  const rows = await db
    .select({ organization: organizations, role: organizationMemberships.role })
    .from(organizationMemberships)
    .innerJoin(organizations, eq(organizations.id, organizationMemberships.organizationId))
    .where(eq(organizationMemberships.accountId, accountId))
    .orderBy(asc(organizations.createdAt), asc(organizations.id));
  return rows.map((r) => ({ ...r.organization, role: r.role }));
}

/** The condition that selects one account's membership row in one organization. */
export const membershipRow = (organizationId: string, accountId: string) =>
  and(eq(organizationMemberships.organizationId, organizationId), eq(organizationMemberships.accountId, accountId));

export async function membershipOf(
  db: DbExecutor,
  organizationId: string,
  accountId: string,
): Promise<OrganizationAccess | undefined> {
  const [row] = await db
    .select({ role: organizationMemberships.role })
    .from(organizationMemberships)
    .where(membershipRow(organizationId, accountId));
  return row ? { organizationId, accountId, role: row.role } : undefined;
}

/**
 * SPEC section 4: the organization named by `X-Organization-Id`, else the caller's only one.
 * A named organization the caller does not belong to is 404; no or several memberships without the header: 400.
 */
export async function resolveCurrentOrganization(
  db: DbExecutor,
  accountId: string,
  requested: string | undefined,
): Promise<OrganizationAccess> {
  if (requested !== undefined && requested !== '') {
    if (!isUuid(requested)) throw organizationNotFound();
    const access = await membershipOf(db, requested, accountId);
    if (!access) throw organizationNotFound();
    return access;
  }
  const rows = await db
    .select({ organizationId: organizationMemberships.organizationId, role: organizationMemberships.role })
    .from(organizationMemberships)
    .where(eq(organizationMemberships.accountId, accountId))
    .limit(2);
  if (rows.length === 0) {
    throw badRequest('Organization.NotSelected', 'You do not belong to any organization.');
  }
  if (rows.length > 1) {
    throw badRequest(
      'Organization.NotSelected',
      'You belong to several organizations: name one with the X-Organization-Id header (GET /api/organizations lists their ids).',
    );
  }
  const [only] = rows as [{ organizationId: string; role: OrganizationRole }];
  return { organizationId: only.organizationId, accountId, role: only.role };
}
