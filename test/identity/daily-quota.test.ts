import { authenticateToken } from '../../shared/identity/authenticator.js';
import { addDays, secondsUntilNextUtcMidnight, utcDay } from '../../shared/time/utc-day.js';
import { createHarness, type Harness, startProcess, waitUntil } from '../support/harness.js';
import { bearer, createUser } from '../support/identity.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

describe('the account daily quota', () => {
  it('lets exactly N of 200 concurrent requests through when N are left, across all keys of the account', async () => {
    const user = await createUser(h, { dailyQuota: 60 });
    const second = (await h.http.post('/api/v1/api-keys').set(bearer(user.session)).send({ name: 'second' })).body
      .token;
    // 10 used first, so 50 are left
    for (let i = 0; i < 10; i++) await h.http.get('/api/v1/auth/me').set(bearer(user.apiKey));

    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) => h.http.get('/api/v1/auth/me').set(bearer(i % 2 ? user.apiKey : second))),
    );

    const ok = responses.filter((r) => r.status === 200);
    const limited = responses.filter((r) => r.status === 429);
    expect(ok).toHaveLength(50);
    expect(limited).toHaveLength(150);
    const rejection = limited[0] as (typeof limited)[number];
    expect(JSON.parse(rejection.text).title).toBe('ApiKey.QuotaExceeded');
    expect(Number(rejection.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(rejection.headers['retry-after'])).toBeLessThanOrEqual(86_400);
    expect(rejection.headers['x-ratelimit-remaining']).toBe('0');
    const remaining = ok.map((r) => Number(r.headers['x-ratelimit-remaining'])).sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it('does not consume quota for console sessions, which still see the headers', async () => {
    const user = await createUser(h, { dailyQuota: 5 });
    for (let i = 0; i < 3; i++) await h.http.get('/api/v1/auth/me').set(bearer(user.session));
    const res = await h.http.get('/api/v1/auth/me').set(bearer(user.session));
    expect(res.headers['x-ratelimit-limit']).toBe('5');
    expect(res.headers['x-ratelimit-remaining']).toBe('5');
  });

  it('answers 429 ApiKey.QuotaExceeded with Retry-After = the seconds to 00:00 UTC and both headers', async () => {
    const user = await createUser(h, { dailyQuota: 1 });
    expect((await h.http.get('/api/v1/auth/me').set(bearer(user.apiKey))).status).toBe(200);
    const before = secondsUntilNextUtcMidnight(new Date());
    const res = await h.http.get('/api/v1/auth/me').set(bearer(user.apiKey));
    const after = secondsUntilNextUtcMidnight(new Date());
    expect(res.status).toBe(429);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(res.text)).toMatchObject({ title: 'ApiKey.QuotaExceeded', status: 429 });
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeLessThanOrEqual(before);
    expect(retryAfter).toBeGreaterThanOrEqual(after);
    expect(res.headers['x-ratelimit-limit']).toBe('1');
    expect(res.headers['x-ratelimit-remaining']).toBe('0');
  });

  it('counts one unit for every /api/v1 request an API key signs, whatever it answers, with the headers on each', async () => {
    const user = await createUser(h, { dailyQuota: 50 });
    const unknownItem = '/api/v1/publisher/mcp/00000000-0000-4000-8000-000000000000';
    const calls: [string, () => ReturnType<typeof h.http.get>, number][] = [
      ['me', () => h.http.get('/api/v1/auth/me'), 200],
      ['keys', () => h.http.get('/api/v1/api-keys'), 200],
      ['a bad key body', () => h.http.post('/api/v1/api-keys').send({}), 400],
      ['an admin route', () => h.http.get('/api/v1/admin/quota-requests'), 403],
      ['a moderation route', () => h.http.get('/api/v1/moderation/queue'), 403],
      ['a publisher route', () => h.http.get(unknownItem), 403],
      ['a report of an unknown item', () => h.http.post('/api/v1/mcp/no-such-item/report').send({ reason: 'x' }), 404],
    ];
    let remaining = 50;
    for (const [label, call, status] of calls) {
      const res = await call().set(bearer(user.apiKey));
      remaining -= 1;
      expect([label, res.status, res.headers['x-ratelimit-limit'], res.headers['x-ratelimit-remaining']]).toEqual([
        label,
        status,
        '50',
        String(remaining),
      ]);
    }
    // The organization family shows the account's quota without consuming it.
    const org = await h.http.get('/api/organizations').set(bearer(user.apiKey));
    expect([org.status, org.headers['x-ratelimit-remaining']]).toEqual([200, String(remaining)]);
    // Public reads take no credential: a key sent with one is neither checked nor counted (docs/identity.md).
    const read = await h.http.get('/api/v1/mcp').set(bearer(user.apiKey));
    expect([read.status, read.headers['x-ratelimit-remaining']]).toEqual([200, undefined]);
    const me = await h.http.get('/api/v1/auth/me').set(bearer(user.apiKey));
    expect(me.headers['x-ratelimit-remaining']).toBe(String(remaining - 1));
  });

  it('starts again on a new UTC day', async () => {
    const user = await createUser(h, { dailyQuota: 2 });
    const yesterday = new Date(Date.now() - 86_400_000);
    await authenticateToken(h.ctx, user.apiKey, { consumeDailyQuota: true, now: yesterday });
    await authenticateToken(h.ctx, user.apiKey, { consumeDailyQuota: true, now: yesterday });
    await expect(
      authenticateToken(h.ctx, user.apiKey, { consumeDailyQuota: true, now: yesterday }),
    ).rejects.toMatchObject({
      code: 'ApiKey.QuotaExceeded',
    });
    expect((await h.http.get('/api/v1/auth/me').set(bearer(user.apiKey))).status).toBe(200);
  });
});

describe('GET /api/v1/api-keys/usage', () => {
  it('reports persisted daily history (rolled over by a real worker) plus today', async () => {
    const user = await createUser(h, { dailyQuota: 100 });
    const today = utcDay(new Date());
    const twoDaysAgo = new Date(Date.parse(`${addDays(today, -2)}T12:00:00Z`));
    for (let i = 0; i < 4; i++)
      await authenticateToken(h.ctx, user.apiKey, { consumeDailyQuota: true, now: twoDaysAgo });
    await h.http.get('/api/v1/auth/me').set(bearer(user.apiKey));

    const worker = await startProcess(h.env, { extraEnv: { WORKER_QUEUES: 'quota' } });
    try {
      const job = await h.ctx.queues.add('quota', 'rollover', { at: new Date().toISOString() });
      await waitUntil(async () => (await job.getState()) === 'completed');
      // a second tick changes nothing
      const again = await h.ctx.queues.add('quota', 'rollover', { at: new Date().toISOString() });
      await waitUntil(async () => (await again.getState()) === 'completed');
    } finally {
      await worker.stop();
    }
    // the live counters of that day are gone; only the persisted history can answer now
    await h.ctx.redis.del(`${h.config.REDIS_PREFIX}:dq:${user.accountId}:${addDays(today, -2)}`);

    const res = await h.http.get('/api/v1/api-keys/usage?days=3').set(bearer(user.session));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      dailyQuota: 100,
      days: [
        { date: addDays(today, -2), requestCount: 4 },
        { date: addDays(today, -1), requestCount: 0 },
        { date: today, requestCount: 1 },
      ],
    });
    const keys = (await h.http.get('/api/v1/api-keys').set(bearer(user.session))).body;
    expect(keys[0].usage.total).toBe(5);
  });

  it('defaults to 7 days and refuses days outside 1..90', async () => {
    const user = await createUser(h);
    expect((await h.http.get('/api/v1/api-keys/usage').set(bearer(user.session))).body.days).toHaveLength(7);
    for (const days of [1, 90]) {
      const res = await h.http.get(`/api/v1/api-keys/usage?days=${days}`).set(bearer(user.session));
      expect(res.body.days).toHaveLength(days);
      expect(res.body.days.at(-1)).toEqual({ date: utcDay(new Date()), requestCount: 0 });
    }
    for (const days of ['0', '91', 'x']) {
      const res = await h.http.get(`/api/v1/api-keys/usage?days=${days}`).set(bearer(user.session));
      expect(res.status).toBe(400);
      expect(JSON.parse(res.text).title).toBe('ApiKey.InvalidQuery');
    }
  });
});
