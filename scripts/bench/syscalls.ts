// System calls per /v1/messages request, by call, thread and file descriptor, for the bare relay, the design's floor
// (redis-step-relay.ts) and the gateway (compiled, LOG_LEVEL info, a `ledger` worker writing behind), each side
// measured alone: strace follows every thread of that side's process (`strace -f -yy -p <pid>`) while `n` JSON
// requests run at `conc`, and the calls are counted per request. strace slows the traced process, so the counts of
// calls that depend on timing (epoll_wait, futex) are less exact than those of writes and reads, which follow from
// what the code asks for; the user and system time and context switches are read in an untraced pass just before.
// BENCH_SYSCALLS_KEEP=1 keeps the traces (their paths are printed) for reading one request's calls in order.
// Usage: npx tsx scripts/bench/syscalls.ts [n] [conc]  (strace must be installed; the user must be allowed to
// attach to its own processes). A tool, not a benchmark: it exports its function, so `npm run bench` leaves it out.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Agent } from 'undici';
import { benchArgs } from './bench-args.js';
import {
  builtServices,
  closedLoop,
  cpuMs,
  fundedProjectKey,
  openBenchContext,
  postMessages,
  type Service,
  spawnService,
} from './bench-context.js';

type Tally = Map<string, number>;
const add = (t: Tally, k: string, n = 1) => t.set(k, (t.get(k) ?? 0) + n);

/** Names a descriptor strace decoded with -yy by what it is for, from the side's point of view. */
function fdClass(decoded: string, ports: { own: string; upstream: string; redis: string }): string {
  if (decoded.includes(`:${ports.redis}]`)) return 'redis';
  if (decoded.includes(`:${ports.upstream}]`)) return 'upstream';
  if (decoded.includes(`]:${ports.own}->`) || decoded.includes(`127.0.0.1:${ports.own}->`)) return 'client';
  if (decoded.includes(':5432]')) return 'postgres';
  if (decoded.startsWith('anon_inode:[eventfd]')) return 'eventfd';
  if (decoded.startsWith('anon_inode:[eventpoll]')) return 'epoll';
  if (decoded.startsWith('pipe:')) return 'pipe';
  if (decoded.startsWith('/dev/null')) return 'stdout(/dev/null)';
  if (decoded.startsWith('socket:')) return 'other socket';
  return decoded.replace(/<|>/g, '').slice(0, 30);
}

/** The process's threads by id, named as Linux names them (`node`, `V8 DefaultWorke`, `libuv-worker`…). */
function threadNames(pid: number): Map<string, string> {
  const names = new Map<string, string>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    names.set(tid, readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim());
  }
  return names;
}

type ThreadStats = Map<string, { name: string; user: number; sys: number; waits: number; preempted: number }>;

/** Each thread's user and system time (clock ticks) and context switches so far, from /proc. */
function threadStats(pid: number): ThreadStats {
  const stats: ThreadStats = new Map();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const status = readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8');
      const field = (f: string) => Number(new RegExp(`^${f}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
      stats.set(tid, {
        name: /^Name:\s+(.*)$/m.exec(status)?.[1] ?? tid,
        user: Number(fields[11]),
        sys: Number(fields[12]),
        waits: field('voluntary_ctxt_switches'),
        preempted: field('nonvoluntary_ctxt_switches'),
      });
    } catch {
      // a thread that ended meanwhile
    }
  }
  return stats;
}

/** What `work` cost the process per request, untraced: user and system µs, and each thread kind's wake-ups. */
async function untraced(pid: number, n: number, work: () => Promise<unknown>) {
  const before = threadStats(pid);
  await work();
  const after = threadStats(pid);
  const tick = 1e6 / 100; // µs per clock tick (USER_HZ is 100 on Linux)
  let user = 0;
  let sys = 0;
  const waits: Tally = new Map();
  for (const [tid, a] of after) {
    const b = before.get(tid) ?? { user: 0, sys: 0, waits: 0, preempted: 0 };
    user += (a.user - b.user) * tick;
    sys += (a.sys - b.sys) * tick;
    add(waits, a.name, (a.waits - b.waits + a.preempted - b.preempted) / n);
  }
  return { user: user / n, sys: sys / n, waits };
}

/** Counts of an strace -f -yy trace: by call, by call and descriptor class, by thread. */
function readTrace(file: string, ports: { own: string; upstream: string; redis: string }) {
  const calls: Tally = new Map();
  const byFd: Tally = new Map();
  const threads: Tally = new Map();
  const main = new Set<string>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = /^(\d+)\s+(?:\d+\.\d+\s+)?(?:<\.\.\. )?(\w+)(?:\(| resumed>)(.*)$/.exec(line);
    if (!m) continue;
    const [, tid = '', name = '', rest = ''] = m;
    if (line.includes(' resumed>')) continue; // the call was counted when it began
    if (main.size === 0) main.add(tid);
    add(calls, name);
    add(threads, tid);
    const fd = /^(\d+)<([^>]*(?:>[^,)]*)?)>/.exec(rest);
    if (fd && /^(write|writev|read|readv|sendto|sendmsg|recvfrom|recvmsg|close|epoll_ctl)$/.test(name)) {
      add(byFd, `${name} ${fdClass(fd[2] ?? '', ports)}`);
    }
  }
  return { calls, byFd, threads };
}

async function traced(pid: number, file: string, work: () => Promise<unknown>): Promise<void> {
  const tracer = spawn('strace', ['-f', '-ttt', '-yy', '-qq', '-s', '0', '-o', file, '-p', String(pid)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  tracer.stderr.on('data', (c: Buffer) => {
    err += c.toString();
  });
  // strace prints nothing once attached with -qq: give it a moment to attach to every thread
  await new Promise((r) => setTimeout(r, 1_000));
  await work();
  await new Promise((r) => setTimeout(r, 300));
  const exited = new Promise((r) => tracer.once('exit', r));
  tracer.kill('SIGINT');
  await exited;
  if (err.trim()) console.error(err.trim());
}

/** Runs each side alone under strace for `n` JSON requests at `concurrency` and prints calls per request. */
export async function countSyscalls(n = 2000, concurrency = 1): Promise<void> {
  process.env.BENCH_BUILT = '1';
  const built = builtServices();
  const upstream = await spawnService('scripts/bench/instant-upstream.ts', {});
  const relay = await spawnService('scripts/bench/bare-relay.ts', { UPSTREAM_URL: upstream.url });
  const bench = await openBenchContext('syscalls', {});
  const { ctx } = bench;
  const floor = await spawnService('scripts/bench/redis-step-relay.ts', {
    UPSTREAM_URL: upstream.url,
    REDIS_URL: ctx.config.REDIS_URL,
  });
  const { token } = await fundedProjectKey(ctx);
  const env = { ...bench.env, UPSTREAM_MESSAGES_URL: upstream.url, UPSTREAM_MESSAGES_KEY: 'bench', LOG_LEVEL: 'info' };
  const gateway = await spawnService('api/server.ts', env, { listens: true, built });
  const ledgerWorker = await spawnService(
    'workers/main.ts',
    { ...env, WORKER_QUEUES: 'ledger' },
    { ready: /ready/, built },
  );
  const sides: Record<string, { service: Service; key: string }> = {
    relay: { service: relay, key: 'bench' },
    floor: { service: floor, key: 'bench' },
    gateway: { service: gateway, key: token },
  };
  const body = JSON.stringify({
    model: 'claude-haiku-4-5',
    max_tokens: 64,
    messages: [{ role: 'user', content: 'ping' }],
  });
  const once = async (agent: Agent, side: string) => {
    const { service, key } = sides[side] as { service: Service; key: string };
    const res = await postMessages(service.url, key, body, { agent, side });
    await res.body.dump();
    return 0;
  };
  const ports = {
    upstream: new URL(upstream.url).port,
    redis: new URL(ctx.config.REDIS_URL).port || '6379',
  };
  const results: Record<
    string,
    ReturnType<typeof readTrace> & {
      cpu: number;
      names: Map<string, string>;
      quiet: Awaited<ReturnType<typeof untraced>>;
    }
  > = {};
  try {
    for (const side of Object.keys(sides)) await closedLoop(concurrency, 300, (a) => once(a, side)); // warm-up
    for (const side of Object.keys(sides)) {
      const { service } = sides[side] as { service: Service };
      const pid = service.child.pid as number;
      const file = path.join(tmpdir(), `syscalls-${side}-${process.pid}.txt`);
      let cpu = 0;
      const names = threadNames(pid);
      const quiet = await untraced(pid, n, () => closedLoop(concurrency, n, (a) => once(a, side)));
      await traced(pid, file, async () => {
        const before = cpuMs(pid) ?? 0;
        await closedLoop(concurrency, n, (a) => once(a, side));
        cpu = (cpuMs(pid) ?? 0) - before;
      });
      results[side] = { ...readTrace(file, { ...ports, own: new URL(service.url).port }), cpu, names, quiet };
      if (process.env.BENCH_SYSCALLS_KEEP === '1') console.log(`${side}'s trace: ${file}`);
      else rmSync(file, { force: true });
    }
  } finally {
    await gateway.stop();
    await ledgerWorker.stop();
    await relay.stop();
    await floor.stop();
    await upstream.stop();
    await bench.close();
  }
  const names = Object.keys(results);
  const per = (t: Tally, k: string) => (t.get(k) ?? 0) / n;
  const row = (label: string, values: number[]) =>
    console.log(`${label.padEnd(34)}${values.map((v) => v.toFixed(2).padStart(10)).join('')}`);
  console.log(
    `system calls per request, ${n} JSON requests at ${concurrency} (strace -f; CPU under strace, not comparable)`,
  );
  console.log(`${''.padEnd(34)}${names.map((s) => s.padStart(10)).join('')}`);
  const allCalls = new Set(names.flatMap((s) => [...(results[s]?.calls.keys() ?? [])]));
  const sum = (t: Tally) => [...t.values()].reduce((a, b) => a + b, 0) / n;
  row(
    'all calls',
    names.map((s) => sum(results[s]?.calls as Tally)),
  );
  for (const call of [...allCalls].sort()) {
    const values = names.map((s) => per(results[s]?.calls as Tally, call));
    if (values.some((v) => v >= 0.01)) row(call, values);
  }
  console.log('by descriptor');
  const allFd = new Set(names.flatMap((s) => [...(results[s]?.byFd.keys() ?? [])]));
  for (const k of [...allFd].sort()) {
    const values = names.map((s) => per(results[s]?.byFd as Tally, k));
    if (values.some((v) => v >= 0.01)) row(`  ${k}`, values);
  }
  console.log('untraced, per request: user µs, system µs, context switches by thread name');
  for (const side of names) {
    const q = results[side]?.quiet;
    if (!q) continue;
    const waits = [...q.waits.entries()].filter(([, v]) => v >= 0.01).sort((a, b) => b[1] - a[1]);
    console.log(
      `  ${side}: user ${q.user.toFixed(0)}, system ${q.sys.toFixed(0)}; switches ${waits.map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')}`,
    );
  }
  console.log('by thread (calls per request, summed by thread name)');
  for (const s of names) {
    const result = results[s];
    if (!result) continue;
    const byName: Tally = new Map();
    for (const [tid, c] of result.threads) add(byName, result.names.get(tid) ?? `thread ${tid}`, c);
    const threads = [...byName.entries()].sort((a, b) => b[1] - a[1]);
    console.log(`  ${s}: ${threads.map(([name, c]) => `${name} ${(c / n).toFixed(2)}`).join(', ')}`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [n, concurrency] = benchArgs(import.meta.url, [
    ['n', 2000],
    ['conc', 1],
  ]);
  await countSyscalls(n, concurrency);
}
