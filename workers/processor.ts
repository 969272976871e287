// The shape of a queue's processor: a thin, idempotent shell over a domain service.
import type { Job } from 'bullmq';
import type { AppContext } from '../shared/context.js';

export type Processor = (job: Job, ctx: AppContext) => Promise<unknown>;
export type ProcessorModule = { default: Processor; concurrency?: number };
