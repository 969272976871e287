import { Redis } from 'ioredis';
import { setProjectQuota } from '../../shared/organizations/project-quotas.js';
import { QuotaCounters, quotaExceeded } from '../../shared/quota/quota-counters.js';
import { createHarness, type Harness } from '../support/harness.js';
import { anOrganization, aProject, type TestOrg } from '../support/org-fixtures.js';

let h: Harness;
let org: TestOrg;
beforeAll(async () => {
  h = await createHarness();
  org = await anOrganization(h);
});
afterAll(async () => h.close());

/** A clock the test moves by hand. */
function simulatedClock(start: string) {
  let now = new Date(start);
  return {
    clock: () => now,
    set(at: string) {
      now = new Date(at);
    },
  };
}

const counters = (clock: () => Date, redis: Redis = h.ctx.redis) =>
  new QuotaCounters({ redis, db: h.ctx.db, prefix: h.config.REDIS_PREFIX }, clock);

async function projectWithQuota(quota: Parameters<typeof setProjectQuota>[2]) {
  const project = await aProject(h, org);
  await setProjectQuota(h.ctx, project.id, quota);
  return project.id;
}

async function admitTimes(engine: QuotaCounters, projectId: string, n: number) {
  const results = [];
  for (let i = 0; i < n; i++) results.push(await engine.admit(projectId));
  return results;
}

describe('the quota engine', () => {
  it('does not limit a project with no quota, but counts its requests and tokens', async () => {
    const { id } = await aProject(h, org);
    const engine = counters(simulatedClock('2030-03-10T12:00:00Z').clock);
    const results = await admitTimes(engine, id, 5);
    expect(results.every((r) => r.admitted)).toBe(true);
    await engine.recordTokens(id, 1234);
    const usage = await engine.readUsage(id);
    expect(usage.day).toEqual({ date: '2030-03-10', requestCount: 5, tokenCount: 1234 });
    expect(usage.month).toEqual({ windowStart: '2030-03-01', resetDay: 1, requestCount: 5, tokenCount: 1234 });
  });

  it('does not limit when enforceQuota is false', async () => {
    const id = await projectWithQuota({ dailyRequestLimit: 1, enforceQuota: false });
    const results = await admitTimes(counters(simulatedClock('2030-03-10T12:00:00Z').clock), id, 3);
    expect(results.every((r) => r.admitted)).toBe(true);
  });

  it('checks daily requests, daily tokens, monthly requests, monthly tokens, then requests per minute', async () => {
    const t = simulatedClock('2030-03-10T12:00:30Z');
    const engine = counters(t.clock);
    // Every limit is exhausted at once: the daily request limit is named first.
    const all = await projectWithQuota({
      dailyRequestLimit: 1,
      dailyTokenLimit: 10,
      monthlyRequestLimit: 1,
      monthlyTokenLimit: 10,
      requestsPerMinuteLimit: 1,
    });
    await engine.admit(all);
    await engine.recordTokens(all, 10);
    expect(await engine.admit(all)).toEqual({ admitted: false, limit: 'dailyRequests', retryAfterSeconds: 43_170 });

    const tokensFirst = await projectWithQuota({
      dailyTokenLimit: 10,
      monthlyRequestLimit: 1,
      requestsPerMinuteLimit: 1,
    });
    await engine.admit(tokensFirst);
    await engine.recordTokens(tokensFirst, 10);
    expect(await engine.admit(tokensFirst)).toMatchObject({ admitted: false, limit: 'dailyTokens' });

    const monthly = await projectWithQuota({
      monthlyRequestLimit: 1,
      monthlyTokenLimit: 1,
      requestsPerMinuteLimit: 1,
      customResetDay: 15,
    });
    await engine.admit(monthly);
    // The month window started 2030-02-15 and ends 2030-03-15T00:00Z.
    expect(await engine.admit(monthly)).toEqual({
      admitted: false,
      limit: 'monthlyRequests',
      retryAfterSeconds: 4 * 86_400 + 11 * 3_600 + 59 * 60 + 30,
    });

    const monthlyTokens = await projectWithQuota({ monthlyTokenLimit: 5, requestsPerMinuteLimit: 1 });
    await engine.admit(monthlyTokens);
    await engine.recordTokens(monthlyTokens, 7);
    expect(await engine.admit(monthlyTokens)).toMatchObject({ admitted: false, limit: 'monthlyTokens' });

    const rpm = await projectWithQuota({ requestsPerMinuteLimit: 2 });
    await admitTimes(engine, rpm, 2);
    expect(await engine.admit(rpm)).toEqual({ admitted: false, limit: 'requestsPerMinute', retryAfterSeconds: 30 });
  });

  it('does not count rejected requests, and a token limit rejects once the used tokens reach it', async () => {
    const id = await projectWithQuota({ dailyRequestLimit: 2, dailyTokenLimit: 100 });
    const engine = counters(simulatedClock('2030-03-10T08:00:00Z').clock);
    await engine.admit(id);
    await engine.recordTokens(id, 99);
    expect((await engine.admit(id)).admitted).toBe(true); // 99 < 100 tokens
    expect(await engine.admit(id)).toMatchObject({ admitted: false, limit: 'dailyRequests' });
    expect((await engine.readUsage(id)).day.requestCount).toBe(2);
  });

  it('admits exactly N of 200 concurrent requests when N are left', async () => {
    const limit = 150;
    const id = await projectWithQuota({ dailyRequestLimit: limit });
    const clock = simulatedClock('2030-03-10T09:00:00Z').clock;
    const warmup = counters(clock);
    await admitTimes(warmup, id, 13);
    const left = limit - 13;
    const connections = Array.from({ length: 4 }, () => new Redis(h.config.REDIS_URL));
    try {
      const engines = connections.map((c) => counters(clock, c));
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, i) => (engines[i % 4] as QuotaCounters).admit(id)),
      );
      expect(results.filter((r) => r.admitted)).toHaveLength(left);
      expect(results.filter((r) => !r.admitted && r.limit === 'dailyRequests')).toHaveLength(200 - left);
      expect((await warmup.readUsage(id)).day.requestCount).toBe(limit);
    } finally {
      for (const c of connections) c.disconnect();
    }
  });

  it('starts a new day at exactly 00:00:00.000 UTC', async () => {
    const t = simulatedClock('2030-03-10T23:59:59.000Z');
    const engine = counters(t.clock);
    const id = await projectWithQuota({ dailyRequestLimit: 2, dailyTokenLimit: 50 });
    await admitTimes(engine, id, 2);
    await engine.recordTokens(id, 50);
    t.set('2030-03-10T23:59:59.999Z');
    expect(await engine.admit(id)).toEqual({ admitted: false, limit: 'dailyRequests', retryAfterSeconds: 1 });
    t.set('2030-03-11T00:00:00.000Z');
    expect((await engine.admit(id)).admitted).toBe(true);
    expect((await engine.readUsage(id)).day).toEqual({ date: '2030-03-11', requestCount: 1, tokenCount: 0 });
  });

  it('starts a new month at 00:00 UTC on the project’s reset day, not on the 1st', async () => {
    const t = simulatedClock('2030-04-01T00:00:00Z');
    const engine = counters(t.clock);
    const id = await projectWithQuota({ monthlyRequestLimit: 3, customResetDay: 15 });
    await admitTimes(engine, id, 3);
    expect(await engine.admit(id)).toMatchObject({ admitted: false, limit: 'monthlyRequests' });
    t.set('2030-04-14T23:59:59.999Z');
    expect(await engine.admit(id)).toEqual({ admitted: false, limit: 'monthlyRequests', retryAfterSeconds: 1 });
    t.set('2030-04-15T00:00:00.000Z');
    expect((await engine.admit(id)).admitted).toBe(true);
    expect((await engine.readUsage(id)).month).toEqual({
      windowStart: '2030-04-15',
      resetDay: 15,
      requestCount: 1,
      tokenCount: 0,
    });
  });

  it('finds the month window across a year boundary the same way in Redis as in TypeScript', async () => {
    const engine = counters(simulatedClock('2031-01-10T00:00:00Z').clock);
    const id = await projectWithQuota({ customResetDay: 15 });
    await engine.admit(id);
    expect((await engine.readUsage(id)).month).toMatchObject({ windowStart: '2030-12-15', requestCount: 1 });
  });

  it('rolls the requests-per-minute window over every minute', async () => {
    const t = simulatedClock('2030-03-10T10:00:59.500Z');
    const engine = counters(t.clock);
    const id = await projectWithQuota({ requestsPerMinuteLimit: 1 });
    expect((await engine.admit(id)).admitted).toBe(true);
    expect(await engine.admit(id)).toEqual({ admitted: false, limit: 'requestsPerMinute', retryAfterSeconds: 1 });
    t.set('2030-03-10T10:01:00.000Z');
    expect((await engine.admit(id)).admitted).toBe(true);
  });

  it('sees a quota update on the very next request (the cached settings are replaced)', async () => {
    const engine = counters(simulatedClock('2030-03-10T10:00:00Z').clock);
    const id = await projectWithQuota({ dailyRequestLimit: 1 });
    await engine.admit(id);
    expect((await engine.admit(id)).admitted).toBe(false);
    await setProjectQuota(h.ctx, id, { dailyRequestLimit: 5 });
    expect((await engine.admit(id)).admitted).toBe(true);
    await setProjectQuota(h.ctx, id, { enforceQuota: false, dailyRequestLimit: 0 });
    expect((await engine.admit(id)).admitted).toBe(true);
  });

  it('costs one Redis round trip per admission once the settings are cached', async () => {
    const redis = new Redis(h.config.REDIS_URL);
    try {
      const engine = counters(simulatedClock('2030-03-10T10:00:00Z').clock, redis);
      const id = await projectWithQuota({ dailyRequestLimit: 100 });
      await engine.admit(id);
      const sent: string[] = [];
      const original = redis.sendCommand.bind(redis);
      redis.sendCommand = ((command: { name: string }) => {
        sent.push(command.name);
        return original(command as Parameters<typeof original>[0]);
      }) as typeof redis.sendCommand;
      await engine.admit(id);
      expect(sent).toEqual(['evalsha']);
    } finally {
      redis.disconnect();
    }
  });

  it('renders a rejection as 429 Project.QuotaExceeded with Retry-After, saying who changes the limits and where', () => {
    const projectId = '00000000-0000-4000-8000-000000000042';
    const err = quotaExceeded({ admitted: false, limit: 'monthlyTokens', retryAfterSeconds: 42 }, projectId);
    expect(err).toMatchObject({ code: 'Project.QuotaExceeded', status: 429, headers: { 'retry-after': '42' } });
    expect(err.message).toBe(
      "The project has used its monthly token quota. An Admin of its organization or the project's Owner changes " +
        `its limits: POST /api/projects/${projectId}/quota or the console's project page.`,
    );
  });

  it('refuses a negative or fractional token count', async () => {
    const { id } = await aProject(h, org);
    const engine = counters(simulatedClock('2030-03-10T10:00:00Z').clock);
    await expect(engine.recordTokens(id, -1)).rejects.toThrow(RangeError);
    await expect(engine.recordTokens(id, 1.5)).rejects.toThrow(RangeError);
  });
});
