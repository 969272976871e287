// Who receives balance-alert e-mails: the organization's Admins.
import { and, asc, eq } from 'drizzle-orm';
import type { DbExecutor } from '../db/client.js';
import { accounts, organizationMemberships } from '../db/schema/index.js';

export async function alertRecipients(db: DbExecutor, organizationId: string): Promise<string[]> {
  const rows = await db
    .select({ email: accounts.email })
    .from(organizationMemberships)
    .innerJoin(accounts, eq(accounts.id, organizationMemberships.accountId))
    .where(
      and(
        eq(organizationMemberships.organizationId, organizationId),
        eq(organizationMemberships.role, 'Admin'),
        eq(organizationMemberships.status, 'Active'),
      ),
    )
    .orderBy(asc(accounts.email));
  return rows.map((r) => r.email);
}
