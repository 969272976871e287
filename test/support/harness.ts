// Test harness: a configuration pointing at this jest worker's database and a fresh Redis prefix,
// the real app over real connections, and real worker processes started from the real entry point.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Express } from 'express';
import pg from 'pg';
import supertest from 'supertest';
import { createApp } from '../../api/app.js';
import { type Config, inheritedEnv, loadConfig } from '../../shared/config/index.js';
import { type AppContext, createAppContext } from '../../shared/context.js';
import { deleteKeysWithPrefix, waitForRedis } from '../../shared/redis/connection.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export type TestEnv = Record<string, string>;

export function testEnv(overrides: TestEnv = {}): TestEnv {
  const base = inheritedEnv();
  const run = base.OCKHUB_TEST_RUN;
  const worker = base.JEST_WORKER_ID ?? '1';
  if (!run) throw new Error('OCKHUB_TEST_RUN is not set: run the tests with npm test');
  const dbUrl = new URL(base.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/ockhub');
  dbUrl.pathname = `/ockhub_test_${run}_w${worker}`;
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: base.OCKHUB_TEST_LOG_LEVEL ?? 'silent',
    DATABASE_URL: dbUrl.toString(),
    REDIS_URL: base.REDIS_URL || 'redis://127.0.0.1:6379/0',
    REDIS_PREFIX: `t${run}w${worker}${randomBytes(4).toString('hex')}`,
    STORAGE_LOCAL_DIR: path.join(os.tmpdir(), `ockhub-test-${run}`, `w${worker}`),
    // The test machine is kept busy on purpose (jest workers, their worker processes, PostgreSQL, Redis): hashing
    // threads at idle priority that rest between keys would wait on all of it, and every test makes accounts.
    // The defaults (idle, half a core) are tested in test/identity/password-hashing.test.ts.
    PASSWORD_HASH_PRIORITY: 'low',
    PASSWORD_HASH_CPU_SHARE: '1',
    ...overrides,
  };
}

/**
 * A database of its own for one test world, made from the run's migrated template (test/global-setup.mjs) and
 * dropped with the others at the end of the run. A jest worker's own database is shared by every file that worker
 * runs, in an order jest chooses: a world that counts rows (a catalog page's total, a wallet's balance) needs this.
 */
export async function freshTestDatabase(): Promise<string> {
  const env = testEnv();
  const url = new URL(env.DATABASE_URL as string);
  const template = url.pathname.slice(1).replace(/_w[^_]+$/, '_tpl');
  const name = `${url.pathname.slice(1)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: Object.assign(new URL(url), { pathname: '/postgres' }).toString() });
  await admin.connect();
  try {
    await admin.query(`create database "${name}" template "${template}"`);
  } finally {
    await admin.end();
  }
  url.pathname = `/${name}`;
  return url.toString();
}

export type Harness = {
  env: TestEnv;
  config: Config;
  ctx: AppContext;
  app: Express;
  http: ReturnType<typeof supertest>;
  close(): Promise<void>;
};

export async function createHarness(overrides: TestEnv = {}): Promise<Harness> {
  const env = testEnv(overrides);
  const config = loadConfig(env);
  const ctx = createAppContext(config, 'api', 'test-api');
  await waitForRedis(ctx.redis);
  const app = createApp(ctx);
  return {
    env,
    config,
    ctx,
    app,
    http: supertest(app),
    async close() {
      await deleteKeysWithPrefix(ctx.redis, config.REDIS_PREFIX).catch(() => undefined);
      await ctx.close();
    },
  };
}

export type WorkerProcess = {
  child: ChildProcess;
  logs: string[];
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
};

/** Starts a script (default: the real worker entry point) as a child process and waits for its ready line. */
export async function startProcess(
  env: TestEnv,
  options: { script?: string; readyLine?: RegExp; extraEnv?: TestEnv; readyWithinMs?: number } = {},
): Promise<WorkerProcess> {
  const script = options.script ?? 'workers/main.ts';
  const ready = options.readyLine ?? /worker ready/;
  // A cap, not a wait: a start-up compiles under tsx, and on a machine busy with other test processes it has been
  // seen to pass 20 s.
  const readyWithinMs = options.readyWithinMs ?? 60_000;
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: repoRoot,
    env: inheritedEnv({ NODE_OPTIONS: '', ...env, LOG_LEVEL: 'info', ...options.extraEnv }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    // A process that is not ready in time is killed: left running, it would outlive the test run.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} not ready in ${readyWithinMs / 1000}s:\n${logs.join('')}`));
    }, readyWithinMs);
    const onData = (chunk: Buffer) => {
      logs.push(chunk.toString());
      if (ready.test(chunk.toString())) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code} before ready:\n${logs.join('')}`));
    });
  });
  return {
    child,
    logs,
    exited,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

export async function waitUntil<T>(probe: () => Promise<T | undefined | false>, timeoutMs = 15_000, everyMs = 100) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
