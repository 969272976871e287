// Video generation tasks: the state machine of one asynchronous task, its upstream task and its open charge.
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { at, createdAt, updatedAt } from './columns.js';

export const videoStatuses = ['queued', 'in_progress', 'completed', 'failed', 'cancelled'] as const;
export type VideoStatus = (typeof videoStatuses)[number];

/** What the worker needs to submit the task upstream (normalized from either request form). */
export type VideoTaskRequest = {
  prompt: string;
  ratio?: string;
  resolution?: string;
  size?: string;
  generateAudio?: boolean;
  /** Reference images: http(s) URLs or data URLs, in request order. */
  images: { url: string; role: string }[];
};

export const videoTasks = pgTable(
  'video_tasks',
  {
    id: text('id').primaryKey(),
    organizationId: uuid('organization_id').notNull(),
    projectId: uuid('project_id').notNull(),
    accountId: uuid('account_id').notNull(),
    apiKeyId: uuid('api_key_id'),
    model: text('model').notNull(),
    seconds: integer('seconds').notNull(),
    /** The price of the requested seconds at create: reserved then, settled on completion. */
    priceMicros: bigint('price_micros', { mode: 'bigint' }).notNull(),
    request: jsonb('request').$type<VideoTaskRequest>().notNull(),
    status: text('status').$type<VideoStatus>().notNull().default('queued'),
    progress: integer('progress').notNull().default(0),
    /** How many polls were recorded (with `last_polled_at`): a count for operators, not a guard. */
    step: integer('step').notNull().default(0),
    upstreamTaskId: text('upstream_task_id'),
    /** How many upstream tasks were created (a failed one is retried once: at most 2). */
    upstreamAttempts: integer('upstream_attempts').notNull().default(0),
    upstreamCancelled: boolean('upstream_cancelled').notNull().default(false),
    errorMessage: text('error_message'),
    errorType: text('error_type'),
    objectKey: text('object_key'),
    videoUrl: text('video_url'),
    objectStoreUrl: text('object_store_url'),
    requestLogId: uuid('request_log_id').notNull(),
    chargeClosed: boolean('charge_closed').notNull().default(false),
    idempotencyKey: text('idempotency_key'),
    /** SHA-256 of the normalized request a keyed create carried: the same key with another request is refused. */
    requestFingerprint: text('request_fingerprint'),
    deadlineAt: at('deadline_at').notNull(),
    lastPolledAt: at('last_polled_at'),
    finishedAt: at('finished_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('video_tasks_project_idx').on(t.projectId, t.id),
    uniqueIndex('video_tasks_idempotency_key')
      .on(t.projectId, t.idempotencyKey)
      .where(sql`idempotency_key is not null`),
    index('video_tasks_open_idx').on(t.status).where(sql`status in ('queued', 'in_progress')`),
    // The sweep's search for final tasks whose charge or upstream cancel was never closed: few rows, if any.
    index('video_tasks_unsettled_idx')
      .on(t.finishedAt)
      .where(
        sql`status not in ('queued', 'in_progress') and (charge_closed = false or (status = 'cancelled' and upstream_task_id is not null and upstream_cancelled = false))`,
      ),
  ],
);
