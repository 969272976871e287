// The video sweep, every minute. Three things a lost job would otherwise leave undone forever:
// 1. An open task not polled for a while whose chain has no live job (its enqueue failed at create, its job failed
//    for good, Redis lost it) and no live video-rehost job: its chain starts again. Tasks are visited in id order
//    from a cursor kept in Redis, so a backlog of live ones (a burst waiting in video-rehost) cannot hide the rest.
// 2. An open task well past its deadline (a live job that never gets to it, a rehost that keeps failing): it fails.
// 3. A final task whose charge or upstream cancel was never closed (its last job died): it is settled.
// BullMQ's own stalled-job check returns the jobs of crashed workers; the sweep covers what that cannot.
import { and, asc, eq, gt, inArray, isNotNull, lt, notInArray, or, sql } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import { videoTasks } from '../db/schema/index.js';
import { videoProviderFor } from '../providers/video/index.js';
import { failPastDeadline, settleFinished } from './video-advance.js';
import { rehostJobId, restartTaskChain } from './video-schedule.js';
import { openStatuses } from './video-store.js';

const SWEEP_BATCH = 500;
const liveStates = new Set(['waiting', 'delayed', 'active', 'prioritized', 'waiting-children']);
/** How long past its deadline an open task may stay open before the sweep fails it. */
export const DEADLINE_GRACE_MS = 10 * 60_000;
/** How long a final task may wait for its own job to close its charge before the sweep does. */
const SETTLE_AFTER_MS = 2 * 60_000;

/** How long a task may go unpolled before the sweep looks at its job: three intervals and half a minute. */
export const sweepAfterMs = (pollIntervalMs: number) => 3 * pollIntervalMs + 30_000;

export type SweepResult = { checked: number; restarted: number; failed: number; settled: number };

export async function sweepVideoTasks(ctx: AppContext, now = Date.now()): Promise<SweepResult> {
  const s = { ctx, provider: videoProviderFor(ctx.config) };
  const cursorKey = `${ctx.config.REDIS_PREFIX}:video:sweep-cursor`;
  const after = (await ctx.redis.get(cursorKey)) ?? '';
  const quietSince = new Date(now - sweepAfterMs(ctx.config.VIDEO_POLL_INTERVAL_MS));
  const quiet = await ctx.db
    .select({ id: videoTasks.id })
    .from(videoTasks)
    .where(
      and(
        inArray(videoTasks.status, openStatuses),
        gt(videoTasks.id, after),
        lt(sql`coalesce(${videoTasks.lastPolledAt}, ${videoTasks.createdAt})`, quietSince),
      ),
    )
    .orderBy(asc(videoTasks.id))
    .limit(SWEEP_BATCH);
  // A full batch: the next sweep goes on after it; a short one reached the end: the next starts over.
  await ctx.redis.set(cursorKey, quiet.length === SWEEP_BATCH ? (quiet.at(-1)?.id ?? '') : '', 'EX', 3_600);
  let restarted = 0;
  for (const { id } of quiet) {
    // A task handed to video-rehost may wait there behind a burst of finished videos: that job carries it.
    const rehost = await ctx.queues.queue('video-rehost').getJob(rehostJobId(id));
    if (rehost && liveStates.has(await rehost.getState())) continue;
    if (!(await restartTaskChain(ctx, id))) continue;
    restarted++;
    ctx.logger.warn({ taskId: id }, 'video task had no live job; its chain started again');
  }

  const overdue = await ctx.db
    .select({ id: videoTasks.id })
    .from(videoTasks)
    .where(and(inArray(videoTasks.status, openStatuses), lt(videoTasks.deadlineAt, new Date(now - DEADLINE_GRACE_MS))))
    .limit(SWEEP_BATCH);
  let failed = 0;
  for (const { id } of overdue) if ((await failPastDeadline(s, id).catch(logged(ctx, id))) === 'failed') failed++;

  const unsettled = await ctx.db
    .select({ id: videoTasks.id })
    .from(videoTasks)
    .where(
      and(
        notInArray(videoTasks.status, openStatuses),
        lt(videoTasks.finishedAt, new Date(now - SETTLE_AFTER_MS)),
        or(
          eq(videoTasks.chargeClosed, false),
          and(
            eq(videoTasks.status, 'cancelled'),
            isNotNull(videoTasks.upstreamTaskId),
            eq(videoTasks.upstreamCancelled, false),
          ),
        ),
      ),
    )
    .limit(SWEEP_BATCH);
  let settled = 0;
  for (const { id } of unsettled) if ((await settleFinished(s, id).catch(logged(ctx, id))) === 'finished') settled++;
  return { checked: quiet.length, restarted, failed, settled };
}

/** One task's failure (an upstream that refuses the cancel, say) must not stop the sweep of the others. */
const logged = (ctx: AppContext, taskId: string) => (err: Error) => {
  ctx.logger.warn({ taskId, err: err.message }, 'video sweep could not finish this task; the next sweep tries again');
  return undefined;
};
