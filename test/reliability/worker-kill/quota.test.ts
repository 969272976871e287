// quota: the worker is SIGKILLed mid-rollover while it writes the closed windows into the usage history (the test
// holds a lock on the history table); the killed worker's statement may still commit once the lock is gone, the
// replacement runs the whole rollover again, and every history row holds the counter's value, never twice it.
import { asc, eq } from 'drizzle-orm';
import { projectUsageHistory } from '../../../shared/db/schema/index.js';
import { setProjectQuota } from '../../../shared/organizations/project-quotas.js';
import { QuotaCounters } from '../../../shared/quota/quota-counters.js';
import { createHarness, type Harness, type WorkerProcess, waitUntil } from '../../support/harness.js';
import { anOrganization, aProject } from '../../support/org-fixtures.js';
import { recordFigures, secondsBetween } from '../support/figures.js';
import { holdLocks } from '../support/pg-locks.js';
import { FAST_STALL_RECOVERY, killMidJob, startQueueWorker } from '../support/worker-kill.js';

let h: Harness;
let worker: WorkerProcess | undefined;

beforeAll(async () => {
  h = await createHarness(FAST_STALL_RECOVERY);
});
afterAll(async () => {
  await worker?.stop();
  await h?.close();
});

async function use(projectId: string, iso: string, requests: number, tokens: number) {
  const engine = new QuotaCounters(
    { redis: h.ctx.redis, db: h.ctx.db, prefix: h.config.REDIS_PREFIX },
    () => new Date(iso),
  );
  for (let i = 0; i < requests; i++) expect((await engine.admit(projectId)).admitted).toBe(true);
  await engine.recordTokens(projectId, tokens);
}

it('applies a rollover whose worker was SIGKILLed mid-write exactly once', async () => {
  const project = await aProject(h, await anOrganization(h));
  // Resets on the 10th: the rollover at 2041-03-10T00:00Z closes the day 03-09 and the month 02-10..03-09.
  await setProjectQuota(h.ctx, project.id, { customResetDay: 10 });
  await use(project.id, '2041-02-20T12:00:00Z', 4, 400);
  await use(project.id, '2041-03-09T23:00:00Z', 6, 600);

  const queue = h.ctx.queues.queue('quota');
  const job = await h.ctx.queues.add('quota', 'rollover', { at: '2041-03-10T00:00:00.000Z' });
  const locks = await holdLocks(h.env.DATABASE_URL as string, [
    { text: 'lock table project_usage_history in exclusive mode' },
  ]);
  worker = await startQueueWorker(h.env, 'quota');
  const killed = await killMidJob(h, worker, 'quota', {
    midJob: async () =>
      (await locks.waitingWorkers('project_usage_history')) === 1 && (await job.getState()) === 'active',
    release: () => locks.release(),
  });
  worker = killed.replacement;
  expect(killed.signal).toBe('SIGKILL');

  await waitUntil(async () => (await job.getState()) === 'completed', 30_000);
  const completedAt = Date.now();
  const finished = await queue.getJob(job.id as string);
  expect(finished?.stalledCounter).toBe(1);

  const history = await h.ctx.db
    .select()
    .from(projectUsageHistory)
    .where(eq(projectUsageHistory.projectId, project.id))
    .orderBy(asc(projectUsageHistory.period));
  const rows = history.map(({ period, periodStart, requestCount, tokenCount }) => ({
    period,
    periodStart,
    requestCount,
    tokenCount,
  }));
  const expected = [
    { period: 'day', periodStart: '2041-03-09', requestCount: 6, tokenCount: 600 },
    { period: 'month', periodStart: '2041-02-10', requestCount: 10, tokenCount: 1000 },
  ];
  expect(rows).toEqual(expected);

  recordFigures('SIGKILL mid-job: quota', {
    jobsAtRisk: killed.inFlight,
    jobsLost: rows.length < expected.length ? 1 : 0,
    doubleEffects: rows.filter((r, i) => r.requestCount > (expected[i]?.requestCount ?? 0)).length,
    requeueSeconds: secondsBetween(killed.killedAt, completedAt),
  });
});
