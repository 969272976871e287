// Reading the audit log: newest first, paged, filtered by organization, action and a time range [from, to).
import { and, count, desc, eq, getTableColumns, gte, inArray, lt, sql } from 'drizzle-orm';
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

/**
 * How many entries past the page `total` counts at most. Counting every matching entry took 100–430 ms of PostgreSQL
 * per page at a million rows (review round 21), on every page an Admin opened; counting up to 10,000 past the page
 * costs a few milliseconds, and past that `total` is a lower bound (`totalExact: false`) that still shows a next page.
 */
export const AUDIT_COUNT_AHEAD = 10_000;

export async function listAuditEntries(
  db: DbExecutor,
  filter: AuditFilter,
  countAhead = AUDIT_COUNT_AHEAD,
): Promise<{ rows: AuditRow[]; total: number; totalExact: boolean }> {
  const where = and(
    filter.organizationId ? eq(auditLog.organizationId, filter.organizationId) : undefined,
    filter.action ? eq(auditLog.action, filter.action) : undefined,
    filter.from ? gte(auditLog.occurredAt, filter.from) : undefined,
    filter.to ? lt(auditLog.occurredAt, filter.to) : undefined,
  );
  const offset = (filter.page - 1) * filter.size;
  const bound = offset + filter.size + countAhead;
  const [page, [counted]] = await Promise.all([
    db
      .select(getTableColumns(auditLog))
      .from(auditLog)
      .where(where)
      .orderBy(desc(auditLog.occurredAt), desc(auditLog.id))
      .limit(filter.size)
      .offset(offset),
    db.select({ n: count() }).from(
      db
        .select({ one: sql`1`.as('one') })
        .from(auditLog)
        .where(where)
        .limit(bound + 1)
        .as('bounded'),
    ),
  ]);
  // One more than the bound tells whether the bound is the whole count.
  const n = counted?.n ?? 0;
  return { rows: await withActorStanding(db, page), total: Math.min(n, bound), totalExact: n <= bound };
}

/**
 * Where the page's actors stand now, read for the page's rows alone: as subqueries of the page's select they ran for
 * every row an offset skipped too (400,000 account lookups for a page 4,000 pages deep).
 */
async function withActorStanding(db: DbExecutor, rows: (typeof auditLog.$inferSelect)[]): Promise<AuditRow[]> {
  const actorIds = [...new Set(rows.flatMap((r) => (r.actorAccountId ? [r.actorAccountId] : [])))];
  const organizationIds = [...new Set(rows.flatMap((r) => (r.organizationId ? [r.organizationId] : [])))];
  const [admins, memberships] =
    actorIds.length === 0
      ? [[], []]
      : await Promise.all([
          db
            .select({ id: accounts.id })
            .from(accounts)
            .where(and(inArray(accounts.id, actorIds), sql`'Admin' = any(${accounts.roles})`)),
          organizationIds.length === 0
            ? []
            : db
                .select({
                  organizationId: organizationMemberships.organizationId,
                  accountId: organizationMemberships.accountId,
                })
                .from(organizationMemberships)
                .where(
                  and(
                    inArray(organizationMemberships.accountId, actorIds),
                    inArray(organizationMemberships.organizationId, organizationIds),
                  ),
                ),
        ]);
  const adminIds = new Set(admins.map((a) => a.id));
  const members = new Set(memberships.map((m) => `${m.organizationId}/${m.accountId}`));
  return rows.map((r) => ({
    ...r,
    actorIsMember: r.actorAccountId !== null && members.has(`${r.organizationId}/${r.actorAccountId}`),
    actorIsPlatformAdmin: r.actorAccountId !== null && adminIds.has(r.actorAccountId),
  }));
}
