// The connections a process holds (database, Redis, queues, logger), opened once at start and closed at the end.
import type { Redis } from 'ioredis';
import type { Config } from './config/index.js';
import { createDb, type Database, type DbHandle } from './db/client.js';
import { createPasswordHasher, type PasswordHasher } from './identity/password-hasher.js';
import { createLogger, type Logger } from './logging/logger.js';
import { QueueProducer } from './queues/producer.js';
import { createRedis, queueConnection, type RedisRole } from './redis/connection.js';
import { defineLuaCommands } from './redis/lua-commands.js';
import { createStorage, type ObjectStorage } from './storage/index.js';

export type AppContext = {
  config: Config;
  logger: Logger;
  db: Database;
  pool: DbHandle['pool'];
  redis: Redis;
  queues: QueueProducer;
  storage: ObjectStorage;
  /** Hashes and verifies passwords on this process's bounded pool of threads (started on first use). */
  passwords: PasswordHasher;
  /** Registers a resource opened lazily for this context (e.g. a QueueEvents listener); closed first by close(). */
  onClose(closer: () => Promise<void>): void;
  close(): Promise<void>;
};

export function createAppContext(config: Config, role: RedisRole, name: string = role): AppContext {
  const logger = createLogger(config, name);
  const { db, pool } = createDb(config.DATABASE_URL, { applicationName: `ockhub-${name}` });
  const redis = createRedis(config, role);
  defineLuaCommands(redis);
  const queueRedis = queueConnection(redis);
  const queues = new QueueProducer(queueRedis, config.REDIS_PREFIX);
  const storage = createStorage(config);
  const passwords = createPasswordHasher(
    {
      threads: config.PASSWORD_HASH_THREADS,
      queueLimit: config.PASSWORD_HASH_QUEUE_LIMIT,
      priority: config.PASSWORD_HASH_PRIORITY,
      cpuShare: config.PASSWORD_HASH_CPU_SHARE,
    },
    (err) => logger.error({ err }, 'a password hashing thread failed'),
  );
  let closed = false;
  const closers: (() => Promise<void>)[] = [];
  return {
    config,
    logger,
    db,
    pool,
    redis,
    queues,
    storage,
    passwords,
    onClose(closer) {
      closers.push(closer);
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all(closers.map((c) => c().catch(() => {})));
      await passwords.close().catch(() => {});
      await queues.close().catch(() => {});
      if (queueRedis !== redis) queueRedis.disconnect();
      redis.disconnect();
      await pool.end().catch(() => {});
    },
  };
}
