// Scheduling of a task's next worker step: a delayed `advance` job with a deterministic id per task and step, so
// duplicate schedulers collapse into one job and no worker slot ever sleeps while waiting for the upstream.
import type { AppContext } from '../context.js';

export const stepJobId = (taskId: string, step: number) => `${taskId}-s${step}`;

/**
 * The poll interval ±20 %, so thousands of tasks do not poll in lockstep. With the default 4 s that is 3.2-4.8 s:
 * the 3-5 s window of the seed with 200 ms left on each side for queueing and scheduling latency.
 */
export function jitteredInterval(intervalMs: number, random = Math.random): number {
  return Math.round(intervalMs * (0.8 + random() * 0.4));
}

export async function scheduleStep(ctx: AppContext, taskId: string, step: number, delayMs: number): Promise<void> {
  await ctx.queues.add('video', 'advance', { taskId, step }, { jobId: stepJobId(taskId, step), delay: delayMs });
}

/** A job that only settles the aftermath of a cancel (forwarding it upstream); it never polls. */
export async function scheduleCancelForwarding(ctx: AppContext, taskId: string): Promise<void> {
  await ctx.queues.add('video', 'advance', { taskId }, { jobId: `${taskId}-cancel` });
}
