// Two checkouts of the gateway compared in one run, for a machine too busy for run-to-run comparisons: both API
// processes (`api/server.ts` of each checkout, LOG_LEVEL info) serve the same instant upstream, wallet and key, and
// take turns in short rounds of JSON /v1/messages (the order swapped every round), so the machine's load falls on
// both alike. Prints each side's p50 and CPU per request (whole process, from Linux's scheduler statistics) and the
// median over rounds of B's CPU per request over A's.
// Usage: npx tsx scripts/bench/gateway-ab.ts <checkout A> <checkout B> [rounds] [requests per round] [concurrency]
// Node flags instead of code: `BENCH_NODE_FLAGS_A` and `BENCH_NODE_FLAGS_B` (space-separated) start each side's API
// with them (give the same checkout twice); when either is set, a bare relay (bare-relay.ts) per side runs with the
// same flags in the same rounds, so the flags' effect on the baseline shows too.
// A tool that needs two checkouts, not a benchmark: it exports its function, so `npm run bench` leaves it out.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Agent } from 'undici';
import { benchCommand } from './bench-args.js';
import {
  benchNodeFlags,
  closedLoop,
  cpuMs,
  fundedProjectKey,
  median,
  openBenchContext,
  percentile,
  postMessages,
  residentMb,
  spawnService,
} from './bench-context.js';

/** Runs A's and B's gateways in alternating rounds and prints their p50 and CPU per request. */
export async function compareGateways(
  checkoutA: string,
  checkoutB: string,
  rounds = 20,
  perRound = 300,
  concurrency = 16,
): Promise<void> {
  const upstream = await spawnService('scripts/bench/instant-upstream.ts', {});
  const bench = await openBenchContext('gatewayab', {});
  const { ctx } = bench;
  const { token } = await fundedProjectKey(ctx);
  const env = { ...bench.env, UPSTREAM_MESSAGES_URL: upstream.url, UPSTREAM_MESSAGES_KEY: 'bench', LOG_LEVEL: 'info' };
  const flags = { A: benchNodeFlags('BENCH_NODE_FLAGS_A'), B: benchNodeFlags('BENCH_NODE_FLAGS_B') };
  const sides = {
    A: await spawnService('api/server.ts', env, { listens: true, cwd: checkoutA, nodeFlags: flags.A }),
    B: await spawnService('api/server.ts', env, { listens: true, cwd: checkoutB, nodeFlags: flags.B }),
  };
  type Side = keyof typeof sides;
  const withRelays = process.env.BENCH_NODE_FLAGS_A !== undefined || process.env.BENCH_NODE_FLAGS_B !== undefined;
  const relayOf = (side: Side) =>
    spawnService('scripts/bench/bare-relay.ts', { UPSTREAM_URL: upstream.url }, { nodeFlags: flags[side] });
  const relays = withRelays ? { A: await relayOf('A'), B: await relayOf('B') } : undefined;
  const ledgerWorker = await spawnService('workers/main.ts', { ...env, WORKER_QUEUES: 'ledger' }, { ready: /ready/ });

  const body = JSON.stringify({
    model: 'claude-haiku-4-5',
    max_tokens: 64,
    messages: [{ role: 'user', content: 'ping' }],
  });

  async function once(agent: Agent, side: Side, relay = false): Promise<number> {
    const started = performance.now();
    const res = await postMessages(`${(relay ? relays?.[side] : sides[side])?.url}`, token, body, { agent, side });
    await res.body.dump();
    return performance.now() - started;
  }

  const run = (side: Side, count: number, relay = false) =>
    closedLoop(concurrency, count, (agent) => once(agent, side, relay));

  try {
    for (const side of ['A', 'B'] as const) {
      await run(side, 200); // warm-up
      if (relays) await run(side, 200, true);
    }
    const times: Record<Side, number[]> = { A: [], B: [] };
    const cpu: Record<Side, number> = { A: 0, B: 0 };
    const relayTimes: Record<Side, number[]> = { A: [], B: [] };
    const relayCpu: Record<Side, number> = { A: 0, B: 0 };
    const ratios: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const used: Record<Side, number> = { A: 0, B: 0 };
      for (const side of r % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const)) {
        const before = cpuMs(sides[side].child.pid) ?? 0;
        times[side].push(...(await run(side, perRound)));
        used[side] = (cpuMs(sides[side].child.pid) ?? 0) - before;
        cpu[side] += used[side];
        const relay = relays?.[side];
        if (relay) {
          const relayBefore = cpuMs(relay.child.pid) ?? 0;
          relayTimes[side].push(...(await run(side, perRound, true)));
          relayCpu[side] += (cpuMs(relay.child.pid) ?? 0) - relayBefore;
        }
      }
      ratios.push(used.B / used.A);
    }
    const perRequest = (side: Side) => (cpu[side] * 1000) / (rounds * perRound);
    console.log(`A ${checkoutA}\nB ${checkoutB}\n${rounds} rounds of ${perRound} JSON requests at ${concurrency}`);
    for (const side of ['A', 'B'] as const) {
      const mb = residentMb(sides[side].child.pid);
      console.log(
        `${side}: p50 ${percentile(times[side], 50).toFixed(2)} ms, p99 ${percentile(times[side], 99).toFixed(2)} ms, CPU per request ${perRequest(side).toFixed(0)} µs${flags[side].length ? `, node flags ${flags[side].join(' ')}` : ''}${mb ? `, RSS ${mb.now.toFixed(0)} MiB (peak ${mb.peak.toFixed(0)})` : ''}`,
      );
      if (relays) {
        const relayPerRequest = (relayCpu[side] * 1000) / (rounds * perRound);
        console.log(
          `   its bare relay: p50 ${percentile(relayTimes[side], 50).toFixed(2)} ms, CPU per request ${relayPerRequest.toFixed(0)} µs; gateway over relay: p50 ${(percentile(times[side], 50) / percentile(relayTimes[side], 50)).toFixed(2)}x, CPU ${(cpu[side] / relayCpu[side]).toFixed(2)}x`,
        );
      }
    }
    if (relays) {
      console.log(
        `B/A relay CPU per request: ${(relayCpu.B / relayCpu.A).toFixed(3)}, relay p50 ${(percentile(relayTimes.B, 50) / percentile(relayTimes.A, 50)).toFixed(3)}`,
      );
    }
    const sorted = [...ratios].sort((a, b) => a - b);
    console.log(
      `B/A CPU per request: ${(perRequest('B') / perRequest('A')).toFixed(3)} overall, median of rounds ${median(ratios).toFixed(3)} (quartiles ${percentile(sorted, 25).toFixed(3)}–${percentile(sorted, 75).toFixed(3)})`,
    );
  } finally {
    await sides.A.stop();
    await sides.B.stop();
    await relays?.A.stop();
    await relays?.B.stop();
    await ledgerWorker.stop();
    await upstream.stop();
    await bench.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const {
    leading: [a = '', b = ''],
    values: [rounds, perRound, concurrency],
  } = benchCommand(
    import.meta.url,
    ['checkout-A', 'checkout-B'],
    [
      ['rounds', 20],
      ['n', 300],
      ['conc', 16],
    ],
  );
  await compareGateways(path.resolve(a), path.resolve(b), rounds, perRound, concurrency);
}
