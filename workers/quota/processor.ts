// Daily rollover at 00:00 UTC: persists the previous days' usage counters into PostgreSQL history (idempotent).
import { persistAccountUsage } from '../../shared/identity/daily-usage.js';
import { addDays, utcDay } from '../../shared/time/utc-day.js';
import type { Processor } from '../processor.js';

/** Yesterday, and the day before in case a tick was missed; both are absolute writes, so repeats change nothing. */
const CATCH_UP_DAYS = 2;

const processor: Processor = async (job, ctx) => {
  if (job.name !== 'rollover') throw new Error(`quota has no job named ${job.name}`);
  const at = job.data.at ? new Date(job.data.at as string) : new Date();
  const today = utcDay(at);
  const accounts: Record<string, { accounts: number; keys: number }> = {};
  for (let i = 1; i <= CATCH_UP_DAYS; i++) {
    const day = addDays(today, -i);
    accounts[day] = await persistAccountUsage(ctx, day);
  }
  return { accounts };
};

export default processor;
export const concurrency = 1;
