// The `quota` queue: the 00:00 UTC rollover that persists closed project quota windows into PostgreSQL history.
import type { Job } from 'bullmq';
import type { AppContext } from '../../shared/context.js';
import { persistClosedWindows } from '../../shared/quota/quota-rollover.js';
import type { Processor } from '../processor.js';

const rollover: Processor = async (job: Job, ctx: AppContext) => {
  const at = typeof job.data?.at === 'string' ? new Date(job.data.at) : new Date();
  const projects = await persistClosedWindows({ db: ctx.db, redis: ctx.redis, prefix: ctx.config.REDIS_PREFIX }, at);
  return { at: at.toISOString(), projects };
};

export default rollover;
export const concurrency = 1;
