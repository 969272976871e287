// A worker process built from the real runtime (startWorkers + stopOnSignals) whose maintenance processor takes
// a while, so tests can signal it mid-job and see the job in hand finish.
import type { Job } from 'bullmq';
import { loadConfigOrExit } from '../../shared/config/index.js';
import { createAppContext } from '../../shared/context.js';
import { defineQueueWorker } from '../../workers/processor.js';
import { startWorkers, stopOnSignals } from '../../workers/runtime.js';

const config = loadConfigOrExit();
const ctx = createAppContext(config, 'worker', 'slow-worker');
const slowly = async (_payload: unknown, _ctx: unknown, job: Job) => {
  await ctx.redis.set(`${config.REDIS_PREFIX}:probe:${job.id}`, 'started');
  await new Promise((r) => setTimeout(r, 1_500));
  await ctx.redis.set(`${config.REDIS_PREFIX}:probe:${job.id}`, 'finished');
  return { finished: true };
};
const running = await startWorkers(ctx, ['maintenance'], async () =>
  defineQueueWorker(
    'maintenance',
    { 'expire-credentials': slowly, 'github-stars': slowly, 'wallet-sweep': slowly, 'temp-files': slowly },
    { concurrency: 1 },
  ),
);
stopOnSignals(ctx, running);
ctx.logger.info('worker ready');
