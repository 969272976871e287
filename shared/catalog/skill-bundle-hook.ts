// The hand-off to the skill-bundle worker at submit-review: it parses SKILL.md and the stored bundle of the version
// and writes the result (or moves the item to changes_requested). The job is enqueued inside the submit's
// transaction, so it may start a moment before the commit is visible: the worker should retry while the version is
// not yet in_review, and ignore the job once the version has left in_review.
import type { AppContext } from '../context.js';

export async function enqueueSkillBundleParse(
  ctx: Pick<AppContext, 'queues'>,
  ref: { itemId: string; versionId: string; submittedAt: Date },
): Promise<void> {
  const { submittedAt, ...ids } = ref;
  // The submit time names this submit: a job of an earlier submit of the same version then does nothing.
  await ctx.queues.add('skill-bundle', 'parse', { ...ids, submittedAt: submittedAt.toISOString() });
}
