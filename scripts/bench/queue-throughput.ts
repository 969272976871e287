// No-op job throughput: raw BullMQ (Queue.add + a bare Worker) versus the same jobs through the project's queue
// layer (QueueProducer.add with payload validation + workers/runtime.ts startWorkers), alternating in one run.
import { randomBytes, randomUUID } from 'node:crypto';
import { Queue, Worker } from 'bullmq';
import { inheritedEnv, loadConfig } from '../../shared/config/index.js';
import { createAppContext } from '../../shared/context.js';
import { defaultJobOptions } from '../../shared/queues/registry.js';
import { deleteKeysWithPrefix, waitForRedis } from '../../shared/redis/connection.js';
import { defineQueueWorker } from '../../workers/processor.js';
import { startWorkers } from '../../workers/runtime.js';
import { benchArgs } from './bench-args.js';
import { median } from './bench-context.js';
import { reportHeadline } from './headline.js';

const [jobs, concurrency, rounds] = benchArgs(import.meta.url, [
  ['jobs', 2_000],
  ['concurrency', 16],
  ['rounds', 3],
]);

const prefix = `benchq${randomBytes(4).toString('hex')}`;
const config = loadConfig({ ...inheritedEnv(), NODE_ENV: 'test', LOG_LEVEL: 'silent', REDIS_PREFIX: prefix });
const ctx = createAppContext(config, 'worker', 'bench-queue');
await waitForRedis(ctx.redis);

const payload = () => ({ organizationId: randomUUID() });

/** Resolves when `count` jobs have completed on the worker. */
const completions = (worker: Worker, count: number) =>
  new Promise<void>((resolve) => {
    let done = 0;
    const onDone = () => {
      done++;
      if (done === count) {
        worker.off('completed', onDone);
        resolve();
      }
    };
    worker.on('completed', onDone);
  });

async function rawRound(round: number): Promise<number> {
  const name = `raw-${round}`;
  const connection = ctx.redis.duplicate();
  const workerConnection = ctx.redis.duplicate();
  const queue = new Queue(name, { connection, prefix, defaultJobOptions: defaultJobOptions('ledger') });
  const worker = new Worker(name, async () => undefined, { connection: workerConnection, prefix, concurrency });
  await worker.waitUntilReady();
  const finished = completions(worker, jobs);
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: jobs }, () => queue.add('write', payload())));
  await finished;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await worker.close();
  await queue.close();
  connection.disconnect();
  workerConnection.disconnect();
  return jobs / seconds;
}

async function layerRound(): Promise<number> {
  const running = await startWorkers(ctx, ['ledger'], async () =>
    defineQueueWorker('ledger', { write: async () => undefined }, { concurrency }),
  );
  const worker = running.workers[0] as Worker;
  const finished = completions(worker, jobs);
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: jobs }, () => ctx.queues.add('ledger', 'write', payload())));
  await finished;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await running.close();
  return jobs / seconds;
}

try {
  const raw: number[] = [];
  const layer: number[] = [];
  await rawRound(-1); // warm-up
  for (let i = 0; i < rounds; i++) {
    raw.push(await rawRound(i));
    layer.push(await layerRound());
  }
  const [r, l] = [median(raw), median(layer)];
  console.log(
    `no-op jobs: ${jobs} per round, worker concurrency ${concurrency}, median of ${rounds} alternating rounds`,
  );
  console.log(`  raw BullMQ (Queue.add + Worker)          : ${r.toFixed(0)} jobs/s`);
  console.log(`  queue layer (QueueProducer + runtime)    : ${l.toFixed(0)} jobs/s`);
  console.log(`  ratio layer / raw                        : ${(l / r).toFixed(3)}`);
  reportHeadline({
    figure: `no-op job throughput, ${concurrency} concurrent`,
    value: l,
    baseline: r,
    unit: 'jobs/s',
    baselineName: 'raw BullMQ',
  });
} finally {
  await deleteKeysWithPrefix(ctx.redis, prefix);
  await ctx.close();
}
