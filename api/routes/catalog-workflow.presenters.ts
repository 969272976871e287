// JSON of the catalog workflow, shared by the publisher and moderation areas: namespaces, own items, a draft (its
// versions, the current and pending ones in full, and its newest transitions), mutation results, queue entries and
// reports. Pending metadata edits are shown merged.
import type { MutationResult } from '../../shared/catalog/drafts.js';
import type { OwnDecisionRow } from '../../shared/catalog/moderator-decisions.js';
import type { ReportListRow } from '../../shared/catalog/reports.js';
import type { ActedBy, DraftDetail, QueueRow, WorkflowListRow } from '../../shared/catalog/workflow-reads.js';
import type { catalogReports, catalogTransitions, publishers } from '../../shared/db/schema/index.js';
import { entityTag } from '../http/if-match.js';
import { withoutNulls } from '../http/json.js';
import { type DownloadUrls, presentItemStats, presentVersionDetail } from './catalog/catalog.presenters.js';

type Item = DraftDetail['item'];

export function presentPublisher(row: typeof publishers.$inferSelect) {
  return withoutNulls({
    id: row.id,
    slug: row.slug,
    name: row.name,
    verified: row.verified,
    createdAt: row.createdAt,
  });
}

export const presentMutation = (result: MutationResult) => withoutNulls(result);

/** The item as its publisher will see it once the pending edits are approved. */
function editedMetadata(item: Item) {
  const merged = { ...item, ...(item.pendingChanges ?? {}) } as Item;
  return {
    name: merged.name,
    summary: merged.summary,
    description: merged.description,
    iconUrl: merged.iconUrl,
    tags: merged.tags,
    categories: merged.categories,
  };
}

function itemHeader(row: { item: Item; publisherSlug: string; publisherName: string; verified: boolean }) {
  const { item } = row;
  return {
    id: item.id,
    type: item.type,
    slug: item.slug,
    ...editedMetadata(item),
    status: item.status,
    isPublished: item.currentVersionId !== null,
    hasPendingChanges: item.pendingChanges !== null,
    publisherSlug: row.publisherSlug,
    publisherName: row.publisherName,
    source: row.verified ? 'official' : 'user',
    isFeatured: item.isFeatured,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
    publishedAt: item.publishedAt,
  };
}

export function presentWorkflowEntry(row: WorkflowListRow) {
  return withoutNulls({
    ...itemHeader(row),
    currentVersion: row.currentVersion,
    pendingVersion: row.pendingVersion
      ? withoutNulls({
          id: row.pendingVersion.id,
          version: row.pendingVersion.version,
          status: row.pendingVersion.status,
          submittedAt: row.pendingVersion.submittedAt,
        })
      : null,
  });
}

/** An item in its owner's list: the entry and, for the publisher to see how it does, its counters and rating. */
export function presentOwnEntry(row: WorkflowListRow) {
  return { ...presentWorkflowEntry(row), stats: presentItemStats(row.item) };
}

export function presentTransition(
  t: typeof catalogTransitions.$inferSelect & { actorName?: string | null; actedBy: ActedBy },
) {
  return withoutNulls({
    action: t.action,
    actedBy: t.actedBy,
    from: t.fromStatus,
    to: t.toStatus,
    comment: t.comment,
    actorId: t.actorAccountId,
    actorName: t.actorName,
    versionId: t.versionId,
    at: t.createdAt,
  });
}

export function presentDraftDetail(detail: DraftDetail, urls: DownloadUrls) {
  const { item } = detail;
  return {
    ...withoutNulls(itemHeader(detail)),
    stats: presentItemStats(item),
    // Every version as a summary; the current and the pending one (`full: true`) with readme, changelog and fields.
    versions: detail.versions.map((v) => {
      const full = detail.fullVersions.get(v.id);
      return withoutNulls({
        ...(full
          ? presentVersionDetail(item.type, full, urls)
          : { id: v.id, version: v.version, createdAt: v.createdAt, publishedAt: v.publishedAt }),
        status: v.status,
        submittedAt: v.submittedAt,
        isCurrent: v.id === item.currentVersionId,
        full: full !== undefined,
        ...(item.type === 'skill' ? { hasBundle: v.hasBundle, bundleUploadedAt: v.bundleUploadedAt } : {}),
      });
    }),
    transitions: detail.transitions.map(presentTransition),
    reviewRevision: detail.reviewRevision,
  };
}

/** The detail's review revision as a strong ETag (what `If-Match` on a decision names); private and never stored. */
export function draftDetailHeaders(detail: DraftDetail): Record<string, string> {
  return { etag: entityTag(detail.reviewRevision), 'cache-control': 'no-store' };
}

export function presentReport(row: ReportListRow | { report: typeof catalogReports.$inferSelect }) {
  const { report } = row;
  return withoutNulls({
    id: report.id,
    status: report.status,
    reason: report.reason,
    detail: report.detail,
    reporterId: report.reporterAccountId,
    itemId: report.itemId,
    ...('itemSlug' in row
      ? {
          itemType: row.itemType,
          itemSlug: row.itemSlug,
          itemName: row.itemName,
          publisherSlug: row.publisherSlug,
          publisherName: row.publisherName,
          source: row.publisherVerified ? 'official' : 'user',
        }
      : {}),
    resolution: report.resolution,
    resolvedBy: report.resolvedBy,
    resolvedAt: report.resolvedAt,
    createdAt: report.createdAt,
  });
}

export function presentQueueEntry(row: QueueRow) {
  return { ...presentWorkflowEntry(row), ...withoutNulls({ submitComment: row.submitComment }) };
}

/** One of the caller's own moderation decisions, with the item (and version) it was about. */
export function presentOwnDecision(row: OwnDecisionRow) {
  const { transition: t } = row;
  return withoutNulls({
    id: t.id,
    action: t.action,
    itemId: t.itemId,
    itemType: row.itemType,
    itemSlug: row.itemSlug,
    itemName: row.itemName,
    versionId: t.versionId,
    version: row.version,
    from: t.fromStatus,
    to: t.toStatus,
    comment: t.comment,
    at: t.createdAt,
  });
}
