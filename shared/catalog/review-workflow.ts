// The review state machine: a publisher submits or withdraws the pending version; a moderator approves it (the
// version is published and becomes the item's current version), requests changes, or rejects it.
import { eq } from 'drizzle-orm';
import { type AuditActor, recordAudit } from '../audit/audit-log.js';
import type { AppContext } from '../context.js';
import type { DbExecutor } from '../db/client.js';
import { catalogItems, catalogVersions } from '../db/schema/index.js';
import { catalogErrors } from './catalog-errors.js';
import { catalogChanged } from './change-feed.js';
import type { MutationResult } from './drafts.js';
import { type ItemRow, lockItem, lockOwnItem, pendingVersion, type VersionRow } from './item-access.js';
import type { ItemType } from './item-types.js';
import { checkReviewRevision, type RevisionPrecondition } from './review-revision.js';
import { enqueueSkillBundleParse } from './skill-bundle-hook.js';
import { recordTransition } from './transitions.js';
import { bundleExecutesCode, type McpPayload, type SkillPayload, skillPayload } from './version-payloads.js';

const result = (item: ItemRow, status: ItemRow['status'], version: VersionRow): MutationResult => ({
  id: item.id,
  type: item.type,
  slug: item.slug,
  status,
  versionId: version.id,
  version: version.version,
});

export async function submitForReview(
  ctx: AppContext,
  type: ItemType,
  accountId: string,
  itemId: string,
  comment?: string,
  /**
   * Only the demo seed sets this: it has recorded its skills' contents itself (reviewing its own bundles with the
   * worker's review), so no bundle is required and no parse is queued.
   */
  options: { contentsRecorded?: boolean } = {},
): Promise<MutationResult> {
  const needsBundle = type === 'skill' && !options.contentsRecorded;
  return ctx.db.transaction(async (tx) => {
    const item = await lockOwnItem(tx, type, accountId, itemId);
    if (item.status === 'in_review') throw catalogErrors.alreadyInReview(type);
    const version = item.status === 'published' ? undefined : await pendingVersion(tx, item.id);
    if (!version) throw catalogErrors.nothingToSubmit(type);
    if (needsBundle && !version.bundleStorageKey) throw catalogErrors.bundleMissing(version.version);
    const now = new Date();
    // A bundle to parse: what an earlier parse found is cleared, so nobody sees or approves it as this bundle's
    // contents before the worker has parsed the bundle submitted now (the moderator's page waits for it).
    await tx
      .update(catalogVersions)
      .set({
        status: 'in_review',
        submittedAt: now,
        updatedAt: now,
        ...(needsBundle ? { payload: skillPayload.parse({}) } : {}),
      })
      .where(eq(catalogVersions.id, version.id));
    await tx.update(catalogItems).set({ status: 'in_review', updatedAt: now }).where(eq(catalogItems.id, item.id));
    await recordTransition(tx, {
      itemId: item.id,
      versionId: version.id,
      actorAccountId: accountId,
      action: 'submit',
      from: item.status,
      to: 'in_review',
      comment,
    });
    // Last step inside the transaction: if Redis refuses the job, the submit rolls back.
    if (needsBundle) {
      await enqueueSkillBundleParse(ctx, { itemId: item.id, versionId: version.id, submittedAt: now });
    }
    return result(item, 'in_review', version);
  });
}

/** Returns an item in review to draft; in any other state it is 409 `<Type>.NotInReview`. */
export async function withdrawFromReview(
  ctx: AppContext,
  type: ItemType,
  accountId: string,
  itemId: string,
): Promise<MutationResult> {
  return ctx.db.transaction(async (tx) => {
    const item = await lockOwnItem(tx, type, accountId, itemId);
    const version = await inReviewVersion(tx, type, item);
    await moveTo(tx, item, version, 'draft', { actorAccountId: accountId, action: 'withdraw' });
    return result(item, 'draft', version);
  });
}

export type Decision = 'approve' | 'request_changes' | 'reject';

/**
 * `expected` is the review revision the moderator saw (`If-Match`): when the item has changed since, the decision is
 * `412 Review.Stale` and nothing is decided. Without it (the seed's `{comment?}` contract) the decision concerns
 * whatever is in review now.
 */
export async function decideReview(
  ctx: AppContext,
  type: ItemType,
  moderatorAccountId: string,
  itemId: string,
  decision: Decision,
  comment?: string,
  expected?: RevisionPrecondition,
  /** Who decided, for the audit log row written in the decision's transaction (the seed passes none). */
  audit?: AuditActor,
): Promise<MutationResult> {
  const decided = await ctx.db.transaction(async (tx) => {
    const item = await lockItem(tx, type, itemId);
    const version = await inReviewVersion(tx, type, item);
    await checkReviewRevision(tx, item, version, expected);
    if (decision === 'approve' && awaitsBundleParse(type, version))
      throw catalogErrors.bundleNotParsed(version.version);
    const to = decision === 'approve' ? 'published' : decision === 'reject' ? 'rejected' : 'changes_requested';
    await moveTo(tx, item, version, to, { actorAccountId: moderatorAccountId, action: decision, comment });
    if (decision === 'approve') await publish(tx, item, version);
    if (audit) {
      await recordAudit(tx, audit, {
        action: `catalog_item.${decision}`,
        target: { type: 'catalog_item', id: item.id },
        before: { status: item.status },
        after: { type, slug: item.slug, version: version.version, status: to, comment: comment ?? null },
      });
    }
    return result(item, to, version);
  });
  if (decision === 'approve') catalogChanged(ctx.db);
  return decided;
}

/**
 * A skill version whose submitted bundle the worker has not parsed yet (submitting cleared the earlier contents):
 * approving it would publish a SKILL.md nobody checked, and the parse, finding the item no longer in review, would
 * skip it for good. A seeded skill has its contents recorded before it is submitted.
 */
const awaitsBundleParse = (type: ItemType, version: VersionRow) =>
  type === 'skill' &&
  version.bundleStorageKey !== null &&
  (version.payload as SkillPayload | null)?.bundleFiles == null;

async function inReviewVersion(tx: DbExecutor, type: ItemType, item: ItemRow): Promise<VersionRow> {
  if (item.status !== 'in_review') throw catalogErrors.notInReview(type, item.status);
  const version = await pendingVersion(tx, item.id);
  if (version?.status !== 'in_review') throw catalogErrors.notInReview(type, item.status);
  return version;
}

async function moveTo(
  tx: DbExecutor,
  item: ItemRow,
  version: VersionRow,
  to: 'draft' | 'published' | 'changes_requested' | 'rejected',
  entry: { actorAccountId: string | null; action: 'withdraw' | Decision; comment?: string },
) {
  const now = new Date();
  await tx
    .update(catalogVersions)
    .set({ status: to, updatedAt: now, ...(to === 'published' ? { publishedAt: now } : {}) })
    .where(eq(catalogVersions.id, version.id));
  await tx.update(catalogItems).set({ status: to, updatedAt: now }).where(eq(catalogItems.id, item.id));
  await recordTransition(tx, { itemId: item.id, versionId: version.id, from: item.status, to, ...entry });
}

/** Makes the approved version current, applies waiting metadata edits, and refreshes the type's summary fields. */
async function publish(tx: DbExecutor, item: ItemRow, version: VersionRow) {
  const typeFields: Partial<ItemRow> = {};
  if (item.type === 'mcp') {
    const payload = version.payload as McpPayload | null;
    typeFields.primaryTransport = payload?.connections[0]?.transport ?? null;
    typeFields.toolCount = payload?.tools.length ?? 0;
  }
  if (item.type === 'skill') typeFields.executesCode = bundleExecutesCode(version.payload as SkillPayload | null);
  await tx
    .update(catalogItems)
    .set({
      ...(item.pendingChanges ?? {}),
      ...typeFields,
      pendingChanges: null,
      currentVersionId: version.id,
      publishedAt: new Date(),
    })
    .where(eq(catalogItems.id, item.id));
}

/**
 * The skill-bundle worker's verdict on a submitted bundle that fails the parse: the item goes back to the
 * publisher as changes_requested, every reason in the comment, recorded without a human actor.
 */
export async function requestChangesForBundle(tx: DbExecutor, item: ItemRow, version: VersionRow, reasons: string[]) {
  await moveTo(tx, item, version, 'changes_requested', {
    actorAccountId: null,
    action: 'request_changes',
    comment: `The skill bundle did not pass the automatic check:\n- ${reasons.join('\n- ')}`,
  });
}
