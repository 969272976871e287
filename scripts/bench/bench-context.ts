// A scratch database and Redis prefix for benchmarks, with the real app composed over them.
import { randomBytes } from 'node:crypto';
import type { Express } from 'express';
import pg from 'pg';
import { createApp } from '../../api/app.js';
import { inheritedEnv, loadConfig } from '../../shared/config/index.js';
import { type AppContext, createAppContext } from '../../shared/context.js';
import { ensureDatabase, runMigrations } from '../../shared/db/migrate.js';
import { deleteKeysWithPrefix, waitForRedis } from '../../shared/redis/connection.js';

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

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};

export const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] as number;
};
