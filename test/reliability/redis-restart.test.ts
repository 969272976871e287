// Redis dies (SIGKILL) under a steady stream of requests and comes back from its append-only file: while it is
// down the API answers 503 in each family's error shape (never a 500, never a hang), and afterwards the same API
// process answers 200 again and the same worker process resumes; every event accepted before, during and after
// the outage is counted exactly once, every paid request is billed once, and the mirror reconciles.
import { waitUntil } from '../support/harness.js';
import { PrivateRedis } from '../support/private-redis.js';
import { recordFigures, secondsBetween } from './support/figures.js';
import {
  billingOf,
  drainTelemetry,
  type OutageWorld,
  openOutageWorld,
  unflushedEvents,
  usageCountOf,
  workerStillRunning,
} from './support/outage-world.js';
import { firstSuccessAfter, misshaped, startedBetween, startLoad, summarize } from './support/steady-load.js';
import { firstJobDoneAfter } from './support/worker-logs.js';

let redis: PrivateRedis;
let world: OutageWorld;

beforeAll(async () => {
  redis = await PrivateRedis.start({ appendOnly: true });
  world = await openOutageWorld({ REDIS_URL: redis.url });
});
afterAll(async () => {
  await world?.close();
  await redis?.dispose();
});

const OUTAGE_MS = 4_000;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('answers 503 while Redis is down, recovers without a restart, and loses no accepted job', async () => {
  const { w, probes, usage } = world;
  const load = startLoad(world.origin, probes, { everyMs: 100 });
  await pause(1_500);
  // The telemetry queue is paused (a state kept in Redis) for a burst right before the crash, so no flush runs and the
  // burst's counts provably wait in Redis when it dies; it is resumed as soon as Redis is back.
  const queue = w.h.ctx.queues.queue('telemetry');
  await queue.pause();
  await waitUntil(async () => (await queue.getActiveCount()) === 0);
  const burst = await Promise.all(
    Array.from({ length: 200 }, (_, i) => w.h.http.post('/api/v1/telemetry').send(usage(i))),
  );
  expect(burst.every((r) => r.status === 200)).toBe(true);
  const waitingAtCrash = await unflushedEvents(world);
  expect(waitingAtCrash).toBeGreaterThanOrEqual(burst.length);

  await redis.stop();
  const downAt = Date.now();
  await pause(OUTAGE_MS);
  const restartAt = Date.now();
  await redis.start();
  const upAt = Date.now();
  await waitUntil(
    () =>
      queue.resume().then(
        () => true,
        () => false,
      ),
    30_000,
  );
  await waitUntil(async () => firstSuccessAfter(load.outcomes, 'telemetry enqueue', upAt), 30_000);
  const workerBackAt = await waitUntil(async () => firstJobDoneAfter(world.worker, upAt, 'flush'), 30_000);
  await pause(1_500);
  const outcomes = await load.stop();

  const all = summarize(outcomes);
  expect(all.unexpected5xx).toBe(0);
  expect(all.hangs).toBe(0);
  const during = startedBetween(outcomes, downAt, restartAt);
  expect(new Set(during.map((o) => o.probe)).size).toBe(probes.length);
  expect(misshaped(during, probes)).toEqual([]);
  const statusesOf = (name: string) => new Set(during.filter((o) => o.probe === name).map((o) => o.status));
  // Catalog reads need only PostgreSQL and keep answering; what needs Redis answers 503.
  expect(statusesOf('catalog read')).toEqual(new Set([200]));
  for (const name of ['telemetry enqueue', 'web search', 'ready']) expect(statusesOf(name)).toEqual(new Set([503]));
  expect(startedBetween(outcomes, workerBackAt).every((o) => o.status === 200)).toBe(true);

  expect(workerStillRunning(world)).toBe(true);
  // Accepted events are all counted once the queue drains (a 503 whose write reached Redis may count too).
  await drainTelemetry(world);
  const telemetry = outcomes.filter((o) => o.probe === 'telemetry enqueue');
  const accepted = burst.length + telemetry.filter((o) => o.status === 200).length;
  const counted = await usageCountOf(world);
  expect(counted).toBeGreaterThanOrEqual(accepted);
  expect(counted).toBeLessThanOrEqual(accepted + telemetry.filter((o) => o.status === 503).length);
  const billing = await billingOf(world, outcomes);
  expect(billing).toEqual({ paid: billing.paid, records: billing.paid, distinctRequests: billing.paid, problems: [] });

  recordFigures('Redis SIGKILL + restart (AOF) under load', {
    jobsAtRisk: waitingAtCrash,
    jobsLost: Math.max(0, accepted - counted),
    doubleEffects: billing.records - billing.paid,
    unexpected5xx: all.unexpected5xx,
    hangs: all.hangs,
    answered503: all.answered503,
    apiRecoverySeconds: secondsBetween(upAt, firstSuccessAfter(outcomes, 'telemetry enqueue', upAt)?.endedAt ?? upAt),
    workerRecoverySeconds: secondsBetween(upAt, workerBackAt),
  });
});
