// A project key's gateway usage (`gatewayUsage: {today, total, spentToday, spentTotal}` on GET /api/v1/api-keys and
// the project's key list; the money since a finance admin's trial, migration 0026) was a COUNT of the key's request logs on every read: a key with tens of millions of requests made every read of the
// list scan that many index entries. The ledger writer now adds the requests it inserts to the key's daily counts, in
// the transaction that inserts them, and the lists read those counts. So the counts stay when the request logs are
// gone (the old read answered 0), a batch written twice counts once, and a request counts on the UTC day it started.
import { eq, sql } from 'drizzle-orm';
import { apiKeyDailyGatewayUsage, requestLogs } from '../../shared/db/schema/index.js';
import { closeCharge, openCharge } from '../../shared/gateway/accounting.js';
import { addDays, utcDay } from '../../shared/time/utc-day.js';
import { mirrorKeys } from '../../shared/wallet/mirror-steps.js';
import { microsToNumber } from '../../shared/wallet/money.js';
import { type GatewayWorld, openGatewayWorld, writeLedgers } from '../support/gateway.js';
import { waitUntil } from '../support/harness.js';
import { bearer } from '../support/identity.js';
import { rebuiltByBackfill } from '../support/migration-backfill.js';

let w: GatewayWorld;
beforeAll(async () => {
  w = await openGatewayWorld({ balance: '10' });
});
afterAll(() => w?.close());

type Listed = {
  id: string;
  name: string;
  gatewayUsage?: { today: number; total: number; spentToday: number; spentTotal: number };
};

async function aKey(name: string) {
  const res = await w.h.http.post('/api/v1/api-keys').set(bearer(w.org.admin.session)).send({
    name,
    projectId: w.projectId,
  });
  expect(res.status).toBe(200);
  return { id: res.body.id as string, token: res.body.token as string };
}

const call = (token: string) =>
  w.h.http
    .post('/v1/messages')
    .set('x-api-key', token)
    .send({ model: 'claude-sonnet-5', max_tokens: 16, messages: [{ role: 'user', content: 'hello' }] });

/** The key as the account's list shows it, and as the project's list shows it. */
async function listed(keyId: string) {
  const own = await w.h.http.get('/api/v1/api-keys').set(bearer(w.org.admin.session));
  const project = await w.h.http.get(`/api/projects/${w.projectId}/api-keys`).set(bearer(w.org.admin.session));
  expect(own.status).toBe(200);
  expect(project.status).toBe(200);
  return {
    own: (own.body as Listed[]).find((k) => k.id === keyId),
    project: (project.body.data as Listed[]).find((k) => k.id === keyId),
  };
}

/**
 * Writes the ledger once the `n` requests answered since the last write have settled: a JSON answer's settlement runs
 * beside its sending, so its entry may reach the stream just after the answer.
 */
async function writeSettled(n: number) {
  const stream = mirrorKeys(w.h.ctx.config.REDIS_PREFIX, w.org.id).l;
  await waitUntil(async () => (await w.h.ctx.redis.xlen(stream)) >= n);
  return writeLedgers(w.h);
}

/** A listed key's gateway request counts alone. */
const requestsOf = (key: Listed | undefined) => ({ today: key?.gatewayUsage?.today, total: key?.gatewayUsage?.total });

/** What the key's requests' Consume records took from the wallet, in the wallet's currency, read from the ledger. */
async function consumedBy(keyId: string): Promise<number> {
  const { rows } = await w.h.ctx.db.execute<{ spent: string }>(sql`
    select coalesce(sum(c.amount), 0)::text as spent
      from request_logs l join wallet_records c on c.idempotency_key = 'consume:' || l.id::text
     where l.api_key_id = ${keyId}`);
  return microsToNumber(BigInt(rows[0]?.spent ?? '0'));
}

const deleteRequestLogsOf = (keyId: string) => w.h.ctx.db.delete(requestLogs).where(eq(requestLogs.apiKeyId, keyId));

it('counts concurrent gateway calls exactly, and keeps them once the request logs are gone', async () => {
  const key = await aKey('busy key');
  const answers = await Promise.all(Array.from({ length: 24 }, () => call(key.token)));
  expect(answers.map((a) => a.status)).toEqual(Array(24).fill(200));
  expect((await writeSettled(24)).written).toBe(24);

  const both = await listed(key.id);
  // What the 24 took, to the micro-unit, as their Consume records say: today and in all, in both lists.
  const spent = await consumedBy(key.id);
  expect(spent).toBeGreaterThan(0);
  const usage = { today: 24, total: 24, spentToday: spent, spentTotal: spent };
  expect(both.own).toMatchObject({ name: 'busy key', gatewayUsage: usage });
  expect(both.project).toMatchObject({ name: 'busy key', gatewayUsage: usage });

  // The lists do not read the request logs: with the key's logs removed, its counts stay (the old COUNT answered 0).
  expect((await deleteRequestLogsOf(key.id)).rowCount).toBe(24);
  expect((await listed(key.id)).own?.gatewayUsage).toEqual(usage);

  // And the next calls add to them.
  expect((await Promise.all([call(key.token), call(key.token)])).map((a) => a.status)).toEqual([200, 200]);
  await writeSettled(2);
  expect(requestsOf((await listed(key.id)).project)).toEqual({ today: 26, total: 26 });
});

it('counts a ledger batch written twice once (a worker killed between the commit and the acknowledgement)', async () => {
  const key = await aKey('replayed key');
  expect((await Promise.all([call(key.token), call(key.token), call(key.token)])).map((a) => a.status)).toEqual([
    200, 200, 200,
  ]);
  const k = mirrorKeys(w.h.ctx.config.REDIS_PREFIX, w.org.id);
  await waitUntil(async () => (await w.h.ctx.redis.xlen(k.l)) === 3);
  const waiting = await w.h.ctx.redis.xrange(k.l, '-', '+');
  expect(waiting).toHaveLength(3);
  expect((await writeLedgers(w.h)).written).toBe(3);
  const once = (await listed(key.id)).own?.gatewayUsage;
  expect(once).toMatchObject({ today: 3, total: 3, spentTotal: await consumedBy(key.id) });

  // The stream as a killed worker leaves it: the same entries still there, their charges still pending in the mirror.
  for (const [, fields] of waiting) {
    await w.h.ctx.redis.xadd(k.l, '*', ...fields);
    const charged = fields[fields.indexOf('c') + 1] ?? '0';
    await w.h.ctx.redis.hincrby(k.w, 'pend', charged);
  }
  expect(await writeLedgers(w.h)).toEqual({ entries: 3, written: 0, transactions: 1 });
  expect((await listed(key.id)).own?.gatewayUsage).toEqual(once);
  expect(await w.h.ctx.db.select().from(requestLogs).where(eq(requestLogs.apiKeyId, key.id))).toHaveLength(3);
});

/** A request of the key that started 0.1 s before today's 00:00 UTC and finishes now, after it. */
async function callAcrossMidnight(keyId: string) {
  const caller = { accountId: w.org.admin.accountId, organizationId: w.org.id, projectId: w.projectId, keyId };
  const opened = await openCharge(w.h.ctx, caller, { operation: 'messages', reserveMicros: 1_000n });
  (opened as { startedAt: number }).startedAt = Date.parse(`${utcDay(new Date())}T00:00:00.000Z`) - 100;
  await closeCharge(w.h.ctx, opened, { status: 'succeeded', httpStatus: 200, costMicros: 1_000n });
}

it('counts a request that finished after 00:00 UTC on the day it started', async () => {
  const key = await aKey('midnight key');
  await callAcrossMidnight(key.id);
  expect((await call(key.token)).status).toBe(200);
  await writeSettled(2);

  const usage = (await listed(key.id)).own?.gatewayUsage;
  expect(requestsOf((await listed(key.id)).own)).toEqual({ today: 1, total: 2 });
  // The request of yesterday took its 0.001 on yesterday's row.
  expect(((usage?.spentTotal ?? 0) * 1e6 - (usage?.spentToday ?? 0) * 1e6).toFixed(0)).toBe('1000');
  const today = utcDay(new Date());
  const days = await w.h.ctx.db
    .select({ day: apiKeyDailyGatewayUsage.day, requests: apiKeyDailyGatewayUsage.requestCount })
    .from(apiKeyDailyGatewayUsage)
    .where(eq(apiKeyDailyGatewayUsage.keyId, key.id))
    .orderBy(apiKeyDailyGatewayUsage.day);
  expect(days).toEqual([
    { day: addDays(today, -1), requests: 1 },
    { day: today, requests: 1 },
  ]);
});

it("writes the requests of a key deleted while they waited, without counting them, and a deletion takes a key's counts", async () => {
  const [gone, kept] = [await aKey('deleted while waiting'), await aKey('deleted later')];
  expect((await Promise.all([call(gone.token), call(kept.token)])).map((a) => a.status)).toEqual([200, 200]);
  const deleted = await w.h.http.delete(`/api/v1/api-keys/${gone.id}`).set(bearer(w.org.admin.session));
  expect(deleted.status).toBe(200);

  expect((await writeSettled(2)).written).toBe(2);
  expect(await w.h.ctx.db.select().from(requestLogs).where(eq(requestLogs.apiKeyId, gone.id))).toHaveLength(1);
  const usageOf = (id: string) =>
    w.h.ctx.db.select().from(apiKeyDailyGatewayUsage).where(eq(apiKeyDailyGatewayUsage.keyId, id));
  expect(await usageOf(gone.id)).toEqual([]);
  expect(await usageOf(kept.id)).toHaveLength(1);

  expect((await w.h.http.delete(`/api/v1/api-keys/${kept.id}`).set(bearer(w.org.admin.session))).status).toBe(200);
  expect(await usageOf(kept.id)).toEqual([]);
});

it("the migration's backfill counts the request logs written before the table as the ledger writer counted them", async () => {
  const key = await aKey('backfilled key');
  expect((await Promise.all([call(key.token), call(key.token)])).map((a) => a.status)).toEqual([200, 200]);
  await callAcrossMidnight(key.id);
  await writeSettled(3);
  const daysOf = (db: Pick<typeof w.h.ctx.db, 'select'>) =>
    db
      .select({
        day: apiKeyDailyGatewayUsage.day,
        requests: apiKeyDailyGatewayUsage.requestCount,
        spent: apiKeyDailyGatewayUsage.spent,
      })
      .from(apiKeyDailyGatewayUsage)
      .where(eq(apiKeyDailyGatewayUsage.keyId, key.id))
      .orderBy(apiKeyDailyGatewayUsage.day);
  const written = await daysOf(w.h.ctx.db);
  expect(written.map((d) => d.requests)).toEqual([1, 2]);
  expect(written[0]?.spent).toBe(1_000n);
  expect(written[1]?.spent).toBeGreaterThan(0n);
  // The backfill run on a table emptied, in a transaction rolled back: the same days and counts from the request logs.
  const rebuilt = await rebuiltByBackfill(
    w.h.ctx.db,
    ['0019_api_key_daily_gateway_usage.sql', '0026_api_key_daily_spent.sql'],
    apiKeyDailyGatewayUsage,
    daysOf,
  );
  expect(rebuilt).toEqual(written);
  expect(await daysOf(w.h.ctx.db)).toEqual(written);
});
