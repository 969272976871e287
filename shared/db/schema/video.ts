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
  /**
   * Reference images in request order: an http(s) URL as sent, or for a data URL its descriptor; the data URL itself
   * is held in `inline_images` only while a submission may still need it (docs/video.md, "Reference images").
   */
  images: VideoTaskImage[];
};

/** What the row keeps of an image sent inline (a data URL): its type, decoded size and SHA-256, never its bytes. */
export type InlineImageDescriptor = { mediaType: string; bytes: number; sha256: string };

export type VideoTaskImage = { role: string; url: string } | { role: string; inline: InlineImageDescriptor };

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
    /**
     * The data URLs of the request's inline images, in order, until no submission can need them: cleared (null) in
     * the UPDATE that records the task's last upstream task or moves it to a final status.
     */
    inlineImages: jsonb('inline_images').$type<string[]>(),
    /** Decoded bytes of the images in `inline_images` (0 once cleared): the organization's bound sums these. */
    inlineImageBytes: integer('inline_image_bytes').notNull().default(0),
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
    // The bound on an organization's pending inline images sums these few rows.
    index('video_tasks_inline_images_idx').on(t.organizationId).where(sql`inline_image_bytes > 0`),
    index('video_tasks_open_idx').on(t.status).where(sql`status in ('queued', 'in_progress')`),
    // The sweep's search for final tasks whose charge or upstream cancel was never closed: few rows, if any.
    index('video_tasks_unsettled_idx')
      .on(t.finishedAt)
      .where(
        sql`status not in ('queued', 'in_progress') and (charge_closed = false or (status = 'cancelled' and upstream_task_id is not null and upstream_cancelled = false))`,
      ),
  ],
);
