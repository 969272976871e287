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

/** Starts (or, when its job is still there, leaves alone) the chain of steps of a task. */
export async function startTaskChain(ctx: AppContext, taskId: string): Promise<void> {
  await ctx.queues.add('video', 'advance', { taskId }, { jobId: chainJobId(taskId) });
}

/** A job that only settles the aftermath of a cancel (forwarding it upstream); it never polls. */
export async function scheduleCancelForwarding(ctx: AppContext, taskId: string): Promise<void> {
  await ctx.queues.add('video', 'forward-cancel', { taskId }, { jobId: cancelJobId(taskId) });
}

/**
 * Hands a task whose upstream video is ready to the `video-rehost` queue. A job of an earlier hand-off that ended
 * (failed for good, or finished without completing the task) is removed first, so the new one is not collapsed
 * into it; a live one is left to do the work.
 */
export async function startRehost(ctx: AppContext, taskId: string): Promise<void> {
  const earlier = await ctx.queues.queue('video-rehost').getJob(rehostJobId(taskId));
  if (earlier && ['failed', 'completed'].includes(await earlier.getState()))
    await earlier.remove().catch(() => undefined);
  await ctx.queues.add('video-rehost', 'rehost', { taskId }, { jobId: rehostJobId(taskId) });
}
