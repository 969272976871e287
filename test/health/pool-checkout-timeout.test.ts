// The PostgreSQL pool's checkout timeout judges a checkout only after the process has read what PostgreSQL sent: a
// stall of the process's own event loop longer than the timeout, while the client it waits for is being freed, is not
// an overloaded pool (before, the checkout failed as "timeout exceeded when trying to connect" and its request
// answered 503). A checkout that no client frees for still fails at its timeout.
import { execFileSync } from 'node:child_process';
import { createDb, type DbHandle } from '../../shared/db/client.js';
import { testEnv } from '../support/harness.js';

const TIMEOUT_MS = 300;
const HELD_QUERY = 'select 1 as held';
const databaseUrl = testEnv().DATABASE_URL as string;
let handle: DbHandle;

beforeAll(() => {
  handle = createDb(databaseUrl, { max: 1, checkoutTimeoutMs: TIMEOUT_MS });
});
afterAll(async () => handle?.pool.end());

/** Blocks this process's event loop, as a long garbage collection or a core taken by other work does, until the
 * server process `pid` has answered HELD_QUERY (it is idle after it) and the checkout timeout has passed. */
function stallUntilAnswered(pid: number) {
  const started = performance.now();
  for (;;) {
    const seen = execFileSync('psql', [
      databaseUrl,
      '-Atc',
      `select state || ' ' || query from pg_stat_activity where pid = ${pid}`,
    ])
      .toString()
      .trim();
    if (seen === `idle ${HELD_QUERY}` && performance.now() - started > TIMEOUT_MS * 2) return;
  }
}

it('a checkout whose client is freed during a stall of this process gets that client', async () => {
  const holder = await handle.pool.connect();
  const { processID } = holder as unknown as { processID: number };
  // Sent now; PostgreSQL answers during the stall, and the holder lets go of its client as soon as that is read.
  const held = holder.query(HELD_QUERY).then(() => holder.release());
  const waiting = handle.pool.query('select 2 as n');
  stallUntilAnswered(processID);
  await held;
  await expect(waiting).resolves.toMatchObject({ rows: [{ n: 2 }] });
});

it('a checkout no client is freed for fails at its timeout, and the pool serves the next one', async () => {
  const holder = await handle.pool.connect();
  await expect(handle.pool.query('select 1')).rejects.toThrow('timeout exceeded when trying to connect');
  holder.release();
  await expect(handle.pool.query('select 3 as n')).resolves.toMatchObject({ rows: [{ n: 3 }] });
});
