// Reports on published items: one open report per account and item (a repeat answers the open one), listed and
// resolved by moderators.

import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import type { Database } from '../db/client.js';
import { readPage } from '../db/page.js';
import { catalogItems, catalogReports } from '../db/schema/index.js';
import { isUuid } from '../validation/uuid.js';
import { catalogErrors } from './catalog-errors.js';
import { type ItemType, isSlug } from './item-types.js';

export async function reportItem(
  ctx: AppContext,
  type: ItemType,
  slug: string,
  accountId: string,
  input: { reason: string; detail?: string },
) {
  if (!isSlug(slug)) throw catalogErrors.itemNotFound(type);
  const [item] = await ctx.db
    .select({ id: catalogItems.id })
    .from(catalogItems)
    .where(and(eq(catalogItems.type, type), eq(catalogItems.slug, slug), isNotNull(catalogItems.currentVersionId)));
  if (!item) throw catalogErrors.itemNotFound(type, `No published ${type} "${slug}"`);
  for (;;) {
    const [created] = await ctx.db
      .insert(catalogReports)
      .values({ itemId: item.id, reporterAccountId: accountId, reason: input.reason, detail: input.detail ?? null })
      .onConflictDoNothing({
        target: [catalogReports.itemId, catalogReports.reporterAccountId],
        where: sql`status = 'open'`,
      })
      .returning({ id: catalogReports.id, status: catalogReports.status });
    if (created) return created;
    const [open] = await ctx.db
      .select({ id: catalogReports.id, status: catalogReports.status })
      .from(catalogReports)
      .where(
        and(
          eq(catalogReports.itemId, item.id),
          eq(catalogReports.reporterAccountId, accountId),
          eq(catalogReports.status, 'open'),
        ),
      );
    // The open report may have been resolved between the two statements; then the next insert succeeds.
    if (open) return open;
  }
}

export async function listReports(
  db: Database,
  query: { status?: 'open' | 'resolved'; page: number; pageSize: number },
) {
  const where = query.status ? eq(catalogReports.status, query.status) : undefined;
  const reports = db
    .select({
      report: catalogReports,
      itemType: catalogItems.type,
      itemSlug: catalogItems.slug,
      itemName: catalogItems.name,
    })
    .from(catalogReports)
    .innerJoin(catalogItems, eq(catalogItems.id, catalogReports.itemId))
    .where(where)
    .orderBy(desc(catalogReports.createdAt), desc(catalogReports.id));
  return readPage(db, reports, catalogReports, where, query);
}

export type ReportListRow = Awaited<ReturnType<typeof listReports>>['items'][number];

export async function resolveReport(db: Database, reportId: string, moderatorAccountId: string, resolution?: string) {
  if (!isUuid(reportId)) throw catalogErrors.reportNotFound();
  return db.transaction(async (tx) => {
    const [report] = await tx.select().from(catalogReports).where(eq(catalogReports.id, reportId)).for('update');
    if (!report) throw catalogErrors.reportNotFound();
    if (report.status !== 'open') throw catalogErrors.reportNotOpen();
    const [resolved] = await tx
      .update(catalogReports)
      .set({
        status: 'resolved',
        resolvedAt: new Date(),
        resolvedBy: moderatorAccountId,
        resolution: resolution ?? null,
      })
      .where(eq(catalogReports.id, reportId))
      .returning();
    return resolved!;
  });
}
