// Telemetry throughput, each side in its own process as a user runs it: single events/s accepted by one API process
// (`api/server.ts`, default LOG_LEVEL info, every event through the per-address limit and the one-step intake)
// against a bare Express route that parses and validates the same event (bare-telemetry.ts), the two taking turns in
// rounds; events/s accepted in the batch form (`{events:[…]}`, 100 per request); then events/s aggregated by the
// telemetry workers until the counters are exact. Targets (issue 16): single events ≥ 0.8× the bare route, batches
// ≥ 10,000 events/s. Usage: npx tsx scripts/bench/telemetry.ts [events per round] [rounds] [batch events] [workers]
// BENCH_NODE_FLAGS: Node flags for the API and its baselines alike; BENCH_NODE_FLAGS_B: a second API and bare route
// with these flags take turns with the first ones (the order swapped every round), and B's figures are printed over A's.
// BENCH_CHECKOUT_B=<dir>: B's API is that checkout's (another branch, built there too under BENCH_BUILT=1), with
// BENCH_NODE_FLAGS_B or, without it, the same flags as A.
import { execFileSync, spawn } from 'node:child_process';
import { eq } from 'drizzle-orm';
import { Agent, request } from 'undici';
import { createPublisher } from '../../shared/catalog/publishers.js';
import { inheritedEnv } from '../../shared/config/index.js';
import { catalogItems } from '../../shared/db/schema/index.js';
import { bootstrapAdmin } from '../../shared/identity/admin-bootstrap.js';
import { benchArgs } from './bench-args.js';
import { publishBenchAgent } from './bench-catalog.js';
import { benchNodeFlags, builtServices, cpuMs, openBenchContext, residentMb, spawnService } from './bench-context.js';
import { reportHeadline } from './headline.js';

const [perRound, rounds, batchEvents, workerCount] = benchArgs(import.meta.url, [
  ['events-per-round', 4_000],
  ['rounds', 3],
  ['batch-events', 20_000],
  ['workers', 2],
]);
const CONNECTIONS = 64;
const BATCH = 100;
const logLevel = process.env.BENCH_GATEWAY_LOG_LEVEL ?? 'info';

// The events come from 200 client addresses (X-Forwarded-For, as behind a load balancer), each under the default
// per-address limit, so every event pays the limiter as in production.
const bench = await openBenchContext('telemetry', { TRUST_PROXY: 'true' });
const { ctx } = bench;
const { account } = await bootstrapAdmin(ctx);
const publisher = await createPublisher(ctx.db, account.id, { slug: 'bench', name: 'Bench' });
const agentId = await publishBenchAgent(ctx, account.id, publisher.slug, { slug: 'bench-agent', name: 'Bench agent' });

const flags = benchNodeFlags('BENCH_NODE_FLAGS');
const checkoutB = process.env.BENCH_CHECKOUT_B;
const flagsB =
  process.env.BENCH_NODE_FLAGS_B !== undefined
    ? benchNodeFlags('BENCH_NODE_FLAGS_B')
    : checkoutB !== undefined
      ? flags
      : undefined;
const bare = await spawnService('scripts/bench/bare-telemetry.ts', {}, { nodeFlags: flags });
// The design's floor: the bare route plus one Redis step per event, what issue 16 allows the intake.
const floor = await spawnService(
  'scripts/bench/bare-telemetry.ts',
  { REDIS_URL: ctx.config.REDIS_URL },
  { nodeFlags: flags },
);
// BENCH_BUILT=1: the API (and the ledger worker) compiled, as production runs them (bench-context.ts).
const built = builtServices();
const profileDir = process.env.BENCH_CPU_PROF;
if (built && checkoutB) execFileSync('npm', ['run', 'build'], { cwd: checkoutB, stdio: 'ignore' });
const startApi = (nodeFlags: string[], cwd?: string) =>
  spawnService(
    'api/server.ts',
    { ...bench.env, LOG_LEVEL: logLevel },
    {
      listens: true,
      built,
      ...(cwd ? { cwd } : {}),
      nodeFlags: [...nodeFlags, ...(profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [])],
    },
  );
const api = await startApi(flags);
const b = flagsB
  ? {
      bare: await spawnService('scripts/bench/bare-telemetry.ts', {}, { nodeFlags: flagsB }),
      api: await startApi(flagsB, checkoutB),
    }
  : undefined;

// Usage events of many clients (each under the daily usage cap per client, so every accepted event counts).
const event = (i: number) => ({
  itemType: 'agent',
  slug: 'bench-agent',
  eventType: 'usage',
  clientId: `c${i % 5_000}`,
});
let sent = 0;
let counted = 0;

/** Sends `count` requests over CONNECTIONS keep-alive connections; returns the seconds it took. */
async function load(base: string, count: number, bodyOf: (i: number) => unknown, expect: number): Promise<number> {
  const agent = new Agent({ connections: CONNECTIONS, keepAliveTimeout: 60_000 });
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next < count) {
        const i = next++;
        const res = await request(`${base}/api/v1/telemetry`, {
          method: 'POST',
          dispatcher: agent,
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.0.${i % 200}.1` },
          body: JSON.stringify(bodyOf(i)),
        });
        const answer = (await res.body.json()) as { recorded: boolean | number };
        if (res.statusCode !== 200 || (answer.recorded !== true && answer.recorded !== expect)) {
          throw new Error(`${base} answered ${res.statusCode}: ${JSON.stringify(answer)}`);
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await agent.close();
  return seconds;
}

type Side = 'bare' | 'floor' | 'api' | 'bareB' | 'apiB';
const services = { bare, floor, api, ...(b ? { bareB: b.bare, apiB: b.api } : {}) };
const sidesInTurn = (round: number): Side[] =>
  !b
    ? ['bare', 'floor', 'api']
    : round % 2 === 0
      ? ['bare', 'floor', 'api', 'bareB', 'apiB']
      : ['bareB', 'apiB', 'bare', 'floor', 'api'];

async function single(side: Side, count: number): Promise<{ seconds: number; cpu: number }> {
  const service = services[side] as (typeof services)['api'];
  const cpuBefore = cpuMs(service.child.pid) ?? 0;
  const seconds = await load(service.url, count, (i) => event(sent + i), 1);
  if (side === 'api' || side === 'apiB') {
    sent += count;
    counted += count;
  }
  return { seconds, cpu: (cpuMs(service.child.pid) ?? 0) - cpuBefore };
}

try {
  for (const side of sidesInTurn(0)) await single(side, 500); // warm-up
  const totals = Object.fromEntries(
    (['bare', 'floor', 'api', 'bareB', 'apiB'] as const).map((side) => [side, { seconds: 0, cpu: 0 }]),
  ) as Record<Side, { seconds: number; cpu: number }>;
  for (let r = 0; r < rounds; r++) {
    for (const side of sidesInTurn(r)) {
      const { seconds, cpu } = await single(side, perRound);
      totals[side].seconds += seconds;
      totals[side].cpu += cpu;
    }
  }
  const rate = (side: Side) => (rounds * perRound) / totals[side].seconds;
  const cpuPer = (side: Side) => (totals[side].cpu * 1000) / (rounds * perRound);
  const memory = (side: Side) => {
    const mb = residentMb(services[side]?.child.pid);
    return mb ? `RSS ${mb.now.toFixed(0)} MiB (peak ${mb.peak.toFixed(0)})` : 'RSS unknown';
  };

  const batches = Math.ceil(batchEvents / BATCH);
  const batchSeconds = await load(
    api.url,
    batches,
    (b) => ({ events: Array.from({ length: BATCH }, (_, k) => event(sent + b * BATCH + k)) }),
    BATCH,
  );
  sent += batches * BATCH;
  counted += batches * BATCH;

  const env = inheritedEnv({ ...bench.env, WORKER_QUEUES: 'telemetry', NODE_OPTIONS: '' });
  const aggregateStarted = performance.now();
  const workers = Array.from({ length: workerCount }, () =>
    spawn(process.execPath, built ? ['dist/workers/main.js'] : ['--import', 'tsx', 'workers/main.ts'], {
      env,
      stdio: 'ignore',
    }),
  );
  let usage = 0;
  while (usage < counted) {
    const [row] = await ctx.db
      .select({ n: catalogItems.usageCount })
      .from(catalogItems)
      .where(eq(catalogItems.id, agentId));
    usage = row?.n ?? 0;
    if (usage < counted) await new Promise((r) => setTimeout(r, 100));
  }
  const aggregateSeconds = (performance.now() - aggregateStarted) / 1000;
  await new Promise((r) => setTimeout(r, 1_500));
  const [after] = await ctx.db
    .select({ n: catalogItems.usageCount })
    .from(catalogItems)
    .where(eq(catalogItems.id, agentId));
  for (const w of workers) w.kill('SIGTERM');

  console.log(`telemetry: ${rounds} rounds of ${perRound} single events per side, ${CONNECTIONS} connections`);
  console.log(
    `  single events/s   : bare Express route ${rate('bare').toFixed(0)}, API ${rate('api').toFixed(0)} (${(rate('api') / rate('bare')).toFixed(2)}x; target ≥ 0.8x)`,
  );
  console.log(
    `  CPU per event (µs): bare ${cpuPer('bare').toFixed(0)}, API ${cpuPer('api').toFixed(0)} (${(cpuPer('api') / cpuPer('bare')).toFixed(2)}x; steadier than rates on a busy machine)`,
  );
  console.log(
    `  the design's floor, the bare route plus one Redis step per event: ${rate('floor').toFixed(0)}/s (${(rate('floor') / rate('bare')).toFixed(2)}x the bare route), CPU ${cpuPer('floor').toFixed(0)} µs (${(cpuPer('floor') / cpuPer('bare')).toFixed(2)}x); the API over it: ${(rate('api') / rate('floor')).toFixed(2)}x the rate, ${(cpuPer('api') / cpuPer('floor')).toFixed(2)}x the CPU`,
  );
  console.log(
    `  node flags        : ${flags.join(' ') || '(none)'}; API ${memory('api')}, bare route ${memory('bare')}`,
  );
  if (flagsB) {
    console.log(
      `  B${checkoutB ? ` (${checkoutB})` : ''}, node flags ${flagsB.join(' ') || '(none)'}: bare ${rate('bareB').toFixed(0)}/s, API ${rate('apiB').toFixed(0)}/s (${(rate('apiB') / rate('bareB')).toFixed(2)}x); CPU per event bare ${cpuPer('bareB').toFixed(0)} µs, API ${cpuPer('apiB').toFixed(0)} µs (${(cpuPer('apiB') / cpuPer('bareB')).toFixed(2)}x); API ${memory('apiB')}, bare route ${memory('bareB')}`,
    );
    console.log(
      `  B over A: API CPU per event ${(cpuPer('apiB') / cpuPer('api')).toFixed(3)}x, rate ${(rate('apiB') / rate('api')).toFixed(3)}x; bare CPU per event ${(cpuPer('bareB') / cpuPer('bare')).toFixed(3)}x, rate ${(rate('bareB') / rate('bare')).toFixed(3)}x`,
    );
  }
  console.log(`  batch form        : ${((batches * BATCH) / batchSeconds).toFixed(0)} events/s (${BATCH} per request)`);
  console.log(
    `  aggregated by ${workerCount} workers: ${(counted / aggregateSeconds).toFixed(0)} events/s; usage counter ${after?.n} for ${counted} events accepted (${after?.n === counted ? 'exact' : 'NOT EXACT'})`,
  );
  reportHeadline({
    figure: 'single events/s, one API process (target ≥ 0.8× bare route)',
    value: rate('api'),
    baseline: rate('bare'),
    unit: 'events/s',
    baselineName: 'bare Express route',
  });
  reportHeadline({
    figure: `batch form events/s (${BATCH} per request; target ≥ 10,000)`,
    value: (batches * BATCH) / batchSeconds,
    baseline: 10_000,
    unit: 'events/s',
    baselineName: 'target',
  });
  reportHeadline({
    figure: `events aggregated by ${workerCount} workers, counters exact`,
    value: counted / aggregateSeconds,
    baseline: (rounds * perRound) / totals.api.seconds,
    unit: 'events/s',
    baselineName: 'single events accepted by one API',
  });
  if (after?.n !== counted) process.exitCode = 1;
} finally {
  await api.stop();
  await b?.api.stop();
  await b?.bare.stop();
  await bare.stop();
  await floor.stop();
  await bench.close();
}
