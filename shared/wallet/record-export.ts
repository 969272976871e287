// A wallet's records as CSV, newest first, read in keyset batches so an export of any length holds one batch in
// memory. The same filters as the record list (type, period). Each Consume record (and its Refund) names the project
// and API key of its request, so a finance person can total the export per project and per key (docs/wallet.md). A key
// is named only to those who may see it in the console's key lists: an organization Admin, its holder, its project's
// Owner; anyone else gets its id alone, as the Gateway page's recent requests show "another key".
import { and, desc, eq, inArray, lt } from 'drizzle-orm';
import { csvCell, csvLine } from '../csv/csv-cells.js';
import type { DbExecutor } from '../db/client.js';
import {
  apiKeys,
  type OrganizationRole,
  projectMembers,
  projects,
  requestLogs,
  type WalletRecordType,
  walletRecords,
} from '../db/schema/index.js';
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

/** Who reads the export: the account and its role in the organization. */
export type ExportReader = { accountId: string; role: OrganizationRole };
/** Whether the reader may see the name of a key held by `accountId`, bound to `projectId`. */
type MayName = (key: { accountId: string; projectId: string | null }) => boolean;

/** Whether `reader` may see a key's name: every key for an organization Admin, else its own and its projects' keys. */
async function keyNameRule(db: DbExecutor, reader: ExportReader): Promise<MayName> {
  if (reader.role === 'Admin') return () => true;
  const owned = await db
    .select({ projectId: projectMembers.projectId })
    .from(projectMembers)
    .where(and(eq(projectMembers.accountId, reader.accountId), eq(projectMembers.role, 'Owner')));
  const ownedIds = new Set(owned.map((o) => o.projectId));
  return (key) => key.accountId === reader.accountId || (key.projectId !== null && ownedIds.has(key.projectId));
}

/**
 * The project and key of each request log named by a batch of records, with their current names: three indexed
 * reads per batch (request logs, then the projects and keys they name). A project or key deleted since keeps its id
 * in the request log, without a name.
 */
async function originsOf(db: DbExecutor, requestLogIds: string[], mayName: MayName): Promise<Map<string, Origin>> {
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
      ? db
          .select({ id: apiKeys.id, name: apiKeys.name, accountId: apiKeys.accountId, projectId: apiKeys.projectId })
          .from(apiKeys)
          .where(inArray(apiKeys.id, keyIds))
      : [],
  ]);
  const projectNames = new Map(projectRows.map((p) => [p.id, p.name]));
  const keyNames = new Map(keyRows.flatMap((k) => (mayName(k) ? [[k.id, k.name] as const] : [])));
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
  reader: ExportReader,
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
