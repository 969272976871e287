// Scheduling of a task's next worker step: a delayed `advance` job with a deterministic id per task and step, so
// duplicate schedulers collapse into one job and no worker slot ever sleeps while waiting for the upstream.
import type { AppContext } from '../context.js';

export const stepJobId = (taskId: string, step: number) => `${taskId}-s${step}`;

/** The poll interval ±25 %, so thousands of tasks do not poll in lockstep. */
export function jitteredInterval(intervalMs: number, random = Math.random): number {
  return Math.round(intervalMs * (0.75 + random() * 0.5));
}

export async function scheduleStep(ctx: AppContext, taskId: string, step: number, delayMs: number): Promise<void> {
  await ctx.queues.add('video', 'advance', { taskId, step }, { jobId: stepJobId(taskId, step), delay: delayMs });
}

/** A job that only settles the aftermath of a cancel (forwarding it upstream); it never polls. */
export async function scheduleCancelForwarding(ctx: AppContext, taskId: string): Promise<void> {
  await ctx.queues.add('video', 'advance', { taskId }, { jobId: `${taskId}-cancel` });
}
