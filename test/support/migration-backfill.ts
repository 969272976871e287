// A migration's backfill run again on a table emptied, in a transaction that is rolled back: what it would have
// written from the rows there are now, to compare with what the code kept writing since.
import { readFile } from 'node:fs/promises';
import { sql, TransactionRollbackError } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '../../shared/db/client.js';

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

/** Runs the INSERT of `migration` (a file of shared/db/migrations) on `table` emptied and answers `read` of the result. */
export async function rebuiltByBackfill<T>(
  db: Database,
  migration: string,
  table: PgTable,
  read: (tx: Tx) => Promise<T>,
): Promise<T> {
  const text = await readFile(new URL(`../../shared/db/migrations/${migration}`, import.meta.url), 'utf8');
  const backfill = text.split('--> statement-breakpoint').find((s) => s.trim().startsWith('INSERT'));
  if (!backfill) throw new Error(`${migration} has no INSERT statement`);
  let rebuilt: T | undefined;
  await db
    .transaction(async (tx) => {
      await tx.delete(table);
      await tx.execute(sql.raw(backfill));
      rebuilt = await read(tx);
      tx.rollback();
    })
    .catch((err: unknown) => {
      if (!(err instanceof TransactionRollbackError)) throw err;
    });
  return rebuilt as T;
}
