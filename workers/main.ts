// The worker process: runs the queues named by WORKER_QUEUES (default all) and registers the job schedulers.
import '../shared/node-runtime.js';
import { loadConfigOrExit } from '../shared/config/index.js';
import { createAppContext } from '../shared/context.js';
import { collectProcessMetrics } from '../shared/metrics/metrics.js';
import { type QueueName, selectQueues } from '../shared/queues/registry.js';
import { registerSchedules } from '../shared/queues/schedules.js';
import { watchMainLoop } from './loop-watchdog.js';
import { serveWorkerMetrics } from './metrics-server.js';
import { loadQueueWorker } from './processors.js';
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
collectProcessMetrics('worker');
// Listening before any job is taken, so a taken port stops the process before it does work.
const metrics = await serveWorkerMetrics(ctx).catch((err: Error) => {
  process.stderr.write(`worker metrics cannot listen on WORKER_METRICS_PORT: ${err.message}\n`);
  process.exit(1);
});

const running = await startWorkers(ctx, selected, loadQueueWorker);
// Armed once the queue modules are loaded: loading them (and compiling them, under tsx) blocks the loop by design,
// and a process that never gets ready is its supervisor's to see.
const watchdog = watchMainLoop({ stallExitMs: config.WORKER_LOOP_STALL_EXIT_MS, logger: ctx.logger });
stopOnSignals(ctx, running, watchdog);
const scheduled = await registerSchedules(ctx.queues, ctx.redis, config.REDIS_PREFIX);
ctx.logger.info(
  { queues: selected, schedules: scheduled, metrics: metrics?.url, node: process.version },
  `worker ready (Node.js ${process.version})`,
);
