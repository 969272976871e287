// Daily rollover at 00:00 UTC: persists the previous days' account usage counters and the closed project quota
// windows (day and month) into PostgreSQL history. Every write is absolute or grow-only, so repeats change nothing.
import type { AppContext } from '../../shared/context.js';
import { persistAccountUsage } from '../../shared/identity/daily-usage.js';
import { persistClosedWindows, type RolloverResult } from '../../shared/quota/quota-rollover.js';
import { addDays, utcDay } from '../../shared/time/utc-day.js';
import { defineQueueWorker } from '../processor.js';

/** Yesterday, and the day before in case a tick was missed. */
const CATCH_UP_DAYS = 2;

async function rollover(payload: { at?: string | undefined }, ctx: AppContext) {
  const at = payload.at ? new Date(payload.at) : new Date();
  const today = utcDay(at);
  const accounts: Record<string, { accounts: number; keys: number }> = {};
  const projects: RolloverResult[] = [];
  for (let i = 1; i <= CATCH_UP_DAYS; i++) {
    const day = addDays(today, -i);
    accounts[day] = await persistAccountUsage(ctx, day);
    // Project windows closed as of the end of that day (i = 1: as of `at`).
    const asOf = new Date(Math.min(at.getTime(), Date.parse(`${addDays(day, 1)}T00:00:00Z`)));
    projects.push(await persistClosedWindows({ db: ctx.db, redis: ctx.redis, prefix: ctx.config.REDIS_PREFIX }, asOf));
  }
  return { accounts, projects };
}

export default defineQueueWorker('quota', { rollover }, { concurrency: 1 });
