// The `video-rehost` job of a task whose upstream video is ready: stream it into object storage, then complete the
// task through a compare-and-set and settle its charge. Errors throw, so BullMQ retries the job with backoff; should
// it fail for good, the video sweep restarts the task's chain, whose next poll hands it over again.
import type { AppContext } from '../context.js';
import { type VideoProvider, videoProviderFor } from '../providers/video/index.js';
import { type AdvanceResult, settleFinished } from './video-advance.js';
import { closeTaskCharge } from './video-billing.js';
import { pollViewById } from './video-poll-store.js';
import { rehostVideo } from './video-rehost.js';
import { restartTaskChain } from './video-schedule.js';
import { isOpen, openStatuses, taskById, transition } from './video-store.js';

export async function completeVideoTask(
  ctx: AppContext,
  taskId: string,
  provider: VideoProvider = videoProviderFor(ctx.config),
): Promise<AdvanceResult> {
  const view = await pollViewById(ctx, taskId);
  if (!view) return 'missing';
  if (!isOpen(view.status)) return settleFinished({ ctx, provider }, taskId);
  const upstreamId = view.upstreamTaskId;
  // The upstream's download address is read again here: such addresses expire, and this job may have waited.
  const state = upstreamId ? await provider.status(upstreamId) : undefined;
  if (!upstreamId || state?.state !== 'succeeded') {
    // Not what the hand-off saw (the task moved to another upstream task): the chain takes it from here.
    await restartTaskChain(ctx, taskId);
    return 'superseded';
  }
  const stored = await rehostVideo(ctx, provider, taskId, upstreamId, state);
  const completed = await transition(ctx.db, taskId, openStatuses, {
    status: 'completed',
    progress: 100,
    objectKey: stored.objectKey,
    videoUrl: stored.videoUrl,
    objectStoreUrl: stored.objectStoreUrl,
    finishedAt: new Date(),
  });
  if (!completed) {
    // The key is the task's own: keep the file when a racing job completed the task with it.
    const now = await taskById(ctx.db, taskId);
    if (now?.objectKey !== stored.objectKey) await ctx.storage.delete(stored.objectKey).catch(() => undefined);
    if (now && !isOpen(now.status)) await settleFinished({ ctx, provider }, taskId);
    return 'superseded';
  }
  await closeTaskCharge(ctx, completed);
  return 'completed';
}
