// The skill-bundle worker's job at submit-review: parse SKILL.md and the stored bundle of the version in review,
// then store the version's contents, or send the item back as changes_requested with every reason. Idempotent:
// a job whose version has left review, or was submitted again since, does nothing; a job that arrives before the
// submit committed retries. One account's reviews run SKILL_REVIEWS_PER_ACCOUNT at a time over every worker (its
// others wait), so one Publisher's submits cannot hold every slot of the queue (a review finding,
// docs/skill-bundles.md "One account's share").
import { and, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import { catalogItems, catalogTransitions, catalogVersions, publishers } from '../db/schema/index.js';
import { type TenantShare, withinTenantShare } from '../queues/tenant-share.js';
import { SKILL_BUNDLE_LIMITS } from '../skills/bundle-limits.js';
import type { SkillBundleReview } from '../skills/skill-bundle-review.js';
import { lockItem } from './item-access.js';
import { requestChangesForBundle } from './review-workflow.js';
import { recordSkillContents } from './skill-contents.js';
import { unstorableCharacter, unstorableText } from './version-payloads.js';

export type BundleReviewer = (zip: Buffer) => Promise<SkillBundleReview>;
export type ParseOutcome = { outcome: 'parsed' | 'changes_requested' | 'skipped'; problems?: string[] };

export class SubmitNotVisibleYet extends Error {}

/** The longest one review may hold its place: the thread's wall time, plus reading the bundle and the verdict. */
const reviewShare = (config: AppContext['config']): TenantShare => ({
  name: 'skill-reviews',
  limit: config.SKILL_REVIEWS_PER_ACCOUNT,
  lifetimeMs: config.SKILL_REVIEW_TIMEOUT_MS + 60_000,
});

/**
 * `submittedAt` names the submit the job was queued by (jobs queued by earlier versions have none): a version
 * submitted again since (withdrawn and resubmitted) has a newer job of its own, so this one does nothing.
 * `{ deferred: true }`, nothing done, while the publishing account has its share of reviews running.
 */
export async function parseSubmittedBundle(
  ctx: AppContext,
  ref: { itemId: string; versionId: string; submittedAt?: string },
  review: BundleReviewer,
): Promise<ParseOutcome | { deferred: true }> {
  // One statement, so the version's status and its submit transition come from the same snapshot.
  const [row] = await ctx.db
    .select({
      version: catalogVersions,
      owner: publishers.ownerAccountId,
      submitted: sql<boolean>`exists (select 1 from ${catalogTransitions} where ${catalogTransitions.versionId} = ${catalogVersions.id} and ${catalogTransitions.action} = 'submit')`,
    })
    .from(catalogVersions)
    .innerJoin(catalogItems, eq(catalogItems.id, catalogVersions.itemId))
    .innerJoin(publishers, eq(publishers.id, catalogItems.publisherId))
    .where(and(eq(catalogVersions.id, ref.versionId), eq(catalogVersions.itemId, ref.itemId)));
  if (!row) return { outcome: 'skipped' };
  const { version } = row;
  const jobSubmit = ref.submittedAt ? Date.parse(ref.submittedAt) : undefined;
  const rowSubmit = version.submittedAt?.getTime();
  if (jobSubmit !== undefined && rowSubmit !== jobSubmit) {
    // An older submit visible: this job's submit has not committed yet. A newer one: this job is stale.
    if (rowSubmit === undefined || rowSubmit < jobSubmit) {
      throw new SubmitNotVisibleYet(`version ${version.id} is not in review yet`);
    }
    return { outcome: 'skipped' };
  }
  if (version.status !== 'in_review') {
    if (!row.submitted) throw new SubmitNotVisibleYet(`version ${version.id} is not in review yet`);
    return { outcome: 'skipped' };
  }
  // The entry names this submit, not the version alone: a job entering the share takes back an entry of its own name
  // (its earlier run, whose worker died), and the review of an earlier submit of the version may still be running
  // (security review #101).
  const holderId = `${version.id}@${version.submittedAt?.toISOString() ?? ''}`;
  return withinTenantShare(ctx, reviewShare(ctx.config), { tenantId: row.owner, holderId }, () =>
    reviewAndRecord(ctx, ref, version, review),
  );
}

async function reviewAndRecord(
  ctx: AppContext,
  ref: { itemId: string; versionId: string },
  version: typeof catalogVersions.$inferSelect,
  review: BundleReviewer,
): Promise<ParseOutcome> {
  const verdict: SkillBundleReview = version.bundleStorageKey
    ? await review(await ctx.storage.getBuffer(version.bundleStorageKey, SKILL_BUNDLE_LIMITS.maxCompressedBytes))
    : { ok: false, problems: ['The version has no uploaded bundle.'] };

  return ctx.db.transaction(async (tx) => {
    const item = await lockItem(tx, 'skill', ref.itemId);
    const [current] = await tx.select().from(catalogVersions).where(eq(catalogVersions.id, ref.versionId));
    // Withdrawn, or submitted again (perhaps with another bundle) while the review ran: that submit's job decides.
    const sameSubmit = current?.submittedAt?.getTime() === version.submittedAt?.getTime();
    if (current?.status !== 'in_review' || item.status !== 'in_review' || !sameSubmit) {
      return { outcome: 'skipped' as const };
    }
    const problems = verdict.ok ? [] : verdict.problems;
    if (verdict.ok) {
      const { bundleFiles, dependencies, examples, parameters } = verdict.manifest;
      const contents = { bundleFiles, dependencies, examples, parameters };
      // The payload column keeps text as written, and a NUL or an unpaired surrogate in it would break every `->>`
      // and `::jsonb` of the row (security review #127, #131); a UTF-8 file may hold a NUL, YAML's and JSON's escapes
      // either.
      const unstorable = unstorableCharacter(contents);
      if (!unstorable) {
        await recordSkillContents(tx, current.id, contents);
        return { outcome: 'parsed' as const };
      }
      problems.push(
        `The parsed SKILL.md or a dependency file holds ${unstorableText[unstorable]} (in an example, a parameter, a dependency or a file name), which cannot be stored.`,
      );
    }
    await requestChangesForBundle(tx, item, current, problems);
    return { outcome: 'changes_requested' as const, problems };
  });
}
