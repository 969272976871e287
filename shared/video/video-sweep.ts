// The video sweep: an open task whose chain job is gone (its enqueue failed at create, its retries ran out, or Redis
// lost it) would wait forever. Every minute the sweep looks at open tasks that have not been polled for a while and
// starts their chain again when no live job (of the chain, or of video-rehost) carries it. Live jobs are left alone:
// BullMQ's own stalled-job check returns the jobs of crashed workers.
import { and, asc, inArray, lt, sql } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import { videoTasks } from '../db/schema/index.js';
import { rehostJobId, restartTaskChain } from './video-schedule.js';
import { openStatuses } from './video-store.js';

const SWEEP_BATCH = 500;
const liveStates = new Set(['waiting', 'delayed', 'active', 'prioritized', 'waiting-children']);

/** How long a task may go unpolled before the sweep looks at its job: three intervals and half a minute. */
export const sweepAfterMs = (pollIntervalMs: number) => 3 * pollIntervalMs + 30_000;

export async function sweepVideoTasks(
  ctx: AppContext,
  now = Date.now(),
): Promise<{ checked: number; restarted: number }> {
  const before = new Date(now - sweepAfterMs(ctx.config.VIDEO_POLL_INTERVAL_MS));
  const quiet = await ctx.db
    .select({ id: videoTasks.id })
    .from(videoTasks)
    .where(
      and(
        inArray(videoTasks.status, openStatuses),
        lt(sql`coalesce(${videoTasks.lastPolledAt}, ${videoTasks.createdAt})`, before),
      ),
    )
    .orderBy(asc(videoTasks.id))
    .limit(SWEEP_BATCH);
  let restarted = 0;
  for (const { id } of quiet) {
    // A task handed to video-rehost may wait there behind a burst of finished videos: that job carries it.
    const rehost = await ctx.queues.queue('video-rehost').getJob(rehostJobId(id));
    if (rehost && liveStates.has(await rehost.getState())) continue;
    if (!(await restartTaskChain(ctx, id))) continue;
    restarted++;
    ctx.logger.warn({ taskId: id }, 'video task had no live job; its chain started again');
  }
  return { checked: quiet.length, restarted };
}
