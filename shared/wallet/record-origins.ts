// Where a wallet record's money went: the project and API key of the gateway request a Consume record (or its Refund)
// names, with their current names, for the record list and its CSV export. A key is named only to those who may see it
// in the console's key lists: an organization Admin, its holder, its project's Owner; anyone else gets its id alone,
// as the Gateway page's recent requests show "another key" (security review #145).
import { and, eq, inArray } from 'drizzle-orm';
import type { DbExecutor } from '../db/client.js';
import { apiKeys, type OrganizationRole, projectMembers, projects, requestLogs } from '../db/schema/index.js';
import { isUuid } from '../validation/uuid.js';
import type { WalletRecord } from './ledger.js';

export type RecordOrigin = { projectId: string; projectName?: string; apiKeyId?: string; apiKeyName?: string };

/** Who reads the records: the account and its role in the organization. */
export type RecordReader = { accountId: string; role: OrganizationRole };
/** Whether the reader may see the name of a key held by `accountId`, bound to `projectId`. */
export type MayName = (key: { accountId: string; projectId: string | null }) => boolean;

/** Whether `reader` may see a key's name: every key for an organization Admin, else its own and its projects' keys. */
export async function keyNameRule(db: DbExecutor, reader: RecordReader): Promise<MayName> {
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
export async function originsOf(
  db: DbExecutor,
  requestLogIds: string[],
  mayName: MayName,
): Promise<Map<string, RecordOrigin>> {
  const ids = [...new Set(requestLogIds.filter(isUuid))];
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

/** The origins of a page of records, for `reader`. */
export async function recordOrigins(
  db: DbExecutor,
  records: WalletRecord[],
  reader: RecordReader,
): Promise<Map<string, RecordOrigin>> {
  const ids = records.flatMap((r) => (r.requestLogId ? [r.requestLogId] : []));
  if (ids.length === 0) return new Map();
  return originsOf(db, ids, await keyNameRule(db, reader));
}
