// Migration 0026 runs while the previous release's ledger writers insert request logs (docs/operations.md, upgrades).
// Its statements must take their locks in the writer's order (request_logs, then api_key_daily_gateway_usage): it first
// altered the usage table (ACCESS EXCLUSIVE), then asked for SHARE on request_logs, so a ledger batch that had locked
// request_logs and waited for the usage table between the two closed a cycle, and PostgreSQL killed one of them
// (deadlock detected): a lost batch, or a failed upgrade. Run on a database of its own, migrated to 0025.
import { randomUUID } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { ensureDatabase, migrationsFolder } from '../../shared/db/migrate.js';
import * as schema from '../../shared/db/schema/index.js';
import { createAccount } from '../../shared/identity/accounts.js';
import { createOrganization } from '../../shared/organizations/organizations.js';
import { insertRequestLogs } from '../../shared/wallet/ledger-rows.js';
import { waitUntil } from '../support/harness.js';

const base = new URL(process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/ockhub');
base.pathname = `/ockhub_test_${process.env.OCKHUB_TEST_RUN ?? process.pid}_m0026_${process.env.JEST_WORKER_ID ?? 1}`;
const url = base.toString();
let folder: string;
let pool: pg.Pool;

/** The release before: the migrations up to 0025, applied as a release applies them. */
beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'ockhub-migrations-'));
  await cp(migrationsFolder, folder, { recursive: true });
  const journalPath = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalPath, 'utf8')) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((e) => e.idx <= 25);
  await writeFile(journalPath, JSON.stringify(journal));
  await ensureDatabase(url);
  pool = new pg.Pool({ connectionString: url, max: 4 });
  await migrate(drizzle(pool), { migrationsFolder: folder });
});
afterAll(async () => {
  await pool.end();
  const admin = new pg.Client({ connectionString: new URL('/postgres', base).toString() });
  await admin.connect();
  await admin.query(`drop database if exists "${base.pathname.slice(1)}" with (force)`);
  await admin.end();
  await rm(folder, { recursive: true, force: true });
});

it('0026 takes its locks in the ledger writer’s order, so a batch arriving mid-migration waits instead of deadlocking', async () => {
  const db = drizzle(pool, { schema });
  const account = await createAccount({ db } as never, {
    email: `m0026-${randomUUID()}@example.test`,
    name: 'Migrator',
    passwordHash: 'x',
  });
  const organization = await createOrganization({ db }, account.id, { name: 'Upgrading' });
  const now = Date.now();
  const entry = {
    id: randomUUID(),
    organizationId: organization.id,
    projectId: randomUUID(),
    apiKeyId: null,
    operation: 'messages',
    model: 'claude-test',
    status: 'succeeded',
    httpStatus: 200,
    inputTokens: 1,
    outputTokens: 1,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    cost: '0',
    latencyMs: 1,
    errorMessage: null,
    correlationId: null,
    startedAt: now,
    finishedAt: now,
    charged: 0n,
  };

  const statements = (await readFile(path.join(migrationsFolder, '0026_api_key_daily_spent.sql'), 'utf8'))
    .split('--> statement-breakpoint')
    .map((s) => s.trim());
  const migrator = await pool.connect();
  try {
    await migrator.query('begin');
    const [first, ...rest] = statements as [string, ...string[]];
    await migrator.query(first);
    // A ledger batch arrives between the migration's statements: it runs until it finishes or waits for a lock.
    const batch = db
      .transaction((tx) => insertRequestLogs(tx, [entry]))
      .then(
        (ids) => ({ ids }),
        // drizzle wraps PostgreSQL's error (40P01 deadlock detected, on the old order) in its cause
        (err: { cause?: { code?: string; message?: string } }) => ({
          error: `${err.cause?.code} ${err.cause?.message}`,
        }),
      );
    let settled = false;
    void batch.then(() => {
      settled = true;
    });
    await waitUntil(async () => {
      if (settled) return true;
      // From another connection: a transaction reads pg_stat_activity once and keeps that snapshot.
      const { rows } = await pool.query(
        "select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
      );
      return rows.length > 0;
    });
    const migrated = await (async () => {
      for (const statement of rest) await migrator.query(statement);
      await migrator.query('commit');
      return 'committed';
    })().catch(async (err: { code?: string; message: string }) => {
      await migrator.query('rollback');
      return `${err.code} ${err.message}`;
    });
    expect([migrated, await batch]).toEqual(['committed', { ids: new Set([entry.id]) }]);
  } finally {
    migrator.release();
  }
}, 30_000);
