// Redis connections: the API fails fast when Redis is down (503, never a hang); workers wait and retry.
// With REDIS_CLUSTER_NODES set, every connection is an ioredis Cluster over those seed nodes (credentials and TLS
// from REDIS_URL). The Cluster is handed around typed as `Redis`: both share the command set, and the few calls
// that differ (scanning keys, duplicating a connection) go through the helpers below.
import { Cluster, Redis, type RedisOptions } from 'ioredis';
import './reply-first-timeout.js';

export type RedisRole = 'api' | 'worker';

/** Where Redis is: a single node (REDIS_URL), or a cluster's seed nodes `host:port,host:port`. */
export type RedisTarget = { REDIS_URL: string; REDIS_CLUSTER_NODES?: string | undefined };

export function createRedis(target: RedisTarget, role: RedisRole, extra: RedisOptions = {}): Redis {
  const common: RedisOptions = {
    lazyConnect: false,
    connectTimeout: 2_000,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  };
  const byRole: RedisOptions =
    role === 'api'
      ? { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 2_000 }
      : { maxRetriesPerRequest: null, enableReadyCheck: true };
  const options = { ...common, ...byRole, ...extra };
  const redis = target.REDIS_CLUSTER_NODES
    ? createCluster(target.REDIS_URL, target.REDIS_CLUSTER_NODES, options)
    : new Redis(target.REDIS_URL, { ...autoPipelined(role), ...options });
  // Connection errors are reported by health checks and failing commands; an unhandled 'error' event would crash.
  redis.on('error', () => {});
  return redis;
}

/**
 * The API's connection on a single node auto-pipelines: the commands its concurrent requests issue in one turn of the
 * event loop (the gateway's admit and settle steps, telemetry intakes) leave in one socket write and are answered in
 * order, as before. Its Lua commands are defined at once (lua-commands.ts), and BullMQ, which defines its own lazily,
 * gets a connection of its own (`queueConnection`). Not on a cluster: ioredis picks a command's slot from its first
 * argument, which for a Lua command without a fixed key count is not a key.
 */
const autoPipelined = (role: RedisRole): RedisOptions => (role === 'api' ? { enableAutoPipelining: true } : {});

/**
 * The connection BullMQ's producers use: the process's own one, or beside an auto-pipelined one, a plain duplicate.
 * The duplicate queues what is asked of it before it is ready (a process waits for its first connection only); its
 * commands still fail within the API's command timeout when Redis is down.
 */
export function queueConnection(redis: Redis): Redis {
  if (!redis.options.enableAutoPipelining) return redis;
  return duplicateRedis(redis, { enableAutoPipelining: false, enableOfflineQueue: true });
}

function createCluster(url: string, nodes: string, options: RedisOptions): Redis {
  const auth = new URL(url);
  const seeds = nodes.split(',').map((node) => {
    const [host, port] = node.trim().split(':');
    return { host: host as string, port: Number(port) };
  });
  const { enableOfflineQueue, retryStrategy, ...perNode } = options;
  const cluster = new Cluster(seeds, {
    // Workers let the cluster queue commands while it (re)discovers slots; the API refuses them, as on one node.
    enableOfflineQueue: enableOfflineQueue ?? true,
    enableReadyCheck: true,
    clusterRetryStrategy: (times) => (retryStrategy ? retryStrategy(times) : Math.min(times * 200, 2_000)),
    redisOptions: {
      ...perNode,
      ...(auth.username ? { username: decodeURIComponent(auth.username) } : {}),
      ...(auth.password ? { password: decodeURIComponent(auth.password) } : {}),
      ...(auth.protocol === 'rediss:' ? { tls: {} } : {}),
    },
  });
  return cluster as unknown as Redis;
}

export const isCluster = (redis: Redis): boolean => (redis as unknown) instanceof Cluster;

/** A second connection like `redis`, with some options changed (a Cluster's duplicate takes its seeds first). */
export function duplicateRedis(redis: Redis, extra: RedisOptions): Redis {
  if (!isCluster(redis)) return redis.duplicate(extra);
  const cluster = redis as unknown as Cluster;
  const duplicate = cluster.duplicate([], { redisOptions: { ...cluster.options.redisOptions, ...extra } });
  duplicate.on('error', () => {});
  return duplicate as unknown as Redis;
}

/**
 * Every key matching `pattern`, in batches. On a cluster each master holds its own keyspace, so every master is
 * scanned; a batch is then keys of one node (a multi-key command on them may still cross slots: use one key per call).
 */
export async function* scanKeys(redis: Redis, pattern: string, count = 1000): AsyncGenerator<string[]> {
  const nodes = isCluster(redis) ? (redis as unknown as Cluster).nodes('master') : [redis];
  for (const node of nodes) {
    for await (const keys of node.scanStream({ match: pattern, count }) as AsyncIterable<string[]>) {
      if (keys.length > 0) yield keys;
    }
  }
}

/** Deletes every key under a prefix (tests and local resets only). */
export async function deleteKeysWithPrefix(redis: Redis, prefix: string): Promise<number> {
  let deleted = 0;
  for await (const keys of scanKeys(redis, `${prefix}*`, 500)) {
    // One key per command: keys of one batch may live in different slots of a cluster.
    const counts = isCluster(redis)
      ? await Promise.all(keys.map((k) => redis.unlink(k)))
      : [await redis.unlink(...keys)];
    deleted += counts.reduce((a, b) => a + b, 0);
  }
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
