// The worker process: runs the queues named by WORKER_QUEUES (default all) and registers the job schedulers.
import { loadConfigOrExit } from '../shared/config/index.js';
import { createAppContext } from '../shared/context.js';
import { collectProcessMetrics } from '../shared/metrics/metrics.js';
import { type QueueName, selectQueues } from '../shared/queues/registry.js';
import { registerSchedules } from '../shared/queues/schedules.js';
import { serveWorkerMetrics } from './metrics-server.js';
import { processors } from './processors.js';
import { startWorkers, stopOnSignals } from './runtime.js';

const config = loadConfigOrExit();
const ctx = createAppContext(config, 'worker');

let selected: QueueName[];
try {
  selected = selectQueues(config.WORKER_QUEUES);
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exit(78);
}
const explicit = config.WORKER_QUEUES.trim() !== 'all';
const missing = selected.filter((q) => !processors[q]);
if (explicit && missing.length > 0) {
  process.stderr.write(`WORKER_QUEUES names queues that have no processor yet: ${missing.join(', ')}\n`);
  process.exit(78);
}
const runnable = selected.filter((q) => processors[q]);

collectProcessMetrics('worker');
// Listening before any job is taken, so a taken port stops the process before it does work.
const metrics = await serveWorkerMetrics(ctx).catch((err: Error) => {
  process.stderr.write(`worker metrics cannot listen on WORKER_METRICS_PORT: ${err.message}\n`);
  process.exit(1);
});

const running = await startWorkers(ctx, runnable, (q) =>
  (processors[q] as NonNullable<(typeof processors)[QueueName]>)(),
);
stopOnSignals(ctx, running);
const scheduled = await registerSchedules(ctx.queues, ctx.redis, config.REDIS_PREFIX);
ctx.logger.info({ queues: runnable, schedules: scheduled, metrics: metrics?.url }, 'worker ready');
