// What one organization may hold: anyone can make an organization (ORGANIZATIONS_PER_ACCOUNT_PER_DAY a day) and be
// its Admin, and each project or template is a row that its lists then carry, so without a bound one account and a
// script grow the database at request speed. Projects and templates can be deleted, so these are caps on the total.
// Each count is taken with the organization row locked (`no key update`: the holders of one organization serialize,
// while rows merely referencing it are not held up), so concurrent creations cannot pass a cap together.
import { count, eq, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { DbExecutor } from '../db/client.js';
import { organizations } from '../db/schema/index.js';
import { conflict } from '../errors/app-error.js';

/** Projects of one organization: ten times the largest real tenants we know of, far from any honest need. */
export const MAX_PROJECTS_PER_ORGANIZATION = 1_000;

/** Custom templates of one organization, private and public (of which at most 20 public). */
export const MAX_TEMPLATES_PER_ORGANIZATION = 100;

export const organizationLimitErrors = {
  projects: () =>
    conflict(
      'Project.LimitReached',
      `An organization may hold at most ${MAX_PROJECTS_PER_ORGANIZATION.toLocaleString('en')} projects; delete one first.`,
    ),
  templates: () =>
    conflict(
      'Template.LimitReached',
      `An organization may hold at most ${MAX_TEMPLATES_PER_ORGANIZATION} templates of its own; delete one first.`,
    ),
};

/** Locks the organization row for the rest of the transaction and counts the rows of `table` matching `where`. */
export async function countHeldUnderLock(
  tx: DbExecutor,
  organizationId: string,
  table: PgTable,
  where: SQL | undefined,
): Promise<number> {
  await tx
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .for('no key update');
  // A statement of its own after the lock, so it sees every row committed before the lock was ours.
  const [held] = await tx.select({ n: count() }).from(table).where(where);
  return held?.n ?? 0;
}
