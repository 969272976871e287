// A wallet's records as CSV, newest first, read in keyset batches so an export of any length holds one batch in
// memory. The same filters as the record list (type, period). Each Consume record (and its Refund) names the project
// and API key of its request, as the record list does (shared/wallet/record-origins.ts), so a finance person can total
// the export per project and per key (docs/wallet.md).
import { and, desc, lt } from 'drizzle-orm';
import { csvCell, csvLine } from '../csv/csv-cells.js';
import type { DbExecutor } from '../db/client.js';
import { type WalletRecordType, walletRecords } from '../db/schema/index.js';
import { type RecordPeriod, recordFilter } from './ledger.js';
import { formatMicros } from './money.js';
import { keyNameRule, type MayName, originsOf, type RecordReader } from './record-origins.js';

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
  'projectId',
  'projectName',
  'apiKeyId',
  'apiKeyName',
  'topUpCodeId',
]);

export async function* recordCsvLines(
  db: DbExecutor,
  organizationId: string,
  filter: { type?: WalletRecordType | undefined } & RecordPeriod,
  reader: RecordReader,
): AsyncGenerator<string> {
  let beforeSeq: number | undefined;
  let mayName: MayName | undefined;
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
    mayName ??= await keyNameRule(db, reader);
    const origins = await originsOf(
      db,
      rows.flatMap((r) => (r.requestLogId ? [r.requestLogId] : [])),
      mayName,
    );
    for (const r of rows) {
      const origin = r.requestLogId ? origins.get(r.requestLogId) : undefined;
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
        csvCell(origin?.projectId),
        csvCell(origin?.projectName),
        csvCell(origin?.apiKeyId),
        csvCell(origin?.apiKeyName),
        csvCell(r.topUpCodeId),
      ]);
    }
    if (rows.length < BATCH) return;
    beforeSeq = rows.at(-1)?.seq;
  }
}
