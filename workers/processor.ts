// The shape of a queue's worker module: one typed handler per job the registry declares for that queue. The runtime
// parses each payload with the registry's schema and calls the job's handler with the parsed payload, so handlers
// never cast `job.data`, and a queue whose module lacks a handler for a declared job does not compile.
import { DelayedError, type Job } from 'bullmq';
import type { AppContext } from '../shared/context.js';
import type { JobName, ParsedPayload, QueueName } from '../shared/queues/registry.js';

/** `job` is the job in hand and `token` its lock token, for handlers that re-schedule their own job. */
export type JobHandler<Q extends QueueName, J extends JobName<Q>> = (
  payload: ParsedPayload<Q, J>,
  ctx: AppContext,
  job: Job,
  token?: string,
) => Promise<unknown>;

export type QueueHandlers<Q extends QueueName> = { [J in JobName<Q>]: JobHandler<Q, J> };

export type QueueWorker<Q extends QueueName = QueueName> = {
  queue: Q;
  handlers: QueueHandlers<Q>;
  /** Jobs of this queue in hand at once per process (default 4), or read from the configuration. */
  concurrency?: number | ((ctx: AppContext) => number);
  /** Releases what the module holds for the whole process (thread pools), once its jobs are done. */
  close?: () => Promise<void>;
};

export function defineQueueWorker<Q extends QueueName>(
  queue: Q,
  handlers: QueueHandlers<Q>,
  options: Pick<QueueWorker<Q>, 'concurrency' | 'close'> = {},
): QueueWorker<Q> {
  return { queue, handlers, ...options };
}

/** Calls the handler of `name`; the runtime has already parsed `payload` with that job's schema. */
export function handle(worker: QueueWorker, name: string, payload: unknown, ctx: AppContext, job: Job, token?: string) {
  const handler = (worker.handlers as Record<string, JobHandler<QueueName, never>>)[name];
  if (!handler) throw new Error(`${worker.queue} has no handler for job ${name}`);
  return handler(payload as never, ctx, job, token);
}

/**
 * Ends the job in hand for now without spending one of its attempts: back to the delayed set, to run again after
 * `delayMs` (a job past its tenant's share, shared/queues/tenant-share.ts; an alert's webhook waiting for its next
 * attempt, workers/alerts/processor.ts).
 */
export async function deferJob(job: Job, token: string | undefined, delayMs: number): Promise<never> {
  await job.moveToDelayed(Date.now() + delayMs, token);
  throw new DelayedError();
}
