// The quota queue's daily work: copies each project's closed windows (yesterday, and the month window that
// ended most recently) from the live counters into project_usage_history. Counters are keyed by window, so a
// new day or month starts at its instant without any reset; this only persists, and running it twice changes
// nothing (rows only ever grow to the counter's value).
import { asc, eq, gt, sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import type { DbExecutor } from '../db/client.js';
import { projectQuotas, projects, projectUsageHistory } from '../db/schema/index.js';
import { projectKeyBase } from './quota-counters.js';
import { previousMonthWindowStart, previousUtcDay, utcDay } from './quota-windows.js';

export type RolloverResult = { day: string; projects: number; dayRows: number; monthRows: number };
type HistoryRow = typeof projectUsageHistory.$inferInsert;

const batchSize = 500;

async function readWindow(redis: Redis, key: string) {
  const [r, t] = await redis.hmget(key, 'r', 't');
  return { requestCount: Number(r ?? 0), tokenCount: Number(t ?? 0) };
}

async function persist(db: DbExecutor, rows: HistoryRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const changed = await db
    .insert(projectUsageHistory)
    .values(rows)
    .onConflictDoUpdate({
      target: [projectUsageHistory.projectId, projectUsageHistory.period, projectUsageHistory.periodStart],
      set: {
        requestCount: sql`greatest(${projectUsageHistory.requestCount}, excluded.request_count)`,
        tokenCount: sql`greatest(${projectUsageHistory.tokenCount}, excluded.token_count)`,
        recordedAt: sql`now()`,
      },
      setWhere: sql`excluded.request_count > ${projectUsageHistory.requestCount}
        or excluded.token_count > ${projectUsageHistory.tokenCount}`,
    })
    .returning({ projectId: projectUsageHistory.projectId });
  return changed.length;
}

/** Persists the windows closed as of `at` for every project; returns how many history rows it wrote or grew. */
export async function persistClosedWindows(
  deps: { db: DbExecutor; redis: Redis; prefix: string },
  at: Date,
): Promise<RolloverResult> {
  const day = previousUtcDay(at);
  const result: RolloverResult = { day, projects: 0, dayRows: 0, monthRows: 0 };
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const batch = await deps.db
      .select({ id: projects.id, organizationId: projects.organizationId, resetDay: projectQuotas.customResetDay })
      .from(projects)
      .leftJoin(projectQuotas, eq(projectQuotas.projectId, projects.id))
      .where(gt(projects.id, after))
      .orderBy(asc(projects.id))
      .limit(batchSize);
    if (batch.length === 0) break;
    after = (batch[batch.length - 1] as { id: string }).id;
    result.projects += batch.length;

    const read = await Promise.all(
      batch.map(async (p) => {
        const base = projectKeyBase(deps.prefix, p.organizationId, p.id);
        const monthStart = utcDay(previousMonthWindowStart(at, p.resetDay ?? 1));
        const [dayUsage, monthUsage] = await Promise.all([
          readWindow(deps.redis, `${base}:d:${day}`),
          readWindow(deps.redis, `${base}:m:${monthStart}`),
        ]);
        return [
          { projectId: p.id, period: 'day' as const, periodStart: day, ...dayUsage },
          { projectId: p.id, period: 'month' as const, periodStart: monthStart, ...monthUsage },
        ];
      }),
    );
    const used = (r: HistoryRow) => r.requestCount > 0 || r.tokenCount > 0;
    result.dayRows += await persist(deps.db, read.map(([d]) => d as HistoryRow).filter(used));
    result.monthRows += await persist(deps.db, read.map(([, m]) => m as HistoryRow).filter(used));
  }
  return result;
}
