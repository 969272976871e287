// Added latency of the gateway on /v1/messages, each side in its own process as a user runs it: an instant upstream
// called directly, through a bare Express + undici relay (no auth, no billing, no logging), and through the ockhub
// API (`api/server.ts`, default LOG_LEVEL info, a `ledger` worker process writing PostgreSQL behind). JSON and stream
// time to first byte, closed loop with keep-alive, at concurrency 1 and 16, the three sides taking turns in rounds.
// Reports the gateway's added p50 over direct at concurrency 1 (target ≤ 0.5 ms), its p50 over the bare relay's at
// 16 (target ≤ 1.5×), and PostgreSQL transactions per 1,000 gateway requests at 16 (target ≤ 20).
// Usage: npx tsx scripts/bench/messages-latency.ts [requests per round] [rounds]
// BENCH_NODE_FLAGS: Node flags for the gateway and, so that the ratios stay fair, the relay and the floor alike.
import type { Agent } from 'undici';
import { mirrorKeys } from '../../shared/wallet/mirror-steps.js';
import { benchArgs } from './bench-args.js';
import {
  benchNodeFlags,
  builtServices,
  closedLoop,
  cpuMs,
  fundedProjectKey,
  openBenchContext,
  percentile,
  postMessages,
  spawnService,
} from './bench-context.js';
import { reportHeadline } from './headline.js';

const [perRound, rounds] = benchArgs(import.meta.url, [
  ['requests-per-round', 300],
  ['rounds', 3],
]);
const logLevel = process.env.BENCH_GATEWAY_LOG_LEVEL ?? 'info';

const flags = benchNodeFlags('BENCH_NODE_FLAGS');
const upstream = await spawnService('scripts/bench/instant-upstream.ts', {});
const relay = await spawnService('scripts/bench/bare-relay.ts', { UPSTREAM_URL: upstream.url }, { nodeFlags: flags });
const bench = await openBenchContext('messages', {});
const { ctx } = bench;
const floor = await spawnService(
  'scripts/bench/redis-step-relay.ts',
  { UPSTREAM_URL: upstream.url, REDIS_URL: ctx.config.REDIS_URL },
  { nodeFlags: flags },
);
const { token, organizationId } = await fundedProjectKey(ctx);
const serviceEnv = { ...bench.env, UPSTREAM_MESSAGES_URL: upstream.url, UPSTREAM_MESSAGES_KEY: 'bench' };
// BENCH_CPU_PROF=<dir>: the gateway process writes a CPU profile there when it stops (see profile-summary.ts).
// BENCH_BUILT=1: the API (and the ledger worker) compiled, as production runs them (bench-context.ts).
const built = builtServices();
const profileDir = process.env.BENCH_CPU_PROF;
const gateway = await spawnService(
  'api/server.ts',
  { ...serviceEnv, LOG_LEVEL: logLevel },
  { listens: true, built, nodeFlags: [...flags, ...(profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [])] },
);
const ledgerWorker = await spawnService(
  'workers/main.ts',
  { ...serviceEnv, WORKER_QUEUES: 'ledger', LOG_LEVEL: 'info' },
  { ready: /worker ready/, built },
);

const sides = {
  direct: { base: upstream.url, key: 'bench', pid: undefined },
  relay: { base: relay.url, key: 'bench', pid: relay.child.pid },
  floor: { base: floor.url, key: 'bench', pid: floor.child.pid },
  gateway: { base: gateway.url, key: token, pid: gateway.child.pid },
} as const;
type Side = keyof typeof sides;

const body = (stream: boolean) =>
  JSON.stringify({ model: 'claude-haiku-4-5', max_tokens: 64, stream, messages: [{ role: 'user', content: 'ping' }] });

async function once(agent: Agent, side: Side, stream: boolean): Promise<number> {
  const { base, key } = sides[side];
  const started = performance.now();
  const res = await postMessages(base, key, body(stream), { agent, side });
  if (stream) {
    // Read to the end (the connection goes back to the pool), timing the first chunk. (Dumping the rest from inside
    // the loop never resolved with undici 8.)
    let ttfb = 0;
    for await (const _chunk of res.body) if (ttfb === 0) ttfb = performance.now() - started;
    return ttfb;
  }
  await res.body.dump();
  return performance.now() - started;
}

const run = (side: Side, stream: boolean, concurrency: number, count: number) =>
  closedLoop(concurrency, count, (agent) => once(agent, side, stream));

/** Commits and rollbacks of the bench database so far (PostgreSQL publishes them within a second or so). */
async function transactions(): Promise<number> {
  const { rows } = await bench.ctx.pool.query<{ n: string }>(
    'select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()',
  );
  return Number(rows[0]?.n ?? 0);
}

async function settledTransactions(): Promise<number> {
  const stream = mirrorKeys(ctx.config.REDIS_PREFIX, organizationId).l;
  while ((await ctx.redis.xlen(stream)) > 0) await new Promise((r) => setTimeout(r, 100));
  await new Promise((r) => setTimeout(r, 1_500));
  // the reading's own transaction is not counted: two readings cost two
  return transactions();
}

const fmt = (n: number) => n.toFixed(2).padStart(7);

try {
  console.log(
    `/v1/messages, an instant upstream: direct, bare relay, gateway (LOG_LEVEL ${logLevel}, ${built ? 'compiled, plain Node' : 'under tsx'}${flags.length ? `, node flags ${flags.join(' ')}` : ''}); ${rounds} rounds of ${perRound} requests per side`,
  );
  console.log('mode          conc   direct p50/p99     relay p50/p99    gateway p50/p99    added p50  gateway/relay');
  // BENCH_MODES (json,stream) and BENCH_CONCURRENCY (1,16) narrow the run, e.g. for a profile of one case.
  const modes = (process.env.BENCH_MODES ?? 'json,stream').split(',');
  const levels = (process.env.BENCH_CONCURRENCY ?? '1,16').split(',').map(Number);
  for (const stream of [false, true].filter((s) => modes.includes(s ? 'stream' : 'json'))) {
    for (const concurrency of levels) {
      const times: Record<Side, number[]> = { direct: [], relay: [], floor: [], gateway: [] };
      const cpu: Record<Side, number> = { direct: 0, relay: 0, floor: 0, gateway: 0 };
      for (const side of Object.keys(sides) as Side[]) await run(side, stream, concurrency, 100); // warm-up
      let txBefore = 0;
      let gatewayRequests = 0;
      if (!stream && concurrency === 16) txBefore = await settledTransactions();
      for (let r = 0; r < rounds; r++) {
        for (const side of Object.keys(sides) as Side[]) {
          const cpuBefore = cpuMs(sides[side].pid) ?? 0;
          times[side].push(...(await run(side, stream, concurrency, perRound)));
          cpu[side] += (cpuMs(sides[side].pid) ?? 0) - cpuBefore;
          if (side === 'gateway') gatewayRequests += perRound;
        }
      }
      const p = (side: Side, q: number) => percentile(times[side], q);
      const mode = stream ? 'stream ttfb' : 'json';
      console.log(
        `${mode.padEnd(13)} ${String(concurrency).padStart(4)}   ${fmt(p('direct', 50))}/${fmt(p('direct', 99))}  ${fmt(p('relay', 50))}/${fmt(p('relay', 99))}  ${fmt(p('gateway', 50))}/${fmt(p('gateway', 99))}   ${fmt(p('gateway', 50) - p('direct', 50))}   ${(p('gateway', 50) / p('relay', 50)).toFixed(2)}x`,
      );
      const perRequest = (side: Side) => ((cpu[side] * 1000) / (rounds * perRound)).toFixed(0);
      console.log(
        `  CPU per request (µs, whole process, steadier than latency on a busy machine): relay ${perRequest('relay')}, gateway ${perRequest('gateway')} (${(cpu.gateway / cpu.relay).toFixed(2)}x)`,
      );
      console.log(
        `  the design's floor, the relay plus one Redis step before and one after: p50 ${fmt(p('floor', 50))} (${(p('floor', 50) / p('relay', 50)).toFixed(2)}x the relay), CPU per request ${perRequest('floor')} (${(cpu.floor / cpu.relay).toFixed(2)}x); the gateway over it: p50 ${(p('gateway', 50) / p('floor', 50)).toFixed(2)}x, CPU ${(cpu.gateway / cpu.floor).toFixed(2)}x`,
      );
      if (concurrency === 1) {
        reportHeadline({
          figure: `${mode} added p50 over direct, 1 at a time (target ≤ 0.5 ms)`,
          value: p('gateway', 50) - p('direct', 50),
          baseline: p('relay', 50) - p('direct', 50),
          unit: 'ms',
          baselineName: 'bare relay added',
        });
      } else {
        reportHeadline({
          figure: `${mode} p50, 16 at a time (target ≤ 1.5× relay)`,
          value: p('gateway', 50),
          baseline: p('relay', 50),
          unit: 'ms',
          baselineName: 'bare Express + undici relay',
        });
      }
      if (!stream && concurrency === 16) {
        const used = (await settledTransactions()) - txBefore - 1;
        const per1000 = (used * 1000) / gatewayRequests;
        console.log(
          `  PostgreSQL transactions while the gateway served ${gatewayRequests} requests at 16 (ledger written): ${used} = ${per1000.toFixed(1)} per 1,000`,
        );
        reportHeadline({
          figure: 'PostgreSQL transactions per 1,000 gateway requests at 16 (target ≤ 20)',
          value: per1000,
          baseline: 20,
          unit: 'tx',
          baselineName: 'target',
        });
      }
    }
  }
} finally {
  await gateway.stop();
  await ledgerWorker.stop();
  await relay.stop();
  await floor.stop();
  await upstream.stop();
  await bench.close();
}
