import { spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import { inheritedEnv } from '../../shared/config/index.js';
import { isStalled, STALL_EXIT_CODE } from '../../workers/liveness.js';
import { createHarness, repoRoot } from '../support/harness.js';
import { PrivateRedis } from '../support/private-redis.js';

describe('stall detection', () => {
  const idle = { lastActivityAt: 0, inHand: 0, concurrency: 4 };
  it('is stalled with work ready, free slots and no activity for the whole limit', () => {
    expect(isStalled(idle, { ready: 3, oldestOverdueMs: 0 }, 10_000, 5_000)).toBe(true);
    expect(isStalled(idle, { ready: 0, oldestOverdueMs: 9_000 }, 10_000, 5_000)).toBe(true);
  });
  it('is not stalled when idle without work, busy with long jobs, or recently active', () => {
    expect(isStalled(idle, { ready: 0, oldestOverdueMs: 100 }, 10_000, 5_000)).toBe(false);
    expect(isStalled({ ...idle, inHand: 4 }, { ready: 3, oldestOverdueMs: 0 }, 10_000, 5_000)).toBe(false);
    expect(isStalled({ ...idle, lastActivityAt: 8_000 }, { ready: 3, oldestOverdueMs: 0 }, 10_000, 5_000)).toBe(false);
  });
});

it('a worker that cannot take the jobs waiting for it exits non-zero for its supervisor to restart it', async () => {
  const redis = await PrivateRedis.start();
  const h = await createHarness({ REDIS_URL: redis.url });
  const admin = new Redis(redis.url);
  try {
    for (let i = 0; i < 3; i++) await h.ctx.queues.add('maintenance', 'expire-credentials', {});
    // Writes hang, as on a connection left dangling by a failover: the worker can read but never take a job.
    // Longer than a worker's start-up under tsx on a busy machine (seen past 20 s), so the pause is still on when it
    // looks for work; the worker's stall exit ends the test long before.
    await admin.call('CLIENT', 'PAUSE', '90000', 'WRITE');
    const child = spawn(process.execPath, ['--import', 'tsx', 'workers/main.ts'], {
      cwd: repoRoot,
      env: inheritedEnv({
        ...h.env,
        NODE_OPTIONS: '',
        WORKER_QUEUES: 'maintenance',
        WORKER_STALL_EXIT_MS: '1500',
        LOG_LEVEL: 'info',
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => {
      output += c.toString();
    });
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve(null);
      }, 80_000);
      child.once('exit', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    expect(code).toBe(STALL_EXIT_CODE);
    expect(output).toContain('worker stalled');
  } finally {
    await admin.call('CLIENT', 'UNPAUSE').catch(() => undefined);
    admin.disconnect();
    await h.close();
    await redis.stop();
  }
}, 120_000);
