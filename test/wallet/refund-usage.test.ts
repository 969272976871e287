// A refund gives back what a request cost; the request's key and project keep what it cost net of the refund
// (`spentToday`/`spentTotal` of the key lists, `spent` of the project's usage), on the UTC day the request started.
// Before, a refunded request still counted in full there, so a key's or a project's spending overstated what it cost
// the wallet. Migration 0029 takes the refunds made before from the rows the earlier backfills rebuild.
import { readFile } from 'node:fs/promises';
import { eq, sql } from 'drizzle-orm';
import { apiKeyDailyGatewayUsage, projectDailyUsage } from '../../shared/db/schema/index.js';
import { mirrorKeys } from '../../shared/wallet/mirror-steps.js';
import { microsToNumber } from '../../shared/wallet/money.js';
import { type GatewayWorld, helloMessage, openGatewayWorld, writeLedgers } from '../support/gateway.js';
import { waitUntil } from '../support/harness.js';
import { bearer, signInAdmin } from '../support/identity.js';
import { rebuiltByBackfill } from '../support/migration-backfill.js';
import { inOrg } from '../support/org-fixtures.js';

let w: GatewayWorld;
beforeAll(async () => {
  w = await openGatewayWorld({ balance: '10' });
});
afterAll(() => w?.close());

const call = () => helloMessage(w.h, w.key);

/** Waits until `n` settled requests are in the organization's stream, then writes them. */
async function writeSettled(n: number) {
  const stream = mirrorKeys(w.h.ctx.config.REDIS_PREFIX, w.org.id).l;
  await waitUntil(async () => (await w.h.ctx.redis.xlen(stream)) >= n);
  return writeLedgers(w.h);
}

/** The key's spending as the project's key list shows it, and the project's as its usage shows it. */
async function spending() {
  const keys = await w.h.http.get(`/api/projects/${w.projectId}/api-keys`).set(bearer(w.org.admin.session));
  const usage = await w.h.http.get(`/api/projects/${w.projectId}/usage`).set(inOrg(w.org.admin, w.org.id));
  expect([keys.status, usage.status]).toEqual([200, 200]);
  const key = (keys.body.data as { id: string; gatewayUsage: { spentToday: number; spentTotal: number } }[]).find(
    (k) => k.id === w.keyId,
  );
  const days = usage.body.data.days as { spent: number }[];
  return {
    keyToday: key?.gatewayUsage.spentToday,
    keyTotal: key?.gatewayUsage.spentTotal,
    project: days.reduce((sum, d) => sum + d.spent, 0),
  };
}

const consumes = async () => {
  const res = await w.h.http
    .get('/api/organization/wallet/records?type=Consume&size=100')
    .set(inOrg(w.org.admin, w.org.id));
  return res.body.data as { id: string; amount: number }[];
};

const refund = async (recordId: string, body: object) =>
  w.h.http
    .post(`/api/organization/wallet/records/${recordId}/refund`)
    .set(bearer((await signInAdmin(w.h)).token))
    .send(body);

const keyRows = (db: Pick<typeof w.h.ctx.db, 'select'>) =>
  db
    .select({ day: apiKeyDailyGatewayUsage.day, spent: apiKeyDailyGatewayUsage.spent })
    .from(apiKeyDailyGatewayUsage)
    .where(eq(apiKeyDailyGatewayUsage.keyId, w.keyId));
const projectRows = (db: Pick<typeof w.h.ctx.db, 'select'>) =>
  db
    .select()
    .from(projectDailyUsage)
    .where(eq(projectDailyUsage.projectId, w.projectId))
    .orderBy(projectDailyUsage.day, projectDailyUsage.operation, projectDailyUsage.model);

it("takes a refund from the key's and the project's spending once, however often and concurrently it is sent", async () => {
  expect((await Promise.all([call(), call(), call()])).map((a) => a.status)).toEqual([200, 200, 200]);
  await writeSettled(3);
  const before = await spending();
  const [first, second] = await consumes();
  if (!first || !second) throw new Error('expected Consume records');
  expect(before.keyTotal).toBeCloseTo(before.project, 6);
  expect(before.keyToday).toBe(before.keyTotal);

  // Part of one consumption, sent four times at once: one Refund, taken once.
  const part = microsToNumber(BigInt(Math.round(first.amount * 1_000_000)) / 2n);
  const parts = await Promise.all([1, 2, 3, 4].map(() => refund(first.id, { amount: part, reason: 'slow answer' })));
  expect(parts.map((r) => r.status).sort()).toEqual([200, 200, 200, 201]);
  // The whole of another.
  expect((await refund(second.id, { reason: 'outage' })).status).toBe(201);

  const after = await spending();
  const taken = part + second.amount;
  expect(after.keyTotal).toBeCloseTo((before.keyTotal ?? 0) - taken, 6);
  expect(after.keyToday).toBe(after.keyTotal);
  expect(after.project).toBeCloseTo(before.project - taken, 6);
  // A replay takes nothing more; a refused second refund neither.
  expect((await refund(first.id, { amount: part, reason: 'slow answer' })).status).toBe(200);
  expect((await refund(first.id, { amount: 0.000001, reason: 'more' })).status).toBe(409);
  expect(await spending()).toEqual(after);
});

it('migration 0029 takes the refunds made before from the rows the earlier backfills rebuild, as refunds do now', async () => {
  const keys = await keyRows(w.h.ctx.db);
  const projects = await projectRows(w.h.ctx.db);
  expect(keys.length).toBeGreaterThan(0);
  expect(
    await rebuiltByBackfill(
      w.h.ctx.db,
      ['0019_api_key_daily_gateway_usage.sql', '0026_api_key_daily_spent.sql', '0029_refunds_in_usage.sql'],
      apiKeyDailyGatewayUsage,
      keyRows,
    ),
  ).toEqual(keys);
  expect(
    await rebuiltByBackfill(
      w.h.ctx.db,
      ['0022_project_daily_usage.sql', '0023_project_daily_usage_cache_tokens.sql', '0029_refunds_in_usage.sql'],
      projectDailyUsage,
      projectRows,
    ),
  ).toEqual(projects);
});

it("migration 0029 finds the refunds by their index, not by reading every wallet record under the request logs' lock", async () => {
  const text = await readFile(new URL('../../shared/db/migrations/0029_refunds_in_usage.sql', import.meta.url), 'utf8');
  const refundReads = [...text.matchAll(/\(SELECT "request_log_id"::uuid[\s\S]*?OFFSET 0\)/g)].map((m) =>
    m[0].slice(1, -1),
  );
  expect(refundReads).toHaveLength(2);
  for (const read of refundReads) {
    // With sequential scans priced out, the read uses an index only if one answers its condition: the partial index
    // of refunds (wallet_records_refund_of_key); `type = 'Refund'` alone has none but a whole-index walk.
    const plan = await w.h.ctx.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const { rows } = await tx.execute<{ 'QUERY PLAN': string }>(sql.raw(`explain ${read}`));
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('wallet_records_refund_of_key');
  }
});
