// The skill-bundle worker's job at submit-review: parse SKILL.md and the stored bundle of the version in review,
// then store the version's contents, or send the item back as changes_requested with every reason. Idempotent:
// a job whose version has left review does nothing; a job that arrives before the submit committed retries.
import { and, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import { catalogTransitions, catalogVersions } from '../db/schema/index.js';
import { SKILL_BUNDLE_LIMITS } from '../skills/bundle-limits.js';
import type { SkillBundleReview } from '../skills/skill-bundle-review.js';
import { lockItem } from './item-access.js';
import { requestChangesForBundle } from './review-workflow.js';
import { recordSkillContents } from './skill-contents.js';

export type BundleReviewer = (zip: Buffer) => Promise<SkillBundleReview>;
export type ParseOutcome = { outcome: 'parsed' | 'changes_requested' | 'skipped'; problems?: string[] };

export class SubmitNotVisibleYet extends Error {}

export async function parseSubmittedBundle(
  ctx: AppContext,
  ref: { itemId: string; versionId: string },
  review: BundleReviewer,
): Promise<ParseOutcome> {
  // One statement, so the version's status and its submit transition come from the same snapshot.
  const [row] = await ctx.db
    .select({
      version: catalogVersions,
      submitted: sql<boolean>`exists (select 1 from ${catalogTransitions} where ${catalogTransitions.versionId} = ${catalogVersions.id} and ${catalogTransitions.action} = 'submit')`,
    })
    .from(catalogVersions)
    .where(and(eq(catalogVersions.id, ref.versionId), eq(catalogVersions.itemId, ref.itemId)));
  if (!row) return { outcome: 'skipped' };
  const { version } = row;
  if (version.status !== 'in_review') {
    if (!row.submitted) throw new SubmitNotVisibleYet(`version ${version.id} is not in review yet`);
    return { outcome: 'skipped' };
  }

  const verdict: SkillBundleReview = version.bundleStorageKey
    ? await review(await ctx.storage.getBuffer(version.bundleStorageKey, SKILL_BUNDLE_LIMITS.maxCompressedBytes))
    : { ok: false, problems: ['The version has no uploaded bundle.'] };

  return ctx.db.transaction(async (tx) => {
    const item = await lockItem(tx, 'skill', ref.itemId);
    const [current] = await tx.select().from(catalogVersions).where(eq(catalogVersions.id, ref.versionId));
    if (current?.status !== 'in_review' || item.status !== 'in_review') return { outcome: 'skipped' as const };
    if (verdict.ok) {
      const { bundleFiles, dependencies, examples, parameters } = verdict.manifest;
      await recordSkillContents(tx, current.id, { bundleFiles, dependencies, examples, parameters });
      return { outcome: 'parsed' as const };
    }
    await requestChangesForBundle(tx, item, current, verdict.problems);
    return { outcome: 'changes_requested' as const, problems: verdict.problems };
  });
}
