// Readiness of the backing services, each check bounded in time so a dead service answers quickly.
import type { AppContext } from './context.js';

const withTimeout = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref())]);

export async function checkReadiness(ctx: Pick<AppContext, 'pool' | 'redis'>, timeoutMs = 1_500) {
  const [postgres, redis] = await Promise.all([
    withTimeout(ctx.pool.query('select 1'), timeoutMs).then(
      () => 'ok' as const,
      () => 'down' as const,
    ),
    withTimeout(ctx.redis.ping(), timeoutMs).then(
      () => 'ok' as const,
      () => 'down' as const,
    ),
  ]);
  return { ready: postgres === 'ok' && redis === 'ok', checks: { postgres, redis } };
}
