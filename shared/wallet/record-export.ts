// A wallet's records as CSV, newest first, read in keyset batches so an export of any length holds one batch in
// memory. The same filters as the record list (type, period).
import { and, desc, lt } from 'drizzle-orm';
import { csvCell, csvLine } from '../csv/csv-cells.js';
import type { DbExecutor } from '../db/client.js';
import { type WalletRecordType, walletRecords } from '../db/schema/index.js';
import { type RecordPeriod, recordFilter } from './ledger.js';
import { formatMicros } from './money.js';

const BATCH = 500;

export const recordCsvHeader = csvLine([
  'id',
  'createdAt',
  'type',
  'amount',
  'previousBalance',
  'currentBalance',
  'description',
  'requestLogId',
  'refundOf',
]);

export async function* recordCsvLines(
  db: DbExecutor,
  organizationId: string,
  filter: { type?: WalletRecordType | undefined } & RecordPeriod,
): AsyncGenerator<string> {
  let beforeSeq: number | undefined;
  for (;;) {
    const rows = await db
      .select()
      .from(walletRecords)
      .where(
        and(
          recordFilter(organizationId, filter),
          beforeSeq === undefined ? undefined : lt(walletRecords.seq, beforeSeq),
        ),
      )
      .orderBy(desc(walletRecords.seq))
      .limit(BATCH);
    // The header after the first read: a caller that awaits the first line has seen the database answer.
    if (beforeSeq === undefined) yield recordCsvHeader;
    for (const r of rows) {
      yield csvLine([
        csvCell(r.id),
        csvCell(r.createdAt.toISOString()),
        csvCell(r.type),
        csvCell(formatMicros(r.amount), 'number'),
        csvCell(formatMicros(r.previousBalance), 'number'),
        csvCell(formatMicros(r.currentBalance), 'number'),
        csvCell(r.description),
        csvCell(r.requestLogId),
        csvCell(r.refundOf),
      ]);
    }
    if (rows.length < BATCH) return;
    beforeSeq = rows.at(-1)?.seq;
  }
}
