// Where the time goes during one load: the CPU of each process kind (API, worker, this process, Redis, the
// PostgreSQL backends of this database), Redis commands/s and PostgreSQL transactions/s.
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { AppContext } from '../../../shared/context.js';

export type Phase = { rate: number; cpu: Record<string, number>; redisPerS: number; pgTxPerS: number };

type Usage = { api: number; worker: number; bench: number; redis: number; backends: Map<number, number>; at: number };

// CPU seconds (utime + stime) of a process from /proc.
const cpuOf = (pid: number | undefined) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(stat[11]) + Number(stat[12])) / 100;
  } catch {
    return 0;
  }
};

export function resourceUsage(ctx: AppContext) {
  // Other work shares this machine (and its Redis and PostgreSQL servers), so Redis CPU is read from the server's
  // own INFO and PostgreSQL CPU from the backends serving this benchmark's database only.
  const redisCpu = async () => {
    const info = await ctx.redis.info('cpu');
    return Number(/used_cpu_sys:([\d.]+)/.exec(info)?.[1] ?? 0) + Number(/used_cpu_user:([\d.]+)/.exec(info)?.[1] ?? 0);
  };
  const backendPids = async () =>
    (
      await ctx.pool.query<{ pid: number }>(
        'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
      )
    ).rows.map((r) => r.pid);

  async function usage(apis: ChildProcess[], workers: ChildProcess[]): Promise<Usage> {
    const sum = (pids: (number | undefined)[]) => pids.reduce<number>((total, p) => total + cpuOf(p), 0);
    return {
      api: sum(apis.map((c) => c.pid)),
      worker: sum(workers.map((c) => c.pid)),
      bench: cpuOf(process.pid),
      redis: await redisCpu(),
      backends: new Map((await backendPids()).map((pid) => [pid, cpuOf(pid)])),
      at: performance.now(),
    };
  }
  const redisCommands = async () =>
    Number(/total_commands_processed:(\d+)/.exec(await ctx.redis.info('stats'))?.[1] ?? 0);
  const pgTransactions = async () =>
    Number(
      (
        await ctx.pool.query(
          'select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()',
        )
      ).rows[0]?.n ?? 0,
    );
  const pgConnections = async () =>
    Number(
      (await ctx.pool.query('select count(*) as n from pg_stat_activity where datname = current_database()')).rows[0]
        ?.n ?? 0,
    );

  /** Runs `load` and returns its rate with the CPU share (of one core) of each process kind and Redis/PG rates. */
  async function measure(apis: ChildProcess[], workers: ChildProcess[], load: () => Promise<number>): Promise<Phase> {
    const [u0, r0, p0] = [await usage(apis, workers), await redisCommands(), await pgTransactions()];
    const count = await load();
    const [u1, r1, p1] = [await usage(apis, workers), await redisCommands(), await pgTransactions()];
    const s = (u1.at - u0.at) / 1000;
    const cpu: Record<string, number> = {};
    for (const k of ['api', 'worker', 'bench', 'redis'] as const) cpu[k] = (u1[k] - u0[k]) / s;
    // backends present at both ends (a pooled connection lives long; one opened or closed meanwhile is left out)
    let postgres = 0;
    for (const [pid, end] of u1.backends) postgres += end - (u0.backends.get(pid) ?? end);
    cpu.postgres = postgres / s;
    return { rate: count / s, cpu, redisPerS: (r1 - r0) / s, pgTxPerS: (p1 - p0) / s };
  }

  return { measure, pgConnections };
}
