// A migration's backfill run again on a table emptied, in a transaction that is rolled back: what it would have
// written from the rows there are now, to compare with what the code kept writing since.
import { readFile } from 'node:fs/promises';
import { sql, TransactionRollbackError } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '../../shared/db/client.js';

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

/** The backfill of a migration: its INSERT and UPDATE statements, in order. */
async function backfillOf(migration: string): Promise<string[]> {
  const text = await readFile(new URL(`../../shared/db/migrations/${migration}`, import.meta.url), 'utf8');
  const statements = text.split('--> statement-breakpoint').filter((s) => /^(INSERT|UPDATE)\b/.test(s.trim()));
  if (statements.length === 0) throw new Error(`${migration} has no INSERT or UPDATE statement`);
  return statements;
}

/**
 * Runs the backfill (INSERT and UPDATE statements) of `migrations` (files of shared/db/migrations, one after the other,
 * as a release applies them: a table's first, then those that add its columns) on `table` emptied and answers `read` of
 * the result.
 */
export async function rebuiltByBackfill<T>(
  db: Database,
  migrations: string | string[],
  table: PgTable,
  read: (tx: Tx) => Promise<T>,
): Promise<T> {
  const backfill = (await Promise.all([migrations].flat().map(backfillOf))).flat();
  let rebuilt: T | undefined;
  await db
    .transaction(async (tx) => {
      await tx.delete(table);
      for (const statement of backfill) await tx.execute(sql.raw(statement));
      rebuilt = await read(tx);
      tx.rollback();
    })
    .catch((err: unknown) => {
      if (!(err instanceof TransactionRollbackError)) throw err;
    });
  return rebuilt as T;
}
