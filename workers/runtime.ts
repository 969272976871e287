// Runs BullMQ workers for chosen queues: validates payloads, scopes logs by correlation id, stops gracefully.
import { type Job, MetricsTime, UnrecoverableError, Worker } from 'bullmq';
import type { AppContext } from '../shared/context.js';
import { withCorrelationId } from '../shared/logging/correlation.js';
import { linesWritten } from '../shared/logging/logger.js';
import { timeJob } from '../shared/metrics/job-metrics.js';
import { payloadSchema, type QueueName } from '../shared/queues/registry.js';
import { duplicateRedis } from '../shared/redis/connection.js';
import { newActivity, tracked, type WorkerActivity, watchLiveness } from './liveness.js';
import type { LoopWatchdog } from './loop-watchdog.js';
import { handle, type QueueWorker } from './processor.js';

/**
 * A scheduler tick that found nothing to do (no result, or a result whose counts are all zero or empty) logs at
 * debug: the telemetry flush runs every second and would otherwise fill a terminal with nothing.
 */
export function didNothing(result: unknown): boolean {
  if (result === undefined || result === null) return true;
  if (typeof result !== 'object') return result === 0 || result === false;
  return Object.values(result).every(
    (v) => v === undefined || v === null || v === 0 || v === false || (Array.isArray(v) && v.length === 0),
  );
}

export type RunningWorkers = { workers: Worker[]; close(): Promise<void> };

export async function startWorkers(
  ctx: AppContext,
  queues: QueueName[],
  load: (queue: QueueName) => Promise<QueueWorker>,
): Promise<RunningWorkers> {
  const workers: Worker[] = [];
  const modules: QueueWorker[] = [];
  const watched: { queue: ReturnType<AppContext['queues']['queue']>; worker: Worker; activity: WorkerActivity }[] = [];
  for (const queue of queues) {
    const module = await load(queue);
    modules.push(module);
    const concurrency = typeof module.concurrency === 'function' ? module.concurrency(ctx) : (module.concurrency ?? 4);
    const activity = newActivity(concurrency);
    const worker = new Worker(
      queue,
      (job: Job, token?: string) =>
        timeJob(queue, async () => {
          const schema = payloadSchema(queue, job.name);
          const parsed = schema?.safeParse(job.data);
          if (!parsed?.success) {
            throw new UnrecoverableError(`Job ${job.name} on ${queue} has an invalid payload`);
          }
          const correlationId = (parsed.data.correlationId as string | undefined) ?? `job:${queue}:${job.id}`;
          return withCorrelationId(correlationId, () =>
            tracked(activity, async () => {
              const started = Date.now();
              ctx.logger.debug({ queue, job: job.name, jobId: job.id }, 'job started');
              const result = await handle(module, job.name, parsed.data, ctx, job, token);
              const level = job.repeatJobKey && didNothing(result) ? 'debug' : 'info';
              ctx.logger[level]({ queue, job: job.name, jobId: job.id, ms: Date.now() - started }, 'job done');
              return result;
            }),
          );
        }),
      {
        connection: ctx.redis,
        prefix: ctx.config.REDIS_PREFIX,
        concurrency,
        // A worker that dies mid-job (SIGKILL, OOM) stops renewing the lock; the stalled check of any live worker
        // then puts the job back in the queue (once: a second stall fails it).
        lockDuration: ctx.config.WORKER_LOCK_MS,
        stalledInterval: ctx.config.WORKER_LOCK_MS,
        // Per-minute completed/failed counts kept in Redis for a week; /metrics reads their totals.
        metrics: { maxDataPoints: MetricsTime.ONE_WEEK },
      },
    );
    watched.push({ queue: ctx.queues.queue(queue), worker, activity });
    worker.on('failed', (job, err) =>
      ctx.logger.warn(
        { queue, job: job?.name, jobId: job?.id, attempts: job?.attemptsMade, err: err.message },
        'job failed',
      ),
    );
    worker.on('error', (err) => ctx.logger.error({ queue, err: err.message }, 'worker error'));
    workers.push(worker);
  }
  await Promise.all(workers.map((w) => w.waitUntilReady()));
  const stopWatching = watchLiveness(watched, {
    redis: duplicateRedis(ctx.redis, { maxRetriesPerRequest: 1, commandTimeout: 5_000 }),
    limitMs: ctx.config.WORKER_STALL_EXIT_MS,
    logger: ctx.logger,
  });
  return {
    workers,
    // close() stops taking new jobs and waits for the jobs in hand to finish.
    close: () => {
      stopWatching();
      return Promise.all(workers.map((w) => w.close()))
        .then(() => Promise.all(modules.map((m) => m.close?.())))
        .then(() => undefined);
    },
  };
}

/**
 * SIGTERM/SIGINT: take no new jobs, let the jobs in hand finish within WORKER_SHUTDOWN_MS, then exit. Past the
 * deadline the process exits 1 (or the loop watchdog kills it, when its loop is blocked); the jobs it still held go
 * to other workers once their locks expire.
 */
export function stopOnSignals(ctx: AppContext, running: RunningWorkers, watchdog?: LoopWatchdog): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const deadlineMs = ctx.config.WORKER_SHUTDOWN_MS;
    ctx.logger.info({ signal, deadlineMs }, 'worker stopping: taking no new jobs, finishing the jobs in hand');
    watchdog?.shutdownWithin(deadlineMs);
    setTimeout(() => {
      ctx.logger.error({ deadlineMs }, 'jobs still in hand at the shutdown deadline; exiting without them');
      process.exit(1);
    }, deadlineMs);
    const startedAt = Date.now();
    try {
      await running.close();
      await ctx.close();
      ctx.logger.info(
        { signal, ms: Date.now() - startedAt },
        'worker stopped: jobs in hand finished, connections closed',
      );
      await linesWritten(ctx.logger);
      process.exit(0);
    } catch (err) {
      ctx.logger.error({ err }, 'worker did not stop cleanly');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
