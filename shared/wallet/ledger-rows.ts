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
 * Inserts the request logs not yet written (idempotent by id); returns the ids this call inserted. In the same statement,
 * the rows it inserted (and only those, so a batch written again adds nothing) are counted per API key and UTC day of
 * the request's start (`created_at`) with what their settlements charged and added to `api_key_daily_gateway_usage`,
 * which the key lists read, and per
 * organization and day with what their settlements charged (`charged`: the amount of the Consume record the writer
 * makes for each fresh one that charged) to `organization_daily_spending`, which the Overview's spending reads, and
 * per project, day, operation and model (the model that served each) with their tokens, cache reads and writes
 * included, to `project_daily_usage`, which a project's usage reads. A key
 * deleted while its requests waited in the stream is skipped: its rows are locked `for key share` (what the foreign key
 * check takes anyway; it does not conflict with the rollover's `last_used_at` updates), so one deleted meanwhile is
 * either gone, and not counted, or waits for this transaction and takes its counts with it.
 * The keys' last use is not written here: it goes to Redis after the commit (shared/identity/credential-cache.ts,
 * recordLastUse), because moving many key rows inside this transaction deadlocked against the daily usage rollover
 * under load.
 */
export async function insertRequestLogs(
  tx: DbExecutor,
  entries: (LedgerEntry & { charged: bigint })[],
): Promise<Set<string>> {
  if (entries.length === 0) return new Set();
  const { rows } = await tx.execute<{ id: string }>(sql`
    with batch as (
      select * from json_to_recordset(${jsonOf(entries)}::json) as r(
               "id" uuid, "organizationId" uuid, "projectId" uuid, "apiKeyId" uuid, "operation" text, "model" text,
               "status" text, "httpStatus" integer, "inputTokens" integer, "outputTokens" integer,
               "cacheReadTokens" integer, "cacheWriteTokens" integer, "cost" bigint, "latencyMs" integer,
               "errorMessage" text, "correlationId" text, "startedAt" bigint, "finishedAt" bigint, "charged" bigint)
    ), inserted as (
      insert into request_logs (id, organization_id, project_id, api_key_id, operation, model, status, http_status,
                                input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cost_micros,
                                latency_ms, error_message, correlation_id, created_at, finished_at)
      select r."id", r."organizationId", r."projectId", r."apiKeyId", r."operation", r."model", r."status",
             r."httpStatus", r."inputTokens", r."outputTokens", r."cacheReadTokens", r."cacheWriteTokens", r."cost",
             r."latencyMs", r."errorMessage", r."correlationId", ${fromEpochMs('"startedAt"')},
             ${fromEpochMs('"finishedAt"')}
        from batch r
      on conflict do nothing
      returning id, organization_id, project_id, api_key_id, operation, model, input_tokens, output_tokens,
                cache_read_tokens, cache_write_tokens, created_at
    ), spent as (
      insert into organization_daily_spending (organization_id, day, request_count, spent)
      select i.organization_id, (i.created_at at time zone 'UTC')::date, count(*)::int, sum(greatest(b."charged", 0))
        from inserted i join batch b on b."id" = i.id
       group by 1, 2 order by 1, 2
      on conflict (organization_id, day) do update
        set request_count = organization_daily_spending.request_count + excluded.request_count,
            spent = organization_daily_spending.spent + excluded.spent
    ), used as (
      insert into project_daily_usage (project_id, day, operation, model, request_count, input_tokens, output_tokens,
                                       cache_read_tokens, cache_write_tokens, spent)
      select i.project_id, (i.created_at at time zone 'UTC')::date, i.operation, coalesce(i.model, ''), count(*)::int,
             sum(i.input_tokens), sum(i.output_tokens), sum(i.cache_read_tokens), sum(i.cache_write_tokens),
             sum(greatest(b."charged", 0))
        from inserted i join batch b on b."id" = i.id
       group by 1, 2, 3, 4 order by 1, 2, 3, 4
      on conflict (project_id, day, operation, model) do update
        set request_count = project_daily_usage.request_count + excluded.request_count,
            input_tokens = project_daily_usage.input_tokens + excluded.input_tokens,
            output_tokens = project_daily_usage.output_tokens + excluded.output_tokens,
            cache_read_tokens = project_daily_usage.cache_read_tokens + excluded.cache_read_tokens,
            cache_write_tokens = project_daily_usage.cache_write_tokens + excluded.cache_write_tokens,
            spent = project_daily_usage.spent + excluded.spent
    ), counted as (
      select i.api_key_id as key_id, (i.created_at at time zone 'UTC')::date as day, count(*)::int as n,
             sum(greatest(b."charged", 0)) as spent
        from inserted i join batch b on b."id" = i.id
       where i.api_key_id is not null group by 1, 2
    ), live_keys as (
      select id from api_keys where id in (select key_id from counted) order by id for key share
    ), added as (
      insert into api_key_daily_gateway_usage (key_id, day, request_count, spent)
      select c.key_id, c.day, c.n, c.spent from counted c join live_keys k on k.id = c.key_id order by c.key_id, c.day
      on conflict (key_id, day) do update
        set request_count = api_key_daily_gateway_usage.request_count + excluded.request_count,
            spent = api_key_daily_gateway_usage.spent + excluded.spent
    )
    select id from inserted`);
  return new Set(rows.map((r) => r.id));
}

/** Which of these request logs are already written (a batch written again after a crash). */
export async function writtenRequestLogIds(tx: DbExecutor, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const { rows } = await tx.execute<{ id: string }>(
    sql`select id from request_logs where id = any(${`{${ids.join(',')}}`}::uuid[])`,
  );
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
