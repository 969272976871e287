// PostgreSQL is restarted (fast shutdown, then start) under a steady stream of requests: while it is down the paid
// gateway keeps answering from Redis (its settled requests wait in the ledger stream) and telemetry keeps being
// accepted; what reads PostgreSQL answers 503 in its family's error shape (never a 500, never a hang) and /ready says
// which service is down; afterwards the same API process answers 200 again and the same worker process writes the
// ledger backlog and the counters, with every accepted event counted once and every paid request billed once.
import { waitUntil } from '../support/harness.js';
import { PrivatePostgres } from '../support/private-postgres.js';
import { recordFigures, secondsBetween } from './support/figures.js';
import {
  billingOf,
  drainTelemetry,
  firstFlushSince,
  type OutageWorld,
  openOutageWorld,
  usageCountOf,
  workerStillRunning,
} from './support/outage-world.js';
import { firstSuccessAfter, misshaped, startedBetween, startLoad, summarize } from './support/steady-load.js';

let postgres: PrivatePostgres;
let world: OutageWorld;

beforeAll(async () => {
  postgres = await PrivatePostgres.start();
  world = await openOutageWorld({ DATABASE_URL: await postgres.migratedDatabase() });
});
afterAll(async () => {
  await world?.close();
  await postgres?.dispose();
});

const OUTAGE_MS = 4_000;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('answers 503 while PostgreSQL is down and recovers without restarting the API or the worker', async () => {
  const { probes } = world;
  const load = startLoad(world.origin, probes, { everyMs: 100 });
  await pause(1_500);

  await postgres.stop('fast');
  const downAt = Date.now();
  await pause(OUTAGE_MS);
  const restartAt = Date.now();
  await postgres.start();
  const upAt = Date.now();
  await waitUntil(async () => firstSuccessAfter(load.outcomes, 'wallet read', upAt), 30_000);
  // The worker is back once it applies a flush again (the events accepted during the outage).
  const workerBackAt = await waitUntil(() => firstFlushSince(world, upAt).catch(() => undefined), 30_000);
  await pause(1_500);
  const outcomes = await load.stop();

  const all = summarize(outcomes);
  const during = startedBetween(outcomes, downAt, restartAt);
  expect(misshaped(outcomes, probes)).toEqual([]);
  expect(all.hangs).toBe(0);
  expect(new Set(during.map((o) => o.probe)).size).toBe(probes.length);
  const statusesOf = (name: string) => new Set(during.filter((o) => o.probe === name).map((o) => o.status));
  // Telemetry and the paid gateway need only Redis (the item's id, the key, the project's organization and quota
  // settings are cached; the wallet is mirrored) and keep answering; what reads PostgreSQL answers 503.
  expect(statusesOf('telemetry enqueue')).toEqual(new Set([200]));
  expect(statusesOf('web search')).toEqual(new Set([200]));
  for (const name of ['wallet read', 'ready']) expect(statusesOf(name)).toEqual(new Set([503]));
  const readiness = during.filter((o) => o.probe === 'ready').map((o) => JSON.parse(o.body).checks);
  expect(new Set(readiness.map((c) => JSON.stringify(c)))).toEqual(new Set(['{"postgres":"down","redis":"ok"}']));
  expect(statusesOf('catalog read').has(503)).toBe(true);
  const apiBack = firstSuccessAfter(outcomes, 'wallet read', upAt);
  expect(startedBetween(outcomes, (apiBack?.endedAt ?? upAt) + 1_000).every((o) => o.status === 200)).toBe(true);

  expect(workerStillRunning(world)).toBe(true);
  await drainTelemetry(world);
  const accepted = outcomes.filter((o) => o.probe === 'telemetry enqueue' && o.status === 200).length;
  const counted = await usageCountOf(world);
  expect(counted).toBe(accepted);
  const billing = await billingOf(world, outcomes);
  expect(billing).toEqual({ paid: billing.paid, records: billing.paid, distinctRequests: billing.paid, problems: [] });

  recordFigures('PostgreSQL restart under load', {
    jobsAtRisk: during.filter((o) => o.status === 200 && ['telemetry enqueue', 'web search'].includes(o.probe)).length,
    jobsLost: Math.max(0, accepted - counted) + Math.max(0, billing.paid - billing.records),
    doubleEffects: Math.max(0, counted - accepted) + (billing.records - billing.paid),
    unexpected5xx: all.unexpected5xx,
    hangs: all.hangs,
    answered503: all.answered503,
    apiRecoverySeconds: secondsBetween(upAt, apiBack?.endedAt ?? upAt),
    workerRecoverySeconds: secondsBetween(upAt, workerBackAt),
  });
});
