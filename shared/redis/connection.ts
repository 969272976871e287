// Redis connections: the API fails fast when Redis is down (503, never a hang); workers wait and retry.
import { Redis, type RedisOptions } from 'ioredis';

export type RedisRole = 'api' | 'worker';

export function createRedis(redisUrl: string, role: RedisRole, extra: RedisOptions = {}): Redis {
  const common: RedisOptions = {
    lazyConnect: false,
    connectTimeout: 2_000,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  };
  const byRole: RedisOptions =
    role === 'api'
      ? { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 2_000 }
      : { maxRetriesPerRequest: null, enableReadyCheck: true };
  const redis = new Redis(redisUrl, { ...common, ...byRole, ...extra });
  // Connection errors are reported by health checks and failing commands; an unhandled 'error' event would crash.
  redis.on('error', () => {});
  return redis;
}

/** Deletes every key under a prefix (tests and local resets only). */
export async function deleteKeysWithPrefix(redis: Redis, prefix: string): Promise<number> {
  let cursor = '0';
  let deleted = 0;
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) deleted += await redis.unlink(...keys);
  } while (cursor !== '0');
  return deleted;
}

/** Resolves once the connection is ready (API connections refuse commands until then). */
export function waitForRedis(redis: Redis, timeoutMs = 10_000): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Redis not ready within ${timeoutMs} ms`)), timeoutMs);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
