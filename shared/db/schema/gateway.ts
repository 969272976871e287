// One row per counted gateway request: who, which model, tokens, cost, latency and outcome (the usage history).
import { sql } from 'drizzle-orm';
import { bigint, date, index, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { at, createdAt, id } from './columns.js';

export const requestLogs = pgTable(
  'request_logs',
  {
    id: id(),
    organizationId: uuid('organization_id').notNull(),
    projectId: uuid('project_id').notNull(),
    apiKeyId: uuid('api_key_id'),
    operation: text('operation').notNull(),
    model: text('model'),
    status: text('status').notNull(),
    httpStatus: integer('http_status'),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    cacheReadTokens: integer('cache_read_tokens').notNull().default(0),
    cacheWriteTokens: integer('cache_write_tokens').notNull().default(0),
    costMicros: bigint('cost_micros', { mode: 'bigint' }).notNull().default(sql`0`),
    latencyMs: integer('latency_ms'),
    errorMessage: text('error_message'),
    correlationId: text('correlation_id'),
    createdAt: createdAt(),
    finishedAt: at('finished_at'),
  },
  (t) => [
    index('request_logs_project_idx').on(t.projectId, t.createdAt),
    index('request_logs_org_idx').on(t.organizationId, t.createdAt),
  ],
);

/**
 * A project's gateway requests per UTC day of their start, operation and model: how many, their tokens and what their
 * Consume records took. Kept by the ledger writer in the statement that inserts the request logs (only rows it inserts,
 * so a batch written again adds nothing), so the console's usage of a project reads at most a row per day, operation
 * and model (`GET /api/projects/{projectId}/usage`, docs/gateway.md). Like the request logs, rows outlive a deleted
 * project; `model` is '' for a request that names none.
 */
export const projectDailyUsage = pgTable(
  'project_daily_usage',
  {
    projectId: uuid('project_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    operation: text('operation').notNull(),
    model: text('model').notNull(),
    requestCount: integer('request_count').notNull(),
    inputTokens: bigint('input_tokens', { mode: 'number' }).notNull(),
    outputTokens: bigint('output_tokens', { mode: 'number' }).notNull(),
    /** Input tokens read from the prompt cache, and written to it (both TTLs): migration 0023. */
    cacheReadTokens: bigint('cache_read_tokens', { mode: 'number' }).notNull().default(0),
    cacheWriteTokens: bigint('cache_write_tokens', { mode: 'number' }).notNull().default(0),
    /** What the requests' Consume records took, micro-units. */
    spent: bigint('spent', { mode: 'bigint' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.day, t.operation, t.model] })],
);
