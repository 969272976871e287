// A scratch database and Redis prefix for benchmarks, with the real app composed over them.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Express } from 'express';
import pg from 'pg';
import { Agent, request } from 'undici';
import { createApp } from '../../api/app.js';
import { inheritedEnv, loadConfig } from '../../shared/config/index.js';
import { type AppContext, createAppContext } from '../../shared/context.js';
import { ensureDatabase, runMigrations } from '../../shared/db/migrate.js';
import { createAccount } from '../../shared/identity/accounts.js';
import { createApiKey } from '../../shared/identity/api-keys.js';
import { createOrganization } from '../../shared/organizations/organizations.js';
import { createProject } from '../../shared/organizations/projects.js';
import { deleteKeysWithPrefix, waitForRedis } from '../../shared/redis/connection.js';
import { recharge } from '../../shared/wallet/ledger.js';
import { freePort, isListening } from '../../test/support/loopback-ports.js';

export type BenchContext = { ctx: AppContext; app: Express; env: Record<string, string>; close(): Promise<void> };

export async function openBenchContext(name: string, overrides: Record<string, string> = {}): Promise<BenchContext> {
  const env = inheritedEnv();
  const dbUrl = new URL(env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/ockhub');
  const database = `ockhub_bench_${name}_${process.pid}`;
  dbUrl.pathname = `/${database}`;
  const benchEnv: Record<string, string> = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: dbUrl.toString(),
    REDIS_PREFIX: `bench${randomBytes(4).toString('hex')}`,
    ...overrides,
  };
  const config = loadConfig({ ...env, ...benchEnv });
  await ensureDatabase(config.DATABASE_URL);
  await runMigrations(config.DATABASE_URL);
  const ctx = createAppContext(config, 'api', `bench-${name}`);
  await waitForRedis(ctx.redis);
  const app = createApp(ctx);
  return {
    ctx,
    app,
    env: benchEnv,
    async close() {
      await deleteKeysWithPrefix(ctx.redis, config.REDIS_PREFIX);
      await ctx.close();
      const adminUrl = new URL(dbUrl);
      adminUrl.pathname = '/postgres';
      const admin = new pg.Client({ connectionString: adminUrl.toString() });
      await admin.connect();
      await admin.query(`drop database if exists "${database}" with (force)`);
      await admin.end();
    },
  };
}

/** A project API key of a new organization whose wallet holds a million USD: the gateway benchmarks' caller. */
export async function fundedProjectKey(ctx: AppContext): Promise<{ token: string; organizationId: string }> {
  const account = await createAccount(ctx, { email: 'bench@bench.local', name: 'Bench', password: 'bench-password-1' });
  const org = await createOrganization(ctx, account.id, { name: 'Bench org' });
  const project = await createProject(ctx, org.id, account.id, { name: 'Bench project' });
  await recharge(ctx, org.id, { amount: 1_000_000_000_000n, description: 'bench' });
  const { token } = await createApiKey(ctx, account.id, { name: 'bench', projectId: project.id });
  return { token, organizationId: org.id };
}

/**
 * One JSON POST /v1/messages as the benchmarks send it (`key` as x-api-key), over `agent`'s pool when given; any answer
 * but 200 throws, naming `side`. The answer's body is left to the caller to read.
 */
export async function postMessages(base: string, key: string, body: string, options: { agent?: Agent; side?: string }) {
  const res = await request(`${base}/v1/messages`, {
    method: 'POST',
    ...(options.agent ? { dispatcher: options.agent } : {}),
    headers: { 'content-type': 'application/json', 'x-api-key': key, 'anthropic-version': '2023-06-01' },
    body,
  });
  if (res.statusCode !== 200) {
    throw new Error(`${options.side ?? '/v1/messages'} answered ${res.statusCode}: ${await res.body.text()}`);
  }
  return res;
}

/** `count` requests made by `concurrency` loops over one keep-alive pool, each as soon as the last answered; their times. */
export async function closedLoop(
  concurrency: number,
  count: number,
  one: (agent: Agent) => Promise<number>,
): Promise<number[]> {
  const agent = new Agent({ connections: concurrency, keepAliveTimeout: 60_000 });
  const times: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next++;
        times.push(await one(agent));
      }
    }),
  );
  await agent.close();
  return times;
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};

export const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] as number;
};

/**
 * CPU time a process has used so far, in ms (every thread of it, from Linux's scheduler statistics; undefined where
 * /proc is missing). Unlike latency, CPU per request barely moves with the machine's load, so it compares two sides
 * measured on a busy machine.
 */
export function cpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    let ns = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    }
    return ns / 1e6;
  } catch {
    return undefined;
  }
}

/** Resident memory of a process in MiB, now and at its peak (Linux's VmRSS and VmHWM; undefined where /proc is missing). */
export function residentMb(pid: number | undefined): { now: number; peak: number } | undefined {
  if (pid === undefined) return undefined;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
    return { now: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  } catch {
    return undefined;
  }
}

/**
 * Node flags for the servers a benchmark measures, from an environment variable (space-separated, e.g.
 * `BENCH_NODE_FLAGS="--max-semi-space-size=32"`): the API and, so that the ratio stays fair, its baselines (bare
 * route, bare relay, floor) get the same ones. `BENCH_NODE_FLAGS_B` makes telemetry.ts also run a second API and bare
 * route with other flags in alternating rounds (`BENCH_CHECKOUT_B`: another checkout's API); gateway-ab.ts reads
 * `BENCH_NODE_FLAGS_A` and `_B`.
 */
export function benchNodeFlags(variable: string): string[] {
  return (process.env[variable] ?? '').split(/\s+/).filter(Boolean);
}

export type Service = { url: string; child: ChildProcess; stop(): Promise<void> };

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * BENCH_BUILT=1: the API and the workers run as production runs them, compiled (`npm run build`, done here first so
 * dist/ is never stale) and started with plain Node; otherwise under tsx, as `npm start` runs them.
 */
export function builtServices(): boolean {
  if (process.env.BENCH_BUILT !== '1') return false;
  execFileSync('npm', ['run', 'build'], { cwd: repositoryRoot, stdio: 'ignore' });
  return true;
}

/** Services still running when the benchmark ends (even by an error) are stopped with it. */
const spawned = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of spawned) child.kill('SIGKILL');
});

/**
 * Runs a script of the repository as its own process (as `npm start` would), and resolves once it is ready: when it
 * prints `listening <url>` (the bench helpers), prints a line matching `ready`, or, with `listens`, once the free
 * port it was given in PORT accepts connections. `nodeFlags` go before the script (e.g. --cpu-prof, or benchNodeFlags()).
 * `cwd` runs the script of another checkout of the repository (gateway-ab.ts compares two). `built` runs the script's
 * compiled file under dist/ with plain Node, as production does (`node dist/api/server.js`), not under tsx.
 */
export async function spawnService(
  script: string,
  env: Record<string, string>,
  options: { listens?: boolean; ready?: RegExp; nodeFlags?: string[]; cwd?: string; built?: boolean } = {},
): Promise<Service> {
  const port = options.listens ? await freePort() : undefined;
  const entry = options.built ? [`dist/${script.replace(/\.ts$/, '.js')}`] : ['--import', 'tsx', script];
  const child = spawn(process.execPath, [...(options.nodeFlags ?? []), ...entry], {
    cwd: options.cwd ?? repositoryRoot,
    env: inheritedEnv({ NODE_OPTIONS: '', ...env, ...(port ? { PORT: String(port) } : {}) }),
    // A service found by its port writes its logs nowhere (the API logs a line per request at info), unless
    // BENCH_STDOUT_PIPE=1: then into a pipe this process reads and drops, as a log collector would read it.
    stdio: ['ignore', options.listens && process.env.BENCH_STDOUT_PIPE !== '1' ? 'ignore' : 'pipe', 'inherit'],
  });
  spawned.add(child);
  child.once('exit', () => spawned.delete(child));
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} not ready in 90 s:\n${output}`)), 90_000);
    const done = (u: string) => {
      clearTimeout(timer);
      resolve(u);
    };
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code}:\n${output}`));
    });
    // found by its port: its stdout, if piped (BENCH_STDOUT_PIPE), is only drained
    if (options.listens) child.stdout?.resume();
    else
      child.stdout?.on('data', (chunk: Buffer) => {
        if (output.length < 100_000) output += chunk.toString();
        const listening = /listening (http:\/\/\S+)/.exec(output);
        if (listening?.[1]) done(listening[1]);
        else if (options.ready?.test(output)) done('');
      });
    if (port) {
      const poll = async () => {
        if (await isListening(port)) done(`http://127.0.0.1:${port}`);
        else setTimeout(poll, 100);
      };
      void poll();
    }
  });
  return {
    url,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
