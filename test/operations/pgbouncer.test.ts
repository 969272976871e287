// ockhub behind PgBouncer in transaction pooling mode (Debian's package, started privately for this file): the
// migrations, the API (in this process) and a worker process running every queue all reach PostgreSQL only through
// the pooler. ockhub sends no named prepared statements and keeps no session state (no SET, advisory locks or
// LISTEN), so transaction pooling needs no setting; the pooler's own statistics prove the traffic went through it.
import pg from 'pg';
import { runMigrations } from '../../shared/db/migrate.js';
import { testEnv } from '../support/harness.js';
import {
  countedInstalls,
  createVideo,
  type ListeningWorld,
  openListeningWorld,
  paidMessages,
} from '../support/listening-world.js';
import { PrivatePgBouncer } from '../support/private-pgbouncer.js';
import { finalVideo } from '../support/video-world.js';

const direct = testEnv().DATABASE_URL as string;
const databaseName = new URL(direct).pathname.slice(1);
const user = decodeURIComponent(new URL(direct).username || 'postgres');

let bouncer: PrivatePgBouncer;
let w: ListeningWorld;

beforeAll(async () => {
  bouncer = await PrivatePgBouncer.start(direct, { poolSize: 5 });
  w = await openListeningWorld({ DATABASE_URL: bouncer.url(direct), TELEMETRY_RATE_LIMIT_PER_MINUTE: '0' });
}, 60_000);

afterAll(async () => {
  await w?.close();
  await bouncer?.dispose();
});

async function transactionsThroughPooler(): Promise<number> {
  const stats = await bouncer.stats(user);
  return stats.find((s) => s.database === databaseName)?.transactions ?? 0;
}

describe('behind PgBouncer in transaction pooling mode', () => {
  it('applies every migration through the pooler to a fresh database', async () => {
    const name = `${databaseName}_pooled_${process.pid}`;
    const admin = new pg.Client({ connectionString: bouncer.url(direct.replace(/\/[^/]+$/, '/postgres')) });
    await admin.connect();
    try {
      await admin.query(`drop database if exists "${name}"`);
      await admin.query(`create database "${name}"`);
      const pooled = bouncer.url(direct.replace(/\/[^/]+$/, `/${name}`));
      await runMigrations(pooled);
      await runMigrations(pooled); // and again: nothing left to apply
      const check = new pg.Client({ connectionString: pooled });
      await check.connect();
      const { rows } = await check.query(
        "select count(*)::int as n from information_schema.tables where table_schema = 'public'",
      );
      await check.end();
      expect(rows[0].n).toBeGreaterThan(20);
    } finally {
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    }
  });

  it('serves 40 concurrent paid requests with an exact wallet, streams included', async () => {
    const before = await transactionsThroughPooler();
    const { statuses, spentMicros } = await paidMessages(w, 40, 4);
    expect(statuses).toEqual(Array(40).fill(200));
    expect(spentMicros).toBeGreaterThan(0);
    // Settlement is written behind in batches (the ledger queue), so fewer transactions than requests: some, though.
    expect(await transactionsThroughPooler()).toBeGreaterThan(before);
  });

  it('runs a video task to completion in the worker process, which reaches PostgreSQL only through the pooler', async () => {
    const created = await createVideo(w);
    expect(created.status).toBe(200);
    const done = await finalVideo(w, created.body.id);
    expect(done.status).toBe('completed');
    const file = await fetch(done.video_url);
    expect(file.status).toBe(200);
  });

  it('counts telemetry events in the worker through the pooler', async () => {
    const counted = await countedInstalls(w, ['a', 'b', 'c'], 3);
    expect(counted).toBe(3);
  });

  it('leaves no prepared-statement or protocol error in the pooler log', () => {
    expect(bouncer.log()).not.toMatch(/prepared statement|unsupported|protocol error/i);
  });
});
