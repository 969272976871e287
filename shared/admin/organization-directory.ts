// The platform Admin's view of every organization: name, members and wallet, paged; and one organization's
// wallet records (a platform Admin refunds in any organization, member or not).

import { count, desc, eq, ilike, sql } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import type { Database } from '../db/client.js';
import { containsPattern } from '../db/like-pattern.js';
import { readPage } from '../db/page.js';
import { organizationMemberships, organizations, organizationWallets } from '../db/schema/index.js';
import { notFound } from '../errors/app-error.js';
import { isUuid } from '../validation/uuid.js';
import { syncStep } from '../wallet/mirror-steps.js';
import type { DirectoryQuery } from './account-directory.js';

/** Organizations newest first, each wallet's available and frozen amounts from its mirror (as the wallet route). */
export async function listAllOrganizations(ctx: Pick<AppContext, 'db' | 'redis' | 'config'>, query: DirectoryQuery) {
  const { db } = ctx;
  const where = query.search ? ilike(organizations.name, containsPattern(query.search)) : undefined;
  const members = db
    .select({ organizationId: organizationMemberships.organizationId, members: count().as('members') })
    .from(organizationMemberships)
    .groupBy(organizationMemberships.organizationId)
    .as('members');
  const newestFirst = db
    .select({
      id: organizations.id,
      name: organizations.name,
      createdAt: organizations.createdAt,
      memberCount: sql<number>`coalesce(${members.members}, 0)::int`,
      balance: organizationWallets.balance,
      recordSeq: organizationWallets.recordSeq,
      isActive: organizationWallets.isActive,
      currency: organizationWallets.currency,
    })
    .from(organizations)
    .leftJoin(members, eq(members.organizationId, organizations.id))
    .leftJoin(organizationWallets, eq(organizationWallets.organizationId, organizations.id))
    .where(where)
    .orderBy(desc(organizations.createdAt), desc(organizations.id));
  const page = await readPage(db, newestFirst, organizations, where, query);
  const live = await Promise.all(
    page.items.map(async ({ recordSeq, isActive, ...row }) => {
      if (row.balance === null) return { ...row, frozenAmount: null };
      const mirror = await syncStep(ctx.redis, ctx.config.REDIS_PREFIX, row.id, {
        balance: row.balance,
        seq: recordSeq ?? 0,
        active: isActive ?? true,
      });
      return { ...row, balance: mirror.base - mirror.pending - mirror.frozen, frozenAmount: mirror.frozen };
    }),
  );
  return { ...page, items: live };
}

export type DirectoryOrganization = Awaited<ReturnType<typeof listAllOrganizations>>['items'][number];

/** 404 Organization.NotFound unless the organization exists (any organization: the caller is a platform Admin). */
export async function assertOrganizationExists(db: Database, organizationId: string): Promise<void> {
  const missing = () => notFound('Organization.NotFound', 'No such organization.');
  if (!isUuid(organizationId)) throw missing();
  const [row] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  if (!row) throw missing();
}
