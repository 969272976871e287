// Row and table locks held by the test in an open PostgreSQL transaction: a worker's job that needs them waits
// inside the job (provably mid-flight) until the test rolls back.
import pg from 'pg';

export type HeldLocks = {
  /** Backends of worker processes (application_name ockhub-worker) waiting for a lock right now, optionally only
   * those whose statement mentions `table`. */
  waitingWorkers(table?: string): Promise<number>;
  release(): Promise<void>;
};

export async function holdLocks(databaseUrl: string, statements: { text: string; values?: unknown[] }[]) {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'reliability-lock-holder' });
  await client.connect();
  await client.query('begin');
  for (const s of statements) await client.query(s.text, s.values);
  let released = false;
  const held: HeldLocks = {
    async waitingWorkers(table = '') {
      // Activity is read once per transaction unless the snapshot is dropped, and this client stays in one.
      await client.query('select pg_stat_clear_snapshot()');
      const { rows } = await client.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity
         where application_name = 'ockhub-worker' and wait_event_type = 'Lock' and strpos(query, $1) > 0`,
        [table],
      );
      return rows[0]?.n ?? 0;
    },
    async release() {
      if (released) return;
      released = true;
      await client.query('rollback').catch(() => undefined);
      await client.end().catch(() => undefined);
    },
  };
  return held;
}
