// Every --interval seconds: each process (RSS, heap, descriptors, event-loop delay), Redis (used_memory, keys by
// pattern), PostgreSQL (connections, database size), and p50/p99 per route family with errors by status; each
// figure is printed and added to its series for the growth verdict (growth.ts).
import { readdirSync, readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';
import type { AppContext } from '../../../shared/context.js';
import { queueNames, retention } from '../../../shared/queues/registry.js';
import { keepFinishedBatches } from '../../../shared/web/fetch-batch-waiter.js';
import { percentile } from '../bench-context.js';
import type { IntervalFigures } from './client-mix.js';
import type { Series } from './growth.js';
import type { SoakChild } from './processes.js';
import { type PatternStats, redisKeysByPattern } from './redis-keys.js';

/**
 * Hourly growth below which a series never fails the run, by unit and for key counts. Descriptors: a keep-alive pool
 * opening five more sockets in the last samples of a two-minute run projects to ~200/h (seen in CI on the simulated
 * provider); a leak of one per request at the soak's 60 requests/s is ~216,000/h.
 */
const floors: Record<string, number> = { MB: 64, fds: 600, keys: 5_000, connections: 200 };

type Probe = { heapUsed: number; loopDelayP99Ms: number; loopDelayMaxMs: number };

export function soakSampler(options: {
  ctx: AppContext;
  redis: Redis;
  children: SoakChild[];
  probeFile(name: string): string;
  figures: IntervalFigures;
  started: number;
}) {
  const { ctx, redis, children, figures, started } = options;
  const series = new Map<string, Series>();
  const record = (name: string, unit: string, value: number, judged = true) => {
    const floorPerHour = floors[unit || name.split(' ').at(-1) || ''] ?? 0;
    const s = series.get(name) ?? { name, unit, judged, floorPerHour, points: [] };
    s.points.push({ t: (Date.now() - started) / 1000, v: value });
    series.set(name, s);
  };
  const procStatus = (pid: number) => readFileSync(`/proc/${pid}/status`, 'utf8');
  let lastPatterns = new Map<string, PatternStats>();

  function sampleProcesses(lines: string[]) {
    for (const { name, proc } of children) {
      if (!proc.pid || proc.exitCode !== null) {
        lines.push(`  ${name}: NOT RUNNING (exit ${proc.exitCode})`);
        continue;
      }
      const rss = Number(/VmRSS:\s+(\d+) kB/.exec(procStatus(proc.pid))?.[1]) / 1024;
      const fds = readdirSync(`/proc/${proc.pid}/fd`).length;
      let probe: Probe | undefined;
      try {
        probe = JSON.parse(readFileSync(options.probeFile(name), 'utf8'));
      } catch {
        // the probe has not written yet
      }
      record(`${name} rss`, 'MB', rss);
      record(`${name} fds`, '', fds);
      if (probe) {
        // heapUsed between collections is a sawtooth: reported; RSS is the memory judged.
        record(`${name} heap`, 'MB', probe.heapUsed / 2 ** 20, false);
        record(`${name} loop delay p99`, 'ms', probe.loopDelayP99Ms, false);
      }
      lines.push(
        `  ${name.padEnd(8)} rss ${rss.toFixed(0)} MB, heap ${probe ? (probe.heapUsed / 2 ** 20).toFixed(0) : '?'} MB, fds ${fds}, loop delay p99 ${probe?.loopDelayP99Ms.toFixed(1) ?? '?'} ms (max ${probe?.loopDelayMaxMs.toFixed(0) ?? '?'})`,
      );
    }
  }

  /**
   * The completed jobs BullMQ keeps (a hash each), up to each queue's retention count: bounded by design, but in a
   * short run they are still climbing to their cap (100 completed video jobs take several minutes), which would
   * read as growth. Only completed jobs within the cap are left out: failed jobs, and completed ones past the cap,
   * still count, so failures piling up or a retention that stopped working show.
   */
  async function keptJobs(): Promise<number> {
    const prefix = ctx.config.REDIS_PREFIX;
    const counts = await Promise.all(
      queueNames.map(async (queue) => {
        const cap =
          queue === 'web-fetch' ? keepFinishedBatches.removeOnComplete.count : retention.removeOnComplete.count;
        return Math.min(await redis.zcard(`${prefix}:${queue}:completed`), cap);
      }),
    );
    return counts.reduce((a, b) => a + b, 0);
  }

  async function sampleRedis(lines: string[]) {
    const memory = Number(/used_memory:(\d+)/.exec(await redis.info('memory'))?.[1]);
    const { byPattern, bytes, keys } = await redisKeysByPattern(redis, ctx.config.REDIS_PREFIX);
    const kept = await keptJobs();
    lastPatterns = byPattern;
    record('redis used_memory', 'MB', memory / 2 ** 20);
    // Named so that its last word picks the key-count floor.
    record('redis other keys', '', keys - kept);
    record('redis kept jobs', '', kept, false);
    record('redis bytes in keys', 'MB', bytes / 2 ** 20);
    lines.push(
      `  redis    used_memory ${(memory / 2 ** 20).toFixed(1)} MB, ${keys} keys (${kept} of them completed jobs kept within their retention) holding ${(bytes / 2 ** 20).toFixed(2)} MB (MEMORY USAGE)`,
    );
    const top = [...byPattern].sort((a, b) => b[1].n - a[1].n).slice(0, 10);
    lines.push(`           ${top.map(([p, { n }]) => `${p}=${n}`).join('  ')}`);
  }

  async function samplePostgres(lines: string[]) {
    const { rows: conns } = await ctx.pool.query<{ app: string; n: string }>(
      'select application_name as app, count(*) as n from pg_stat_activity where datname = current_database() group by 1 order by 1',
    );
    const { rows: size } = await ctx.pool.query<{ bytes: string }>(
      'select pg_database_size(current_database()) as bytes',
    );
    const totalConns = conns.reduce((s, r) => s + Number(r.n), 0);
    record('pg connections', '', totalConns);
    record('pg database size', 'MB', Number(size[0]?.bytes) / 2 ** 20, false);
    lines.push(
      `  postgres ${totalConns} connections (${conns.map((r) => `${r.app || '?'}=${r.n}`).join(', ')}), database ${(Number(size[0]?.bytes) / 2 ** 20).toFixed(1)} MB`,
    );
  }

  function sampleRequests(lines: string[]) {
    const families = [...figures.latencies].sort((a, b) => a[0].localeCompare(b[0]));
    lines.push(
      `  latency  ${families.map(([f, xs]) => `${f} ${percentile(xs, 50).toFixed(0)}/${percentile(xs, 99).toFixed(0)} ms (${xs.length})`).join(', ')}`,
    );
    const { statuses } = figures;
    lines.push(`  errors   ${statuses.size ? [...statuses].map(([k, n]) => `${k}: ${n}`).join(', ') : 'none'}`);
    figures.latencies = new Map();
    figures.statuses = new Map();
  }

  async function sample() {
    const at = Math.round((Date.now() - started) / 1000);
    const lines: string[] = [`--- t=${at}s, ${figures.requests} requests so far`];
    sampleProcesses(lines);
    await sampleRedis(lines);
    await samplePostgres(lines);
    sampleRequests(lines);
    console.log(lines.join('\n'));
  }

  return { sample, series: () => [...series.values()], lastPatterns: () => lastPatterns };
}
