// Reads of the workflow side: a publisher's own items and one draft (its versions, the current and the pending one in
// full, and its newest transitions), the moderation queue, and the moderator's view of any item.

import { and, asc, count, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { Database, DbExecutor } from '../db/client.js';
import { readPage } from '../db/page.js';
import { accounts, catalogItems, catalogTransitions, catalogVersions, publishers } from '../db/schema/index.js';
import { isUuid } from '../validation/uuid.js';
import { catalogErrors } from './catalog-errors.js';
import { DETAIL_TRANSITIONS, MAX_VERSIONS_PER_ITEM } from './catalog-limits.js';
import type { ItemType } from './item-types.js';
import { reviewRevision } from './review-revision.js';

const pendingStatuses = ['draft', 'in_review', 'changes_requested', 'rejected'] as const;

const i = catalogItems;

const itemWithPublisher = {
  item: i,
  publisherSlug: publishers.slug,
  publisherName: publishers.name,
  verified: publishers.verified,
};

export async function listOwnItems(db: Database, type: ItemType, accountId: string) {
  const rows = await db
    .select(itemWithPublisher)
    .from(i)
    .innerJoin(publishers, eq(publishers.id, i.publisherId))
    .where(and(eq(i.type, type), eq(publishers.ownerAccountId, accountId)))
    .orderBy(desc(i.updatedAt), desc(i.id));
  return withVersionNumbers(db, rows);
}

/** What the version list of a draft detail shows of every version: no readme, changelog or payload. */
const versionSummary = {
  id: catalogVersions.id,
  version: catalogVersions.version,
  status: catalogVersions.status,
  createdAt: catalogVersions.createdAt,
  submittedAt: catalogVersions.submittedAt,
  publishedAt: catalogVersions.publishedAt,
  hasBundle: sql<boolean>`${catalogVersions.bundleStorageKey} is not null`,
  bundleUploadedAt: catalogVersions.bundleUploadedAt,
};

/**
 * One item for its owner (`ownerAccountId`) or, when that is omitted, for a moderator. Every version (newest first,
 * at most MAX_VERSIONS_PER_ITEM) comes as a summary; only the two a reader acts on are read in full: the current
 * (published) one and the pending one (the newest not yet published or superseded). So one read loads at most two
 * versions' bodies however many versions the item holds, and the newest DETAIL_TRANSITIONS transitions. With its
 * review revision, from one read-only snapshot, so the revision names exactly the content returned beside it.
 */
export function getDraftDetail(db: Database, type: ItemType, itemId: string, ownerAccountId?: string) {
  if (!isUuid(itemId)) throw catalogErrors.itemNotFound(type);
  return db.transaction((tx) => readDraftDetail(tx, type, itemId, ownerAccountId), {
    isolationLevel: 'repeatable read',
    accessMode: 'read only',
  });
}

async function readDraftDetail(db: DbExecutor, type: ItemType, itemId: string, ownerAccountId?: string) {
  const conditions = [eq(i.id, itemId), eq(i.type, type)];
  if (ownerAccountId) conditions.push(eq(publishers.ownerAccountId, ownerAccountId));
  const [row] = await db
    .select(itemWithPublisher)
    .from(i)
    .innerJoin(publishers, eq(publishers.id, i.publisherId))
    .where(and(...conditions));
  if (!row) throw catalogErrors.itemNotFound(type);
  // One after another: `db` is a transaction, one connection, which runs one statement at a time (node-postgres
  // queued statements sent together, and deprecates that; pg 9 refuses it).
  const versions = await db
    .select(versionSummary)
    .from(catalogVersions)
    .where(eq(catalogVersions.itemId, itemId))
    .orderBy(desc(catalogVersions.createdAt), desc(catalogVersions.id))
    .limit(MAX_VERSIONS_PER_ITEM);
  // Each step with its actor's display name now. The owner's copy names only the owner: a moderator who acted is
  // "a moderator" to the publisher (docs/console.md, "Who acted"), by neither name nor account id (below).
  const newestTransitions = await db
    .select({ ...getTableColumns(catalogTransitions), actorName: accounts.name })
    .from(catalogTransitions)
    .leftJoin(
      accounts,
      and(
        eq(accounts.id, catalogTransitions.actorAccountId),
        ownerAccountId ? eq(accounts.id, ownerAccountId) : undefined,
      ),
    )
    .where(eq(catalogTransitions.itemId, itemId))
    .orderBy(desc(catalogTransitions.createdAt), desc(catalogTransitions.id))
    .limit(DETAIL_TRANSITIONS);
  const [transitionCount] = await db
    .select({ n: count() })
    .from(catalogTransitions)
    .where(eq(catalogTransitions.itemId, itemId));
  const pending = versions.find((v) => (pendingStatuses as readonly string[]).includes(v.status));
  const fullIds = [pending?.id, row.item.currentVersionId].filter((id): id is string => Boolean(id));
  const full =
    fullIds.length === 0 ? [] : await db.select().from(catalogVersions).where(inArray(catalogVersions.id, fullIds));
  const fullVersions = new Map(full.map((v) => [v.id, v]));
  // Every transition counts towards the revision, not only the newest ones listed.
  const revision = reviewRevision(row.item, pending && fullVersions.get(pending.id), transitionCount?.n ?? 0);
  const transitions = newestTransitions.reverse().map((t) => withActedBy(t, ownerAccountId));
  return { ...row, versions, fullVersions, transitions, reviewRevision: revision };
}

/** The steps only a moderator takes (a seed's approval, and the bundle check's sending back, have no actor). */
const moderatorActions = new Set(['approve', 'request_changes', 'reject', 'remove']);

/**
 * Who took a step, by kind: `system` (no actor: the skill-bundle check, the seed), `moderator`, or `publisher`. In the
 * owner's copy (`ownerAccountId`) a step another account took keeps no account id: an organization's member list
 * pairs ids with names, so a moderator's id named the moderator to a publisher who shares an organization with them
 * (review round 20, #156).
 */
function withActedBy<T extends { actorAccountId: string | null; action: string }>(t: T, ownerAccountId?: string) {
  const actedBy =
    t.actorAccountId === null ? 'system' : moderatorActions.has(t.action) ? 'moderator' : ('publisher' as const);
  const hidden = ownerAccountId !== undefined && t.actorAccountId !== ownerAccountId;
  return { ...t, actorAccountId: hidden ? null : t.actorAccountId, actedBy: actedBy as ActedBy };
}

export type ActedBy = 'system' | 'moderator' | 'publisher';

export type DraftDetail = Awaited<ReturnType<typeof getDraftDetail>>;

/** Items waiting for a decision, oldest submission first. */
export async function listReviewQueue(db: Database, query: { type?: ItemType; page: number; pageSize: number }) {
  const where = and(eq(i.status, 'in_review'), query.type ? eq(i.type, query.type) : undefined);
  const queue = db
    .select(itemWithPublisher)
    .from(i)
    .innerJoin(publishers, eq(publishers.id, i.publisherId))
    .where(where)
    .orderBy(asc(i.updatedAt), asc(i.id));
  const page = await readPage(db, queue, i, where, query);
  const withVersions = await withVersionNumbers(db, page.items);
  const comments = await submitComments(
    db,
    withVersions.flatMap((r) => r.pendingVersion?.id ?? []),
  );
  const items = withVersions.map((r) => ({ ...r, submitComment: comments.get(r.pendingVersion?.id ?? '') }));
  return { ...page, items };
}

/** The comment of each version's latest submit (it goes to the reviewers). */
async function submitComments(db: Database, versionIds: string[]) {
  if (versionIds.length === 0) return new Map<string, string | null>();
  const rows = await db
    .selectDistinctOn([catalogTransitions.versionId], {
      versionId: catalogTransitions.versionId,
      comment: catalogTransitions.comment,
    })
    .from(catalogTransitions)
    .where(
      and(
        eq(catalogTransitions.action, 'submit'),
        sql`${catalogTransitions.versionId} = any(${sql.param(versionIds)}::uuid[])`,
      ),
    )
    .orderBy(catalogTransitions.versionId, desc(catalogTransitions.createdAt));
  return new Map(rows.map((r) => [r.versionId as string, r.comment]));
}

export type QueueRow = Awaited<ReturnType<typeof listReviewQueue>>['items'][number];

type ItemWithPublisher = {
  item: typeof catalogItems.$inferSelect;
  publisherSlug: string;
  publisherName: string;
  verified: boolean;
};

/** Adds the current (published) and the pending version of each item, in one query. */
async function withVersionNumbers<T extends ItemWithPublisher>(db: Database, rows: T[]) {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.item.id);
  const pending = await db
    .selectDistinctOn([catalogVersions.itemId], {
      itemId: catalogVersions.itemId,
      id: catalogVersions.id,
      version: catalogVersions.version,
      status: catalogVersions.status,
      submittedAt: catalogVersions.submittedAt,
    })
    .from(catalogVersions)
    .where(
      and(
        sql`${catalogVersions.itemId} = any(${sql.param(ids)}::uuid[])`,
        sql`${catalogVersions.status} in ('draft', 'in_review', 'changes_requested', 'rejected')`,
      ),
    )
    .orderBy(catalogVersions.itemId, desc(catalogVersions.createdAt), desc(catalogVersions.id));
  const current = await db
    .select({ id: catalogVersions.id, version: catalogVersions.version })
    .from(catalogVersions)
    .where(sql`${catalogVersions.id} = any(${sql.param(rows.flatMap((r) => r.item.currentVersionId ?? []))}::uuid[])`);
  const pendingBy = new Map(pending.map((p) => [p.itemId, p]));
  const currentBy = new Map(current.map((c) => [c.id, c.version]));
  return rows.map((r) => ({
    ...r,
    pendingVersion: pendingBy.get(r.item.id),
    currentVersion: r.item.currentVersionId ? currentBy.get(r.item.currentVersionId) : undefined,
  }));
}

export type WorkflowListRow = Awaited<ReturnType<typeof listOwnItems>>[number];
