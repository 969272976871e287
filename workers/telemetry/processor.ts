// Telemetry: every second, counts the waiting install and favorite events once ever and flushes the counters the
// intake deduplicated in Redis to PostgreSQL in one batch. An `event` job (queued by a version before the one-step
// intake) goes through the same intake step, its address limit already applied when it was accepted.
import { flushCounters } from '../../shared/telemetry/telemetry-flush.js';
import { intake } from '../../shared/telemetry/telemetry-intake.js';
import { defineQueueWorker } from '../processor.js';

export default defineQueueWorker('telemetry', {
  flush: (_payload, ctx) => flushCounters(ctx),
  event: ({ occurredAt, ...event }, ctx) =>
    intake(ctx.redis, { prefix: ctx.config.REDIS_PREFIX, limitPerMinute: 0 }, 'queued', [event], new Date(occurredAt)),
});
