// 5,000 concurrent video tasks against the simulated provider, run by real `video` worker processes (one unless
// told): reports the workers' CPU and memory, and whether every poll of every upstream task came within its 3-5 s
// window (VIDEO_POLL_INTERVAL_MS 4000 ±20 %), overall and in the steady state between the burst of creates and
// the first completion. Usage: tsx scripts/bench/video-tasks.ts [tasks=5000] [videoSeconds=20] [workers=1] [orgs=1]
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { inheritedEnv } from '../../shared/config/index.js';
import { loadModelRegistry } from '../../shared/gateway/model-registry.js';
import { createAccount } from '../../shared/identity/accounts.js';
import { createOrganization } from '../../shared/organizations/organizations.js';
import { createProject } from '../../shared/organizations/projects.js';
import { normalizeVideoRequest } from '../../shared/video/video-request.js';
import { createVideoTask } from '../../shared/video/video-tasks.js';
import { recharge } from '../../shared/wallet/ledger.js';
import { startSimulatedProvider } from '../simulated-provider/server.js';
import { benchArgs } from './bench-args.js';
import { openBenchContext, percentile } from './bench-context.js';
import { reportHeadline } from './headline.js';

const [total, videoSeconds, workerCount, organizationCount] = benchArgs(import.meta.url, [
  ['tasks', 5000],
  ['video-seconds', 20, 'duration'],
  ['workers', 1],
  ['organizations', 1],
]);
const videoMs = videoSeconds * 1000;
const intervalMs = 4000;
const windowMs = [3000, 5000] as const;
const TASKS = '/api/v3/contents/generations/tasks/';

const sim = await startSimulatedProvider({ apiKey: 'bench', videoDurationMs: videoMs, requestLogSize: 1_000_000 });
const env = {
  UPSTREAM_VIDEO_URL: sim.url,
  UPSTREAM_VIDEO_KEY: 'bench',
  UPSTREAM_VIDEO_KIND: 'seedance',
  VIDEO_POLL_INTERVAL_MS: String(intervalMs),
  STORAGE_LOCAL_DIR: `/tmp/ockhub-bench-video-${process.pid}`,
};
const bench = await openBenchContext('video', env);
const { ctx } = bench;
const account = await createAccount(ctx, { email: 'bench@bench.local', name: 'Bench', password: 'bench-password-1' });
// Tasks go round-robin to the organizations: one (the default) is the worst case, every charge on one wallet row.
const callers: { accountId: string; projectId: string; organizationId: string }[] = [];
for (let i = 0; i < organizationCount; i++) {
  const org = await createOrganization(ctx, account.id, { name: `Bench org ${i}` });
  const project = await createProject(ctx, org.id, account.id, { name: 'Bench project' });
  await recharge(ctx, org.id, { amount: 1_000_000_000_000n, description: 'bench' });
  callers.push({ accountId: account.id, projectId: project.id, organizationId: org.id });
}

// BENCH_CPU_PROF=<dir> writes a V8 CPU profile of each worker there (`node --cpu-prof`), read with Chrome DevTools.
// Node writes it at exit, on the main thread: the loop watchdog and the shutdown deadline are pushed back so they do
// not kill the worker while it writes.
const cpuProfileArgs = process.env.BENCH_CPU_PROF
  ? ['--cpu-prof', '--cpu-prof-interval', '5000', '--cpu-prof-dir', process.env.BENCH_CPU_PROF]
  : [];
const profileEnv = process.env.BENCH_CPU_PROF
  ? { WORKER_LOOP_STALL_EXIT_MS: '600000', WORKER_SHUTDOWN_MS: '600000' }
  : {};
const workers = Array.from({ length: workerCount }, () =>
  spawn(process.execPath, [...cpuProfileArgs, '--import', 'tsx', 'workers/main.ts'], {
    env: {
      ...inheritedEnv(),
      ...env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATABASE_URL: ctx.config.DATABASE_URL,
      REDIS_PREFIX: ctx.config.REDIS_PREFIX,
      WORKER_QUEUES: 'video,video-rehost',
      ...profileEnv,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  }),
);
await new Promise<void>((resolve) => {
  const started = Date.now();
  const check = setInterval(async () => {
    const { rows } = await ctx.pool.query("select 1 from pg_stat_activity where application_name = 'ockhub-worker'");
    if (rows.length >= workerCount || Date.now() - started > 30_000) {
      clearInterval(check);
      resolve();
    }
  }, 200);
});

// CPU (utime + stime from /proc) and resident memory of the worker processes, summed, sampled every second.
const ticksPerSecond = 100;
const samples: { at: number; cpuSeconds: number; rssMb: number }[] = [];
const sample = () => {
  let cpuSeconds = 0;
  let rssMb = 0;
  for (const worker of workers) {
    try {
      const stat = readFileSync(`/proc/${worker.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      cpuSeconds += (Number(stat[11]) + Number(stat[12])) / ticksPerSecond;
      rssMb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${worker.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
    } catch {
      // the worker is gone
    }
  }
  samples.push({ at: Date.now(), cpuSeconds, rssMb });
};
const sampler = setInterval(sample, 1000);

const model = loadModelRegistry(ctx.config.MODEL_REGISTRY).resolve('seedance-1-0-pro', 'video');
const started = Date.now();
let created = 0;
await Promise.all(
  Array.from({ length: 64 }, async () => {
    while (created < total) {
      const n = created++;
      const normalized = normalizeVideoRequest({ model: model.id, prompt: `bench video ${n}`, duration: 5 }, model);
      await createVideoTask(ctx, callers[n % organizationCount] as (typeof callers)[0], { model, normalized });
    }
  }),
);
const createdMs = Date.now() - started;
const open = async () =>
  Number(
    (
      await ctx.db.execute<{ n: string }>(
        sql`select count(*) as n from video_tasks where status in ('queued','in_progress')`,
      )
    ).rows[0]?.n,
  );
while ((await open()) > 0 && Date.now() - started < 15 * 60_000) await new Promise((r) => setTimeout(r, 1000));
const elapsedMs = Date.now() - started;
clearInterval(sampler);
sample();

const { rows: outcome } = await ctx.db.execute<{ status: string; n: string }>(
  sql`select status, count(*) as n from video_tasks group by status order by status`,
);
const { rows: firstFinished } = await ctx.db.execute<{ at: Date | string }>(
  sql`select min(finished_at) as at from video_tasks`,
);
// The steady state: from 5 s after the last create to the first completion (no burst of submits or rehosts).
const steadyFrom = started + createdMs + 5_000;
const steadyTo = new Date(firstFinished[0]?.at ?? Date.now()).getTime();
// Poll gaps: consecutive GETs of the same upstream task. The last GET of a task is the video-rehost job reading the
// download address once the poll that saw the video ready handed the task over: not a poll, so it is left out.
const polls = new Map<string, number[]>();
for (const r of sim.state.requests) {
  if (r.method !== 'GET' || !r.path.startsWith(TASKS)) continue;
  const id = r.path.slice(TASKS.length);
  const list = polls.get(id) ?? [];
  list.push(Date.parse(r.at));
  polls.set(id, list);
}
for (const times of polls.values()) times.pop();
const gaps: number[] = [];
const steadyGaps: number[] = [];
/** Late gaps by where they end: during the creates, the steady state, or the completions. */
const lateBy = { creates: 0, steady: 0, completions: 0 };
for (const times of polls.values())
  for (let i = 1; i < times.length; i++) {
    const [from, to] = [times[i - 1] as number, times[i] as number];
    const gap = to - from;
    gaps.push(gap);
    if (from >= steadyFrom && to <= steadyTo) steadyGaps.push(gap);
    if (gap > windowMs[1]) lateBy[to < steadyFrom ? 'creates' : to <= steadyTo ? 'steady' : 'completions']++;
  }
const onTime = (list: number[]) => list.filter((g) => g >= windowMs[0] && g <= windowMs[1]).length;
const early = gaps.filter((g) => g < windowMs[0]).length;
const late = gaps.filter((g) => g > windowMs[1]).length;
const cpu = samples
  .slice(1)
  .map(
    (s, i) =>
      (s.cpuSeconds - (samples[i] as (typeof samples)[number]).cpuSeconds) /
      ((s.at - (samples[i] as (typeof samples)[number]).at) / 1000),
  );
const totalCpu = (samples.at(-1)?.cpuSeconds ?? 0) - (samples[0]?.cpuSeconds ?? 0);

console.log(
  `video tasks: ${total} created in ${(createdMs / 1000).toFixed(1)} s, all final after ${(elapsedMs / 1000).toFixed(1)} s`,
);
console.log(`outcome: ${outcome.map((o) => `${o.status} ${o.n}`).join(', ')}`);
console.log(
  `worker CPU (${workerCount} process${workerCount > 1 ? 'es' : ''}): ${totalCpu.toFixed(1)} s in total, mean ${((totalCpu / (elapsedMs / 1000)) * 100).toFixed(0)} %, peak ${(Math.max(...cpu) * 100).toFixed(0)} % (of one core, summed)`,
);
console.log(
  `worker memory (RSS, summed): peak ${Math.max(...samples.map((s) => s.rssMb)).toFixed(0)} MB, end ${samples.at(-1)?.rssMb.toFixed(0)} MB`,
);
console.log(
  `polls: ${gaps.length} gaps between polls of ${polls.size} upstream tasks; p50 ${percentile(gaps, 50)} ms, p99 ${percentile(gaps, 99)} ms, max ${Math.max(...gaps)} ms`,
);
console.log(
  `within the ${windowMs[0]}-${windowMs[1]} ms window: ${gaps.length - early - late}/${gaps.length} (${early} early, ${late} late) → ${early + late === 0 ? 'every poll on time' : 'NOT every poll on time'}`,
);
console.log(
  steadyGaps.length > 0
    ? `steady state (${((steadyTo - steadyFrom) / 1000).toFixed(1)} s between the creates and the first completion): ${onTime(steadyGaps)}/${steadyGaps.length} on time, p50 ${percentile(steadyGaps, 50)} ms, p99 ${percentile(steadyGaps, 99)} ms`
    : 'steady state: none (the videos finish before the creates end; use longer videos)',
);
console.log(
  `late gaps by where they end: ${lateBy.creates} during the creates (+5 s), ${lateBy.steady} in the steady state, ${lateBy.completions} after the first completion`,
);
reportHeadline({
  figure: 'poll gap p50',
  value: percentile(gaps, 50) as number,
  baseline: ((windowMs[0] as number) + (windowMs[1] as number)) / 2,
  unit: 'ms',
  baselineName: 'middle of the poll window',
});

for (const worker of workers) worker.kill('SIGTERM');
await Promise.all(workers.map((worker) => new Promise((r) => worker.once('exit', r))));
await bench.close();
await sim.close();
process.exit(0);
