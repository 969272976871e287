// The key lists read three things at once (persisted daily usage, Redis counters, gateway usage). The gateway read was
// started first and awaited last: when the database failed, the first read's error left the function while the
// gateway read's rejection went unhandled, and Node ends a process on an unhandled rejection (found by a review).
// Here PostgreSQL answers every query with an error (a database that does not exist): the list must fail with an
// error its caller catches, and leave no rejection unhandled.
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../../shared/config/index.js';
import { type AppContext, createAppContext } from '../../shared/context.js';
import { type ApiKeyRow, withUsage } from '../../shared/identity/api-keys.js';
import { testEnv } from '../support/harness.js';

let ctx: AppContext;
beforeAll(() => {
  const env = testEnv();
  const missing = new URL(env.DATABASE_URL as string);
  missing.pathname = `/ockhub_missing_${randomUUID().slice(0, 8)}`;
  ctx = createAppContext(loadConfig({ ...env, DATABASE_URL: missing.toString() }), 'api', 'key-usage-failure');
});
afterAll(() => ctx.close());

it('fails with one error when PostgreSQL fails, leaving no rejection unhandled', async () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  try {
    const key = { id: randomUUID(), projectId: randomUUID(), lastUsedAt: null } as unknown as ApiKeyRow;
    await expect(withUsage(ctx, [key])).rejects.toThrow(/Failed query/);
    // Both failed queries have settled by now; give Node's rejection tracking a turn to report.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(unhandled).toEqual([]);
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
});
