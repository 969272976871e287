// A wallet's records as CSV, newest first, read in keyset batches so an export of any length holds one batch in
// memory. The same filters as the record list (type, period). Each Consume record (and its Refund) names the project
// and API key of its request, so a finance person can total the export per project and per key (docs/wallet.md).
import { and, desc, inArray, lt } from 'drizzle-orm';
import { csvCell, csvLine } from '../csv/csv-cells.js';
import type { DbExecutor } from '../db/client.js';
import { apiKeys, projects, requestLogs, type WalletRecordType, walletRecords } from '../db/schema/index.js';
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
  'projectId',
  'projectName',
  'apiKeyId',
  'apiKeyName',
  'topUpCodeId',
]);

const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Origin = { projectId: string; projectName?: string; apiKeyId?: string; apiKeyName?: string };

/**
 * The project and key of each request log named by a batch of records, with their current names: three indexed
 * reads per batch (request logs, then the projects and keys they name). A project or key deleted since keeps its id
 * in the request log, without a name.
 */
async function originsOf(db: DbExecutor, requestLogIds: string[]): Promise<Map<string, Origin>> {
  const ids = [...new Set(requestLogIds.filter((id) => uuidShape.test(id)))];
  if (ids.length === 0) return new Map();
  const logs = await db
    .select({ id: requestLogs.id, projectId: requestLogs.projectId, apiKeyId: requestLogs.apiKeyId })
    .from(requestLogs)
    .where(inArray(requestLogs.id, ids));
  const projectIds = [...new Set(logs.map((l) => l.projectId))];
  const keyIds = [...new Set(logs.flatMap((l) => (l.apiKeyId ? [l.apiKeyId] : [])))];
  const [projectRows, keyRows] = await Promise.all([
    projectIds.length
      ? db.select({ id: projects.id, name: projects.name }).from(projects).where(inArray(projects.id, projectIds))
      : [],
    keyIds.length
      ? db.select({ id: apiKeys.id, name: apiKeys.name }).from(apiKeys).where(inArray(apiKeys.id, keyIds))
      : [],
  ]);
  const projectNames = new Map(projectRows.map((p) => [p.id, p.name]));
  const keyNames = new Map(keyRows.map((k) => [k.id, k.name]));
  return new Map(
    logs.map((l) => [
      l.id,
      {
        projectId: l.projectId,
        projectName: projectNames.get(l.projectId),
        ...(l.apiKeyId ? { apiKeyId: l.apiKeyId, apiKeyName: keyNames.get(l.apiKeyId) } : {}),
      },
    ]),
  );
}

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
    const origins = await originsOf(
      db,
      rows.flatMap((r) => (r.requestLogId ? [r.requestLogId] : [])),
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
