// The connections a process holds (database, Redis, queues, logger), opened once at start and closed at the end.
import type { Redis } from 'ioredis';
import type { Config } from './config/index.js';
import { createDb, type Database, type DbHandle } from './db/client.js';
import { createLogger, type Logger } from './logging/logger.js';
import { QueueProducer } from './queues/producer.js';
import { createRedis, type RedisRole } from './redis/connection.js';
import { createStorage, type ObjectStorage } from './storage/index.js';

export type AppContext = {
  config: Config;
  logger: Logger;
  db: Database;
  pool: DbHandle['pool'];
  redis: Redis;
  queues: QueueProducer;
  storage: ObjectStorage;
  /** Registers a resource opened lazily for this context (e.g. a QueueEvents listener); closed first by close(). */
  onClose(closer: () => Promise<void>): void;
  close(): Promise<void>;
};

export function createAppContext(config: Config, role: RedisRole, name: string = role): AppContext {
  const logger = createLogger(config, name);
  const { db, pool } = createDb(config.DATABASE_URL, { applicationName: `ockhub-${name}` });
  const redis = createRedis(config.REDIS_URL, role);
  const queues = new QueueProducer(redis, config.REDIS_PREFIX);
  const storage = createStorage(config);
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
    onClose(closer) {
      closers.push(closer);
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all(closers.map((c) => c().catch(() => {})));
      await queues.close().catch(() => {});
      redis.disconnect();
      await pool.end().catch(() => {});
    },
  };
}
