// One row per counted gateway request: who, which model, tokens, cost, latency and outcome (the usage history).
import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
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
