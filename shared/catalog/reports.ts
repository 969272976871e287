// Reports on published items: one open report per account and item (a repeat answers the open one), listed and
// resolved by moderators.

import { and, asc, desc, eq, inArray, isNotNull, or, type SQL, sql } from 'drizzle-orm';
import { type AuditActor, recordAudit } from '../audit/audit-log.js';
import type { AppContext } from '../context.js';
import type { Database, DbExecutor } from '../db/client.js';
import { readPage } from '../db/page.js';
import { catalogItems, catalogReports, publishers } from '../db/schema/index.js';
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

export type ReportsQuery = {
  status?: 'open' | 'resolved';
  /** Only reports on the items of this publisher namespace (its slug). */
  publisher?: string;
  /** `newest` (the default) or `oldest` first, by when the report was made; ties break on id. */
  sort?: 'newest' | 'oldest';
  page: number;
  pageSize: number;
};

/** Reports with their item and the item's publisher (the public fields its page shows: slug, name, verification). */
export async function listReports(db: Database, query: ReportsQuery) {
  // The publisher filter is a subquery on the items, so the count (readPage's, on the reports alone) applies it too.
  const ofPublisher = query.publisher
    ? inArray(
        catalogReports.itemId,
        db
          .select({ id: catalogItems.id })
          .from(catalogItems)
          .innerJoin(publishers, eq(publishers.id, catalogItems.publisherId))
          .where(eq(publishers.slug, query.publisher)),
      )
    : undefined;
  const where = and(query.status ? eq(catalogReports.status, query.status) : undefined, ofPublisher);
  const order = query.sort === 'oldest' ? asc : desc;
  const reports = db
    .select({
      report: catalogReports,
      itemType: catalogItems.type,
      itemSlug: catalogItems.slug,
      itemName: catalogItems.name,
      publisherSlug: publishers.slug,
      publisherName: publishers.name,
      publisherVerified: publishers.verified,
    })
    .from(catalogReports)
    .innerJoin(catalogItems, eq(catalogItems.id, catalogReports.itemId))
    .innerJoin(publishers, eq(publishers.id, catalogItems.publisherId))
    .where(where)
    .orderBy(order(catalogReports.createdAt), order(catalogReports.id));
  return readPage(db, reports, catalogReports, where, query);
}

export type ReportListRow = Awaited<ReturnType<typeof listReports>>['items'][number];

export type ResolveOptions = {
  resolution?: string;
  /** Also resolve every other open report of the same item, with the same resolution, in the same transaction. */
  sameItem?: boolean;
  /** Who resolved, for the audit log: one `report.resolve` row per report resolved, in the same transaction. */
  audit?: AuditActor;
};

/**
 * Resolves one open report (`Report.NotOpen` if it is not open), and with `sameItem` every other report of its item
 * still open; `alsoResolved` lists those others. Exact under concurrency: the reports are resolved by an UPDATE on
 * `status = 'open'`, which a concurrent resolution of the same row waits for and then re-checks, so each report is
 * resolved once, by whichever action got it first.
 */
export async function resolveReport(
  db: Database,
  reportId: string,
  moderatorAccountId: string,
  options: ResolveOptions = {},
) {
  if (!isUuid(reportId)) throw catalogErrors.reportNotFound();
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select({ itemId: catalogReports.itemId })
      .from(catalogReports)
      .where(eq(catalogReports.id, reportId));
    if (!found) throw catalogErrors.reportNotFound();
    // Locked in id order, with the item's other open reports when they are resolved too: two such resolutions (or a
    // removal resolving the item's reports, lockItemReports) wait for each other instead of deadlocking.
    const locked = await lockReports(
      tx,
      options.sameItem
        ? or(
            eq(catalogReports.id, reportId),
            and(eq(catalogReports.itemId, found.itemId), eq(catalogReports.status, 'open')),
          )!
        : eq(catalogReports.id, reportId),
    );
    const report = locked.find((r) => r.id === reportId);
    if (!report) throw catalogErrors.reportNotFound();
    if (report.status !== 'open') throw catalogErrors.reportNotOpen();
    const resolved = await resolveOpenReports(tx, { reportId }, moderatorAccountId, options);
    const others = options.sameItem
      ? await resolveOpenReports(tx, { itemId: report.itemId }, moderatorAccountId, options)
      : [];
    return { report: resolved[0]!, alsoResolved: others.map((r) => r.id) };
  });
}

/**
 * Resolves the open reports of one item, as a moderator's removal of the item does when asked to
 * (`POST /api/v1/moderation/{type}/{id}/remove {resolveReports: true}`); returns their ids.
 */
export async function resolveItemReports(
  tx: DbExecutor,
  itemId: string,
  moderatorAccountId: string,
  options: Omit<ResolveOptions, 'sameItem'>,
) {
  await lockReports(tx, and(eq(catalogReports.itemId, itemId), eq(catalogReports.status, 'open'))!);
  return (await resolveOpenReports(tx, { itemId }, moderatorAccountId, options)).map((r) => r.id);
}

/** Locks reports in id order (every path that resolves several reports locks them so: no deadlock between them). */
const lockReports = (tx: DbExecutor, where: SQL) =>
  tx.select().from(catalogReports).where(where).orderBy(asc(catalogReports.id)).for('update');

async function resolveOpenReports(
  tx: DbExecutor,
  which: { reportId: string } | { itemId: string },
  moderatorAccountId: string,
  options: Omit<ResolveOptions, 'sameItem'>,
) {
  const resolved = await tx
    .update(catalogReports)
    .set({
      status: 'resolved',
      resolvedAt: new Date(),
      resolvedBy: moderatorAccountId,
      resolution: options.resolution ?? null,
    })
    .where(
      and(
        'reportId' in which ? eq(catalogReports.id, which.reportId) : eq(catalogReports.itemId, which.itemId),
        eq(catalogReports.status, 'open'),
      ),
    )
    .returning();
  if (options.audit) {
    for (const report of resolved) {
      await recordAudit(tx, options.audit, {
        action: 'report.resolve',
        target: { type: 'report', id: report.id },
        before: { status: 'open' },
        after: { itemId: report.itemId, status: 'resolved', resolution: report.resolution },
      });
    }
  }
  return resolved;
}
