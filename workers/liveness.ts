// Worker liveness: a worker whose queue has work ready (waiting, or delayed jobs long overdue) but which has
// neither started nor finished a job for WORKER_STALL_EXIT_MS, while it has free slots, exits non-zero so its
// supervisor restarts it. This is the stall BullMQ users report after a Redis failover, when the blocking
// connection never wakes up again.
import type { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from '../shared/logging/logger.js';

export type WorkerActivity = { lastActivityAt: number; inHand: number; concurrency: number };

export type QueueBacklog = { ready: number; oldestOverdueMs: number };

export const STALL_EXIT_CODE = 70;

/** Stalled: free capacity, work that should have been taken, and no activity for the whole limit. */
export function isStalled(activity: WorkerActivity, backlog: QueueBacklog, now: number, limitMs: number): boolean {
  if (activity.inHand >= activity.concurrency) return false;
  if (now - activity.lastActivityAt < limitMs) return false;
  return backlog.ready > 0 || backlog.oldestOverdueMs > limitMs;
}

/**
 * Reads the queue's backlog with plain read commands on the watchdog's own connection: BullMQ's Lua helpers count
 * as writes and would wait behind the very condition being detected. A delayed job's score is its due time
 * (ms) × 4096 plus a counter.
 */
export async function backlogOf(redis: Redis, queue: Queue, now: number): Promise<QueueBacklog> {
  const [[, waiting], [, prioritized], [, soonest]] = (await redis
    .multi()
    .llen(queue.keys.wait as string)
    .zcard(queue.keys.prioritized as string)
    .zrange(queue.keys.delayed as string, '0', '0', 'WITHSCORES')
    .exec()) as [unknown, unknown][] as [[unknown, number], [unknown, number], [unknown, string[]]];
  const dueAt = soonest.length === 2 ? Math.floor(Number(soonest[1]) / 4096) : now;
  return { ready: waiting + prioritized, oldestOverdueMs: Math.max(0, now - dueAt) };
}

/**
 * A worker's activity, counted around the processor call itself rather than from BullMQ's events: a job that
 * re-schedules itself (DelayedError) ends without a completed or failed event and would otherwise stay "in hand".
 */
export function newActivity(concurrency: number): WorkerActivity {
  return { lastActivityAt: Date.now(), inHand: 0, concurrency };
}

export async function tracked<T>(activity: WorkerActivity, run: () => Promise<T>): Promise<T> {
  activity.inHand++;
  activity.lastActivityAt = Date.now();
  try {
    return await run();
  } finally {
    activity.inHand = Math.max(0, activity.inHand - 1);
    activity.lastActivityAt = Date.now();
  }
}

export function watchLiveness(
  watched: { queue: Queue; worker: Worker; activity: WorkerActivity }[],
  options: { redis: Redis; limitMs: number; logger: Logger; exit?: (code: number) => void },
): () => void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const every = Math.max(250, Math.min(15_000, Math.floor(options.limitMs / 4)));
  const timer = setInterval(async () => {
    const now = Date.now();
    for (const { queue, worker, activity } of watched) {
      if (worker.isPaused() || !worker.isRunning()) continue;
      if (now - activity.lastActivityAt < options.limitMs) continue;
      try {
        const backlog = await backlogOf(options.redis, queue, now);
        if (isStalled(activity, backlog, now, options.limitMs)) {
          options.logger.fatal(
            { queue: queue.name, backlog, idleMs: now - activity.lastActivityAt },
            'worker stalled: work is waiting but nothing was processed; exiting for a restart',
          );
          exit(STALL_EXIT_CODE);
        }
      } catch {
        // Redis unreachable: BullMQ reconnects on its own; a worker that never recovers is caught once it does.
      }
    }
  }, every);
  timer.unref();
  return () => {
    clearInterval(timer);
    options.redis.disconnect();
  };
}
