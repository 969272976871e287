// Scheduling of a task's worker steps. One BullMQ job per task (its id is the task id) carries the whole chain: a
// step that must look again later re-schedules that same job as delayed, so duplicate schedulers collapse into one
// job, no worker slot ever sleeps while waiting for the upstream, and no job is created per poll.
import type { AppContext } from '../context.js';

export const chainJobId = (taskId: string) => taskId;
export const cancelJobId = (taskId: string) => `${taskId}-cancel`;
export const rehostJobId = (taskId: string) => `${taskId}-rehost`;

/**
 * The poll interval ±20 %, so thousands of tasks do not poll in lockstep. With the default 4 s that is 3.2-4.8 s:
 * the 3-5 s window of the seed with 200 ms left on each side for queueing and scheduling latency.
 */
export function jitteredInterval(intervalMs: number, random = Math.random): number {
  return Math.round(intervalMs * (0.8 + random() * 0.4));
}

/** Starts the chain of steps of a new task. */
export async function startTaskChain(ctx: AppContext, taskId: string): Promise<void> {
  await ctx.queues.add('video', 'advance', { taskId }, { jobId: chainJobId(taskId) });
}

/**
 * Removes the job `jobId` when it has ended (failed for good, or completed and still kept for a while): BullMQ
 * silently ignores an add whose id is taken, so a job started again under that id would never run. A live job is
 * left alone: it does the work. True when no job holds the id any more.
 */
async function clearEndedJob(ctx: AppContext, queue: 'video' | 'video-rehost', jobId: string): Promise<boolean> {
  const earlier = await ctx.queues.queue(queue).getJob(jobId);
  if (!earlier) return true;
  // 'unknown': a job record in no list (a half-written job after a Redis crash) carries nothing either.
  if (!['failed', 'completed', 'unknown'].includes(await earlier.getState())) return false;
  await earlier.remove().catch(() => undefined);
  return true;
}

/**
 * Starts the chain of a task again (the sweep; a hand-off that found the upstream task not ready after all),
 * unless a live job still carries it. True when a new chain was started.
 */
export async function restartTaskChain(ctx: AppContext, taskId: string): Promise<boolean> {
  if (!(await clearEndedJob(ctx, 'video', chainJobId(taskId)))) return false;
  await startTaskChain(ctx, taskId);
  return true;
}

/** A job that only settles the aftermath of a cancel (forwarding it upstream); it never polls. */
export async function scheduleCancelForwarding(ctx: AppContext, taskId: string): Promise<void> {
  await ctx.queues.add('video', 'forward-cancel', { taskId }, { jobId: cancelJobId(taskId) });
}

/**
 * Hands a task whose upstream video is ready to the `video-rehost` queue (past an ended job of an earlier
 * hand-off). False when a live rehost job already holds the id: it may be one about to end without completing
 * (it found the upstream not ready and restarted this chain), so the caller keeps polling rather than trust it.
 */
export async function startRehost(ctx: AppContext, taskId: string): Promise<boolean> {
  if (!(await clearEndedJob(ctx, 'video-rehost', rehostJobId(taskId)))) return false;
  await ctx.queues.add('video-rehost', 'rehost', { taskId }, { jobId: rehostJobId(taskId) });
  return true;
}
