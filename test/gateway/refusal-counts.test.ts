// Refused gateway requests (never admitted, so no request log) counted per project, UTC day and reason at admission,
// and answered by `GET /api/projects/{projectId}/usage` as `refusals`; admitted requests count nothing there.
import { REFUSAL_DAYS_KEPT, readRefusals } from '../../shared/gateway/refusal-counts.js';
import { organizationKeyBase } from '../../shared/redis/tagged-keys.js';
import { addDays, utcDay } from '../../shared/time/utc-day.js';
import { aProjectWithKey, type GatewayWorld, openGatewayWorld } from '../support/gateway.js';
import { inOrg } from '../support/org-fixtures.js';

let w: GatewayWorld;
beforeAll(async () => {
  w = await openGatewayWorld();
});
afterAll(() => w?.close());

type Project = Awaited<ReturnType<typeof aProjectWithKey>>;

const message = (key: string) =>
  w.h.http
    .post('/v1/messages')
    .set('x-api-key', key)
    .send({ model: 'claude-haiku-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'hello there' }] });

const refusalsOf = async (p: Project, days = 30) => {
  const res = await w.h.http.get(`/api/projects/${p.projectId}/usage?days=${days}`).set(inOrg(p.org.admin, p.org.id));
  expect(res.status).toBe(200);
  return res.body.data.refusals as { day: string; reason: string; count: number }[];
};

const refusalKeys = (p: Project) =>
  w.h.ctx.redis.keys(`${organizationKeyBase(w.h.ctx.config.REDIS_PREFIX, p.org.id)}:rf:${p.projectId}:*`);

async function limitDailyRequests(p: Project, dailyRequestLimit: number) {
  const res = await w.h.http
    .post(`/api/projects/${p.projectId}/quota`)
    .set(inOrg(p.org.admin, p.org.id))
    .send({ dailyRequestLimit, enforceQuota: true });
  expect(res.status).toBeLessThan(300);
}

it('counts each of 50 concurrent requests refused over the daily request quota, and no admitted one', async () => {
  const p = await aProjectWithKey(w.h, '5');
  await limitDailyRequests(p, 1);
  expect((await message(p.key)).status).toBe(200);
  expect(await refusalsOf(p)).toEqual([]);
  expect(await refusalKeys(p)).toEqual([]);

  const answers = await Promise.all(Array.from({ length: 50 }, () => message(p.key)));
  expect(answers.map((a) => a.status)).toEqual(Array(50).fill(429));
  expect(await refusalsOf(p)).toEqual([{ day: utcDay(new Date()), reason: 'dailyRequests', count: 50 }]);
});

it('counts refusals for money as `balance`, and keeps each day for a bounded time', async () => {
  const p = await aProjectWithKey(w.h);
  const answers = await Promise.all([message(p.key), message(p.key), message(p.key)]);
  expect(answers.map((a) => a.status)).toEqual([402, 402, 402]);
  const today = utcDay(new Date());
  expect(await refusalsOf(p, 1)).toEqual([{ day: today, reason: 'balance', count: 3 }]);

  const [key] = await refusalKeys(p);
  const expiresAt = Date.parse(`${addDays(today, REFUSAL_DAYS_KEPT)}T00:00:00.000Z`) / 1000;
  expect(await w.h.ctx.redis.expiretime(key as string)).toBe(expiresAt);

  // Read from a later day, the count is there while the day is kept and left out once past it.
  const read = (daysLater: number) =>
    readRefusals(
      w.h.ctx.redis,
      w.h.ctx.config.REDIS_PREFIX,
      { organizationId: p.org.id, projectId: p.projectId },
      90,
      new Date(Date.now() + daysLater * 86_400_000),
    );
  expect(await read(REFUSAL_DAYS_KEPT - 1)).toEqual([{ day: today, reason: 'balance', count: 3 }]);
  expect(await read(REFUSAL_DAYS_KEPT)).toEqual([]);
});
