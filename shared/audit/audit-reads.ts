// Reading the audit log: newest first, paged, filtered by organization, action and a time range [from, to).
import { and, count, desc, eq, getTableColumns, gte, lt, sql } from 'drizzle-orm';
import type { DbExecutor } from '../db/client.js';
import { accounts, auditLog, organizationMemberships } from '../db/schema/index.js';
import type { AuditAction } from './audit-log.js';

/**
 * A row, and where its actor stands now: a member of the row's organization or not, a platform Admin or not. An
 * organization's copy of the log shows less of an actor who is not its member (audit-log.presenters.ts).
 */
export type AuditRow = typeof auditLog.$inferSelect & { actorIsMember: boolean; actorIsPlatformAdmin: boolean };

export type AuditFilter = {
  /** One organization's entries; `undefined` for every entry (platform Admins). */
  organizationId?: string | undefined;
  action?: AuditAction | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  page: number;
  size: number;
};

export async function listAuditEntries(
  db: DbExecutor,
  filter: AuditFilter,
): Promise<{ rows: AuditRow[]; total: number }> {
  const where = and(
    filter.organizationId ? eq(auditLog.organizationId, filter.organizationId) : undefined,
    filter.action ? eq(auditLog.action, filter.action) : undefined,
    filter.from ? gte(auditLog.occurredAt, filter.from) : undefined,
    filter.to ? lt(auditLog.occurredAt, filter.to) : undefined,
  );
  const [rows, [totals]] = await Promise.all([
    db
      .select({
        ...getTableColumns(auditLog),
        actorIsMember: sql<boolean>`exists (select 1 from ${organizationMemberships} where ${organizationMemberships.organizationId} = ${auditLog.organizationId} and ${organizationMemberships.accountId} = ${auditLog.actorAccountId})`,
        actorIsPlatformAdmin: sql<boolean>`coalesce((select 'Admin' = any(${accounts.roles}) from ${accounts} where ${accounts.id} = ${auditLog.actorAccountId}), false)`,
      })
      .from(auditLog)
      .where(where)
      .orderBy(desc(auditLog.occurredAt), desc(auditLog.id))
      .limit(filter.size)
      .offset((filter.page - 1) * filter.size),
    db.select({ total: count() }).from(auditLog).where(where),
  ]);
  return { rows, total: totals?.total ?? 0 };
}
