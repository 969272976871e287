// Telemetry: counts each event by the dedup rules, and flushes the counters to PostgreSQL in batches every second.
import { countEvent, type TelemetryEvent } from '../../shared/telemetry/telemetry-counting.js';
import { flushCounters } from '../../shared/telemetry/telemetry-flush.js';
import type { Processor } from '../processor.js';

const processor: Processor = async (job, ctx) => {
  switch (job.name) {
    case 'event':
      return { counted: await countEvent(ctx, job.data as TelemetryEvent) };
    case 'flush':
      return flushCounters(ctx);
    default:
      throw new Error(`telemetry has no job named ${job.name}`);
  }
};

export default processor;
export const concurrency = 16;
