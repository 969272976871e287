// PostgreSQL pool and the drizzle handle over it.
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import { ReplyFirstPool } from './reply-first-pool.js';
import * as schema from './schema/index.js';

export type Database = NodePgDatabase<typeof schema>;
/** A database handle or a transaction opened from it; services accept either. */
export type DbExecutor = Database | Parameters<Parameters<Database['transaction']>[0]>[0];

export type DbHandle = { pool: pg.Pool; db: Database };

export function createDb(
  databaseUrl: string,
  options: { max?: number; applicationName?: string; checkoutTimeoutMs?: number } = {},
): DbHandle {
  const pool = new ReplyFirstPool(
    {
      connectionString: databaseUrl,
      max: options.max ?? 10,
      idleTimeoutMillis: 30_000,
      application_name: options.applicationName ?? 'ockhub',
    },
    options.checkoutTimeoutMs ?? 5_000,
  );
  // An idle client that loses its server must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  // Nor may a checked-out one (inside a transaction, between two statements): the pool listens to its clients only
  // while they are idle, and an 'error' event nobody listens to is thrown. The failed query still rejects, and the
  // pool drops the dead client when it is released.
  pool.on('connect', (client) => client.on('error', () => {}));
  return { pool, db: drizzle(pool, { schema }) };
}
