import { asc, eq } from 'drizzle-orm';
import { projectUsageHistory } from '../../shared/db/schema/index.js';
import { setProjectQuota } from '../../shared/organizations/project-quotas.js';
import { QuotaCounters } from '../../shared/quota/quota-counters.js';
import { persistClosedWindows } from '../../shared/quota/quota-rollover.js';
import { createHarness, type Harness, startProcess, waitUntil } from '../support/harness.js';
import { anOrganization, aProject, type TestOrg } from '../support/org-fixtures.js';

let h: Harness;
let org: TestOrg;
beforeAll(async () => {
  h = await createHarness();
  org = await anOrganization(h);
});
afterAll(async () => h.close());

const history = (projectId: string) =>
  h.ctx.db
    .select()
    .from(projectUsageHistory)
    .where(eq(projectUsageHistory.projectId, projectId))
    .orderBy(asc(projectUsageHistory.period), asc(projectUsageHistory.periodStart));

function engineAt(iso: string) {
  return new QuotaCounters({ redis: h.ctx.redis, db: h.ctx.db, prefix: h.config.REDIS_PREFIX }, () => new Date(iso));
}

async function use(projectId: string, iso: string, requests: number, tokens: number) {
  const engine = engineAt(iso);
  for (let i = 0; i < requests; i++) expect((await engine.admit(projectId)).admitted).toBe(true);
  await engine.recordTokens(projectId, tokens);
}

const deps = () => ({ db: h.ctx.db, redis: h.ctx.redis, prefix: h.config.REDIS_PREFIX });

describe('the quota rollover', () => {
  it('at 00:00 UTC persists yesterday, and on a project’s reset day its finished month', async () => {
    const monthly = await aProject(h, org, 'resets on the 1st');
    const midMonth = await aProject(h, org, 'resets on the 15th');
    await setProjectQuota(h.ctx, midMonth.id, { customResetDay: 15 });
    for (const p of [monthly, midMonth]) {
      await use(p.id, '2040-05-13T12:00:00Z', 2, 20);
      await use(p.id, '2040-05-14T23:59:59.999Z', 3, 30);
      await use(p.id, '2040-05-15T00:00:00.000Z', 1, 5); // already the new day (and the new month for midMonth)
    }

    const result = await persistClosedWindows(deps(), new Date('2040-05-15T00:00:00Z'));
    expect(result.day).toBe('2040-05-14');

    const rows = (r: Awaited<ReturnType<typeof history>>) =>
      r.map(({ period, periodStart, requestCount, tokenCount }) => ({ period, periodStart, requestCount, tokenCount }));
    expect(rows(await history(monthly.id))).toEqual([
      { period: 'day', periodStart: '2040-05-14', requestCount: 3, tokenCount: 30 },
    ]);
    expect(rows(await history(midMonth.id))).toEqual([
      { period: 'day', periodStart: '2040-05-14', requestCount: 3, tokenCount: 30 },
      { period: 'month', periodStart: '2040-04-15', requestCount: 5, tokenCount: 50 },
    ]);
  });

  it('changes nothing when a tick runs twice, and only grows a row when a late count arrives', async () => {
    const project = await aProject(h, org);
    await use(project.id, '2040-06-01T10:00:00Z', 4, 40);
    const at = new Date('2040-06-02T00:00:00Z');
    const first = await persistClosedWindows(deps(), at);
    expect(first.dayRows).toBeGreaterThanOrEqual(1);
    const before = await history(project.id);

    const second = await persistClosedWindows(deps(), at);
    expect(second).toMatchObject({ dayRows: 0, monthRows: 0 });
    expect(await history(project.id)).toEqual(before);

    await use(project.id, '2040-06-01T23:59:59.999Z', 1, 0); // a request counted just before midnight, seen late
    await persistClosedWindows(deps(), at);
    expect((await history(project.id))[0]).toMatchObject({
      periodStart: '2040-06-01',
      requestCount: 5,
      tokenCount: 40,
    });
  });

  it('runs as the quota queue’s rollover job in a real worker process', async () => {
    const project = await aProject(h, org);
    await use(project.id, '2040-07-09T08:00:00Z', 6, 600);
    const worker = await startProcess(h.env, { extraEnv: { WORKER_QUEUES: 'quota' } });
    try {
      const job = await h.ctx.queues.add('quota', 'rollover', { at: '2040-07-10T00:00:00.000Z' });
      await waitUntil(async () => (await job.getState()) === 'completed');
      expect(await history(project.id)).toEqual([
        expect.objectContaining({ period: 'day', periodStart: '2040-07-09', requestCount: 6, tokenCount: 600 }),
      ]);
      const again = await h.ctx.queues.add('quota', 'rollover', { at: '2040-07-10T00:00:00.000Z' });
      await waitUntil(async () => (await again.getState()) === 'completed');
      const { returnvalue } = (await h.ctx.queues.queue('quota').getJob(again.id as string)) ?? {};
      expect(returnvalue.projects[0]).toMatchObject({ day: '2040-07-09', dayRows: 0, monthRows: 0 });
    } finally {
      await worker.stop();
    }
  });

  it('is scheduled daily at 00:00 UTC', async () => {
    const { schedules } = await import('../../shared/queues/schedules.js');
    expect(schedules).toContainEqual({
      id: 'quota-rollover',
      queue: 'quota',
      job: 'rollover',
      repeat: { pattern: '0 0 * * *' },
    });
  });
});
