// The shape of a queue's processor: a thin, idempotent shell over a domain service.
import type { Job } from 'bullmq';
import type { AppContext } from '../shared/context.js';

/** `token` is the lock token of the job in hand, for processors that re-schedule their own job. */
export type Processor = (job: Job, ctx: AppContext, token?: string) => Promise<unknown>;
export type ProcessorModule = { default: Processor; concurrency?: number };
