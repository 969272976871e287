// Redis time of the gateway's wallet steps (admit and settle, shared/wallet/mirror-lua.ts), as Redis measures it
// itself (SLOWLOG with a threshold of 0, for the duration of the run), against a one-key Lua step like the design's
// floor in messages-latency (scripts/bench/redis-step-relay.ts), in the same run on the same connection. Redis runs one
// command at a time, so a step's time there is latency at concurrency 1 and throughput under load: what the mirror's
// Lua costs beyond the round trip. Steps are sent one by one (no group commit), with and without an enforced quota.
// Usage: npx tsx scripts/bench/wallet-steps.ts [steps]
import { createHash } from 'node:crypto';
import { closeCharge, openCharge } from '../../shared/gateway/accounting.js';
import type { GatewayCaller } from '../../shared/gateway/gateway-caller.js';
import { createAccount } from '../../shared/identity/accounts.js';
import { createOrganization } from '../../shared/organizations/organizations.js';
import { setProjectQuota } from '../../shared/organizations/project-quotas.js';
import { createProject } from '../../shared/organizations/projects.js';
import { recharge } from '../../shared/wallet/ledger.js';
import { stepsLua } from '../../shared/wallet/mirror-lua.js';
import { benchArgs } from './bench-args.js';
import { median, openBenchContext } from './bench-context.js';
import { reportHeadline } from './headline.js';

const [steps] = benchArgs(import.meta.url, [['steps', 2_000]]);

const bench = await openBenchContext('wallet-steps', { LEDGER_BACKLOG_LIMIT: String(10 * steps + 1_000) });
const { ctx } = bench;
const account = await createAccount(ctx, { email: 'bench@bench.local', name: 'Bench', password: 'bench-password-1' });
const org = await createOrganization(ctx, account.id, { name: 'Bench org' });
const callerOf = async (name: string): Promise<GatewayCaller> => {
  const project = await createProject(ctx, org.id, account.id, { name });
  return { accountId: account.id, projectId: project.id, organizationId: org.id };
};
await recharge(ctx, org.id, { amount: 1_000_000_000_000n, description: 'bench' });
const unlimited = await callerOf('no quota');
const limited = await callerOf('quota enforced');
await setProjectQuota(ctx, limited.projectId, {
  enforceQuota: true,
  dailyRequestLimit: 1_000_000,
  dailyTokenLimit: 1_000_000_000,
  monthlyRequestLimit: 1_000_000,
  monthlyTokenLimit: 1_000_000_000,
  requestsPerMinuteLimit: 1_000_000,
});

const usage = { inputTokens: 12, outputTokens: 40, cacheReadTokens: 0, cacheWriteTokens: 0 };
async function pairs(caller: GatewayCaller, n: number) {
  for (let i = 0; i < n; i++) {
    const charge = await openCharge(ctx, caller, { operation: 'messages', model: 'bench', reserveMicros: 5_000n });
    await closeCharge(ctx, charge, { status: 'succeeded', httpStatus: 200, usage, costMicros: 1_234n });
  }
}

// The floor's step: one key, one write (as redis-step-relay.ts's).
const floorLua = "return redis.call('HINCRBY', KEYS[1], 'n', 1)";
ctx.redis.defineCommand('benchFloorStep', { numberOfKeys: 1, lua: floorLua });
const floorStep = (ctx.redis as unknown as { benchFloorStep(key: string): Promise<number> }).benchFloorStep.bind(
  ctx.redis,
);

const SLOWLOG_ROOM = 40 * 2 * steps + 1_000;
const sha = (lua: string) => createHash('sha1').update(lua).digest('hex');
type SlowEntry = [number, number, number, string[]];

/**
 * Redis's own time (µs) of each EVALSHA of `lua` while `run` runs, by the first argument after its keys (a wallet
 * step's kind: 'a' admit, 's' settle; the floor step has none).
 */
async function redisTimes(lua: string, run: () => Promise<void>): Promise<Map<string, number[]>> {
  const wanted = sha(lua);
  const before = (await ctx.redis.config('GET', 'slowlog-*')) as string[];
  await ctx.redis.config('SET', 'slowlog-log-slower-than', '0');
  // Redis logs the commands a script calls as entries of their own too: room for about forty per admit and settle.
  await ctx.redis.config('SET', 'slowlog-max-len', String(SLOWLOG_ROOM));
  await ctx.redis.slowlog('RESET');
  try {
    await run();
    const entries = (await ctx.redis.slowlog('GET', SLOWLOG_ROOM)) as SlowEntry[];
    const byKind = new Map<string, number[]>();
    for (const [, , micros, args] of entries) {
      if (args[0]?.toLowerCase() !== 'evalsha' || args[1] !== wanted) continue;
      const kind = args[3 + Number(args[2])] ?? '';
      byKind.set(kind, [...(byKind.get(kind) ?? []), micros]);
    }
    return byKind;
  } finally {
    for (let i = 0; i < before.length; i += 2)
      await ctx.redis.config('SET', before[i] as string, before[i + 1] as string);
  }
}

await pairs(unlimited, 20);
await pairs(limited, 20);
const floor =
  (
    await redisTimes(floorLua, async () => {
      for (let i = 0; i < 2 * steps; i++) await floorStep(`${ctx.config.REDIS_PREFIX}:bench-floor`);
    })
  ).get('') ?? [];
const plain = await redisTimes(stepsLua, () => pairs(unlimited, steps));
const quota = await redisTimes(stepsLua, () => pairs(limited, steps));
await bench.close();

const f = median(floor);
console.log(`wallet steps: ${steps} admit + settle pairs per case, one at a time; Redis's own time per call (SLOWLOG)`);
console.log(`  floor step (one key, one HINCRBY): median ${f} µs over ${floor.length} calls`);
for (const [name, times] of [
  ['no quota', plain],
  ['quota enforced', quota],
] as const) {
  for (const [kind, label] of [
    ['a', 'admit'],
    ['s', 'settle'],
  ] as const) {
    const t = times.get(kind) ?? [];
    console.log(
      `  ${label}, ${name}: median ${median(t)} µs over ${t.length} calls (${(median(t) / f).toFixed(2)}x the floor's)`,
    );
  }
}
const quotaAdmit = median(quota.get('a') ?? []);
reportHeadline({
  figure: "admit step's Redis time, quota enforced (median, µs)",
  value: quotaAdmit,
  baseline: f,
  unit: 'µs',
  baselineName: "the floor's one-key step",
});
