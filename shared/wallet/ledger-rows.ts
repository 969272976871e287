// The ledger writer's two bulk inserts, each ONE statement with ONE parameter: the batch as a JSON array, turned into
// rows by PostgreSQL's json_to_recordset. A 1,000-entry batch as a multi-row VALUES list was 18,000 bind parameters
// built and sent one by one; as JSON it is one string, and the statement text is the same for every batch.
import { sql } from 'drizzle-orm';
import type { DbExecutor } from '../db/client.js';
import type { LedgerEntry } from './ledger-entry.js';

/** The batch as JSON text; amounts (bigint) as decimal strings, which json_to_recordset reads into bigint columns. */
const jsonOf = (rows: object[]) =>
  JSON.stringify(rows, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));

/** Epoch milliseconds to timestamptz, exactly (to_timestamp goes through a double). */
const fromEpochMs = (column: string) => sql.raw(`timestamptz 'epoch' + r.${column} * interval '1 millisecond'`);

/**
 * Inserts the request logs not yet written (idempotent by id); returns the ids this call inserted. The keys' last use is
 * not written here: it goes to Redis after the commit (shared/identity/credential-cache.ts, recordLastUse), because
 * moving many key rows inside this transaction deadlocked against the daily usage rollover under load.
 */
export async function insertRequestLogs(tx: DbExecutor, entries: LedgerEntry[]): Promise<Set<string>> {
  if (entries.length === 0) return new Set();
  const { rows } = await tx.execute<{ id: string }>(sql`
    insert into request_logs (id, organization_id, project_id, api_key_id, operation, model, status, http_status,
                              input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cost_micros,
                              latency_ms, error_message, correlation_id, created_at, finished_at)
    select r."id", r."organizationId", r."projectId", r."apiKeyId", r."operation", r."model", r."status",
           r."httpStatus", r."inputTokens", r."outputTokens", r."cacheReadTokens", r."cacheWriteTokens", r."cost",
           r."latencyMs", r."errorMessage", r."correlationId", ${fromEpochMs('"startedAt"')},
           ${fromEpochMs('"finishedAt"')}
      from json_to_recordset(${jsonOf(entries)}::json) as r(
             "id" uuid, "organizationId" uuid, "projectId" uuid, "apiKeyId" uuid, "operation" text, "model" text,
             "status" text, "httpStatus" integer, "inputTokens" integer, "outputTokens" integer,
             "cacheReadTokens" integer, "cacheWriteTokens" integer, "cost" bigint, "latencyMs" integer,
             "errorMessage" text, "correlationId" text, "startedAt" bigint, "finishedAt" bigint)
    on conflict do nothing
    returning id`);
  return new Set(rows.map((r) => r.id));
}

export type ConsumeRecord = {
  id: string;
  seq: number;
  amount: bigint;
  previousBalance: bigint;
  currentBalance: bigint;
  description: string;
  requestLogId: string;
};

/** Inserts an organization's Consume records of one batch (their seq chained by the caller under the wallet lock). */
export async function insertConsumeRecords(
  tx: DbExecutor,
  organizationId: string,
  records: ConsumeRecord[],
): Promise<void> {
  if (records.length === 0) return;
  await tx.execute(sql`
    insert into wallet_records (id, organization_id, seq, type, amount, previous_balance, current_balance,
                                description, request_log_id, idempotency_key)
    select r."id", ${organizationId}::uuid, r."seq", 'Consume', r."amount", r."previousBalance", r."currentBalance",
           r."description", r."requestLogId", 'consume:' || r."requestLogId"
      from json_to_recordset(${jsonOf(records)}::json) as r(
             "id" uuid, "seq" bigint, "amount" bigint, "previousBalance" bigint, "currentBalance" bigint,
             "description" text, "requestLogId" text)`);
}
