// A project's gateway usage per day and per operation and model (`GET /api/projects/{projectId}/usage`), read from the
// roll-up the ledger writer keeps as it inserts the request logs: its figures are those of the request logs and their
// Consume records, a batch written twice counts once, a request counts on the UTC day it started, and the backfills of
// migrations 0022 and 0023 (its cache tokens) rebuild the same rows from the request logs.
import { eq } from 'drizzle-orm';
import { projectDailyUsage } from '../../shared/db/schema/index.js';
import { closeCharge, openCharge } from '../../shared/gateway/accounting.js';
import { addDays, utcDay } from '../../shared/time/utc-day.js';
import { mirrorKeys } from '../../shared/wallet/mirror-steps.js';
import {
  consumeRecords,
  type GatewayWorld,
  openGatewayWorld,
  requestLogsOf,
  writeLedgers,
} from '../support/gateway.js';
import { waitUntil } from '../support/harness.js';
import { createUser } from '../support/identity.js';
import { rebuiltByBackfill } from '../support/migration-backfill.js';
import { aMember, aProject, expectEnvelopeError, inOrg } from '../support/org-fixtures.js';

let w: GatewayWorld;
beforeAll(async () => {
  w = await openGatewayWorld({ balance: '10' });
});
afterAll(() => w?.close());

const message = (model: string) =>
  w.h.http
    .post('/v1/messages')
    .set('x-api-key', w.key)
    .send({ model, max_tokens: 16, messages: [{ role: 'user', content: 'hello there' }] });

const countTokens = () =>
  w.h.http
    .post('/v1/messages/count_tokens')
    .set('x-api-key', w.key)
    .send({ model: 'claude-sonnet-5', messages: [{ role: 'user', content: 'hello there' }] });

const usageOf = (projectId: string, query = '', caller = w.org.admin) =>
  w.h.http.get(`/api/projects/${projectId}/usage${query}`).set(inOrg(caller, w.org.id));

/** Waits until `n` more settled requests are in the organization's stream, then writes them. */
async function writeSettled(n: number) {
  const stream = mirrorKeys(w.h.ctx.config.REDIS_PREFIX, w.org.id).l;
  await waitUntil(async () => (await w.h.ctx.redis.xlen(stream)) >= n);
  return writeLedgers(w.h);
}

const rowsOf = (db: Pick<typeof w.h.ctx.db, 'select'>) =>
  db
    .select()
    .from(projectDailyUsage)
    .where(eq(projectDailyUsage.projectId, w.projectId))
    .orderBy(projectDailyUsage.day, projectDailyUsage.operation, projectDailyUsage.model);

const micros = (usd: number) => Math.round(usd * 1_000_000);

it("answers the project's requests per day and per operation and model, as its request logs and Consume records say", async () => {
  const answers = await Promise.all([
    message('claude-sonnet-5'),
    message('claude-sonnet-5'),
    message('claude-sonnet-5'),
    message('claude-haiku-4-5'),
    countTokens(),
  ]);
  expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
  await writeSettled(5);

  // What the request logs and Consume records say, summed here.
  const logs = await requestLogsOf(w.h, w.projectId);
  const taken = new Map((await consumeRecords(w.h, w.org)).map((r) => [r.requestLogId, micros(r.amount)]));
  const expected = new Map<string, { requests: number; inputTokens: number; outputTokens: number; spent: number }>();
  for (const l of logs) {
    const key = `${l.operation} ${l.model}`;
    const sum = expected.get(key) ?? { requests: 0, inputTokens: 0, outputTokens: 0, spent: 0 };
    sum.requests++;
    sum.inputTokens += l.inputTokens;
    sum.outputTokens += l.outputTokens;
    sum.spent += taken.get(l.id) ?? 0;
    expected.set(key, sum);
  }
  expect(logs).toHaveLength(5);

  const res = await usageOf(w.projectId);
  expect(res.status).toBe(200);
  const { data } = res.body;
  expect(data.currency).toBe('USD');
  const today = utcDay(new Date());
  expect(data.from).toBe(`${addDays(today, -29)}T00:00:00.000Z`);
  const totalSpent = [...taken.values()].reduce((a, b) => a + b, 0);
  expect(totalSpent).toBeGreaterThan(0);
  const tokens = (field: 'inputTokens' | 'outputTokens') => logs.reduce((n, l) => n + l[field], 0);
  expect(data.days).toEqual([
    {
      day: today,
      requests: 5,
      inputTokens: tokens('inputTokens'),
      outputTokens: tokens('outputTokens'),
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      spent: totalSpent / 1_000_000,
    },
  ]);
  const got = new Map(
    (data.models as { operation: string; model: string; spent: number }[]).map((m) => [
      `${m.operation} ${m.model}`,
      { ...m, spent: micros(m.spent) },
    ]),
  );
  expect(got.size).toBe(3);
  for (const [key, sum] of expected) expect(got.get(key)).toMatchObject(sum);
  expect(got.get('count_tokens claude-sonnet-5')).toMatchObject({ requests: 1, spent: 0 });
  // The most spent first.
  expect(data.models[0]).toMatchObject({ operation: 'messages', model: 'claude-sonnet-5', requests: 3 });

  // Another project of the organization has its own figures.
  const other = await aProject(w.h, w.org, 'Other');
  expect((await usageOf(other.id)).body.data).toMatchObject({ days: [], models: [] });
});

/** A request of the project that started 0.1 s before today's 00:00 UTC and finishes now, after it. */
async function callAcrossMidnight() {
  const caller = { accountId: w.org.admin.accountId, organizationId: w.org.id, projectId: w.projectId };
  const opened = await openCharge(w.h.ctx, caller, {
    operation: 'messages',
    model: 'claude-haiku-4-5',
    reserveMicros: 1_000n,
  });
  (opened as { startedAt: number }).startedAt = Date.parse(`${utcDay(new Date())}T00:00:00.000Z`) - 100;
  await closeCharge(w.h.ctx, opened, {
    status: 'succeeded',
    httpStatus: 200,
    costMicros: 1_000n,
    usage: { inputTokens: 7, outputTokens: 9, cacheReadTokens: 5, cacheWriteTokens: 3 },
  });
}

it('counts a request on the UTC day it started, and a window of one day leaves yesterday out', async () => {
  const before = (await usageOf(w.projectId)).body.data;
  await callAcrossMidnight();
  await writeSettled(1);
  const today = utcDay(new Date());
  const after = (await usageOf(w.projectId)).body.data;
  expect(after.days).toEqual([
    {
      day: addDays(today, -1),
      requests: 1,
      inputTokens: 7,
      outputTokens: 9,
      cacheReadTokens: 5,
      cacheWriteTokens: 3,
      spent: 0.001,
    },
    ...before.days,
  ]);
  const haiku = (d: typeof after) =>
    d.models.find(
      (m: { operation: string; model: string }) => m.operation === 'messages' && m.model === 'claude-haiku-4-5',
    );
  expect(haiku(after).requests).toBe(haiku(before).requests + 1);
  expect(haiku(after).inputTokens).toBe(haiku(before).inputTokens + 7);
  expect(haiku(after).cacheReadTokens).toBe(haiku(before).cacheReadTokens + 5);
  expect(haiku(after).cacheWriteTokens).toBe(haiku(before).cacheWriteTokens + 3);

  const oneDay = (await usageOf(w.projectId, '?days=1')).body.data;
  expect(oneDay.from).toBe(`${today}T00:00:00.000Z`);
  expect(oneDay.days).toEqual(before.days);
  expect(haiku(oneDay)).toEqual(haiku(before));
});

it('counts a ledger batch written twice once (a worker killed between the commit and the acknowledgement)', async () => {
  const before = await rowsOf(w.h.ctx.db);
  expect((await Promise.all([message('claude-sonnet-5'), message('claude-sonnet-5')])).map((a) => a.status)).toEqual([
    200, 200,
  ]);
  const k = mirrorKeys(w.h.ctx.config.REDIS_PREFIX, w.org.id);
  await waitUntil(async () => (await w.h.ctx.redis.xlen(k.l)) === 2);
  const waiting = await w.h.ctx.redis.xrange(k.l, '-', '+');
  expect((await writeLedgers(w.h)).written).toBe(2);
  const once = await rowsOf(w.h.ctx.db);
  const sonnet = (rows: typeof once) =>
    rows.find((r) => r.day === utcDay(new Date()) && r.operation === 'messages' && r.model === 'claude-sonnet-5');
  expect(sonnet(once)?.requestCount).toBe((sonnet(before)?.requestCount ?? 0) + 2);

  // The stream as a killed worker leaves it: the same entries still there, their charges still pending in the mirror.
  for (const [, fields] of waiting) {
    await w.h.ctx.redis.xadd(k.l, '*', ...fields);
    await w.h.ctx.redis.hincrby(k.w, 'pend', fields[fields.indexOf('c') + 1] ?? '0');
  }
  expect(await writeLedgers(w.h)).toEqual({ entries: 2, written: 0, transactions: 1 });
  expect(await rowsOf(w.h.ctx.db)).toEqual(once);
});

it("the migrations' backfills rebuild the rows from the request logs as the ledger writer kept them", async () => {
  const written = await rowsOf(w.h.ctx.db);
  expect(written.length).toBeGreaterThanOrEqual(3);
  expect(written.some((r) => r.cacheReadTokens > 0 && r.cacheWriteTokens > 0)).toBe(true);
  const rebuilt = await rebuiltByBackfill(
    w.h.ctx.db,
    ['0022_project_daily_usage.sql', '0023_project_daily_usage_cache_tokens.sql'],
    projectDailyUsage,
    rowsOf,
  );
  expect(rebuilt).toEqual(written);
});

it('lets any member of the organization read it; 404 to a stranger, 401 without credentials, 400 for a bad window', async () => {
  const member = await aMember(w.h, w.org);
  const read = await usageOf(w.projectId, '', member);
  expect(read.status).toBe(200);
  expect(read.body.data.days.length).toBeGreaterThan(0);
  expectEnvelopeError(await usageOf(w.projectId, '', await createUser(w.h)), 404, 'Project.NotFound');
  expectEnvelopeError(await w.h.http.get(`/api/projects/${w.projectId}/usage`), 401, 'Auth.Unauthorized');
  for (const days of ['0', '91', 'many']) {
    expectEnvelopeError(await usageOf(w.projectId, `?days=${days}`), 400, 'Project.InvalidQuery');
  }
});
