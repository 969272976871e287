// The hand-off to the skill-bundle worker at submit-review: it parses SKILL.md and the stored bundle of the version
// and writes the result (or moves the item to changes_requested). The job is enqueued inside the submit's
// transaction, so it may start a moment before the commit is visible: the worker should retry while the version is
// not yet in_review, and ignore the job once the version has left in_review.
import type { AppContext } from '../context.js';

export async function enqueueSkillBundleParse(
  ctx: Pick<AppContext, 'queues'>,
  ref: { itemId: string; versionId: string },
): Promise<void> {
  await ctx.queues.add('skill-bundle', 'parse', ref);
}
