// ledger: the worker is SIGKILLed mid-batch while its transaction waits to insert the request logs (the test holds
// a lock on the table), with the wallet row already locked by that transaction. The batch never committed, so the
// entries are still in Redis; the replacement writes them all, once: every request one log, every charge one
// Consume record, every request counted once in its API key's gateway usage, PostgreSQL's balance what the mirror
// charged, and the reconciliation finds nothing.
import { eq, inArray } from 'drizzle-orm';
import {
  apiKeyDailyGatewayUsage,
  organizationDailySpending,
  projectDailyUsage,
  requestLogs,
  walletRecords,
} from '../../../shared/db/schema/index.js';
import { reconcileMirrors, reconcileWallets } from '../../../shared/wallet/reconciliation.js';
import { liveWallet } from '../../../shared/wallet/wallet-mirror.js';
import { getWallet } from '../../../shared/wallet/wallets.js';
import { aProjectWithKey } from '../../support/gateway.js';
import { createHarness, type Harness, type WorkerProcess, waitUntil } from '../../support/harness.js';
import { bearer } from '../../support/identity.js';
import { usd } from '../../support/wallet-factory.js';
import { charge } from '../../support/wallet-spend.js';
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

const REQUESTS = 600;

/** A second key of the world's project. */
async function anotherKey(world: Awaited<ReturnType<typeof aProjectWithKey>>): Promise<string> {
  const res = await h.http
    .post('/api/v1/api-keys')
    .set(bearer(world.org.admin.session))
    .send({ name: 'second key', projectId: world.projectId });
  expect(res.status).toBe(200);
  return res.body.id as string;
}

it('writes a batch whose worker was SIGKILLed mid-transaction exactly once', async () => {
  const world = await aProjectWithKey(h, '100');
  const org = world.org.id;
  const caller = { accountId: world.org.admin.accountId, organizationId: org, projectId: world.projectId };
  // 600 settled requests of two project keys wait in the organization's stream; the first asked for a write job.
  const keys = [world.keyId, await anotherKey(world)];
  const charges = [];
  for (let i = 0; i < REQUESTS; i += 50) {
    charges.push(
      ...(await Promise.all(
        Array.from({ length: 50 }, (_, k) =>
          charge(h.ctx, org, usd('0.1'), {
            cost: usd(k % 2 ? '0.05' : '0.1'),
            caller: { ...caller, keyId: keys[k % 2] as string },
          }),
        ),
      )),
    );
  }
  const charged = usd('0.05') * 300n + usd('0.1') * 300n;
  expect(await liveWallet(h.ctx, org)).toMatchObject({ balance: usd('100') - charged, frozenAmount: 0n });

  const locks = await holdLocks(h.env.DATABASE_URL as string, [{ text: 'lock table request_logs in exclusive mode' }]);
  worker = await startQueueWorker(h.env, 'ledger');
  const killed = await killMidJob(h, worker, 'ledger', {
    midJob: async () => (await locks.waitingWorkers('request_logs')) === 1,
    release: () => locks.release(),
  });
  worker = killed.replacement;
  expect(killed.signal).toBe('SIGKILL');
  expect(killed.inFlight).toBe(1);

  const logs = await waitUntil(async () => {
    const rows = await h.ctx.db.select().from(requestLogs).where(eq(requestLogs.organizationId, org));
    return rows.length >= REQUESTS ? rows : undefined;
  }, 60_000);
  const writtenAt = Date.now();
  await waitUntil(async () => (await h.ctx.queues.queue('ledger').getActiveCount()) === 0, 30_000);
  const records = await h.ctx.db.select().from(walletRecords).where(eq(walletRecords.organizationId, org));
  const consumes = records.filter((r) => r.type === 'Consume');
  expect(logs).toHaveLength(REQUESTS);
  expect(new Set(logs.map((l) => l.id))).toEqual(new Set(charges.map((c) => c.requestLogId)));
  expect(consumes).toHaveLength(REQUESTS);
  expect(new Set(consumes.map((r) => r.requestLogId)).size).toBe(REQUESTS);
  expect(consumes.reduce((sum, r) => sum + r.amount, 0n)).toBe(charged);
  expect((await getWallet(h.ctx.db, org)).balance).toBe(usd('100') - charged);
  const counted = await h.ctx.db
    .select({ keyId: apiKeyDailyGatewayUsage.keyId, requests: apiKeyDailyGatewayUsage.requestCount })
    .from(apiKeyDailyGatewayUsage)
    .where(inArray(apiKeyDailyGatewayUsage.keyId, keys));
  // One row per key (the requests started today; a run across 00:00 UTC splits a key's into two days).
  const perKey = (id: string) => counted.filter((c) => c.keyId === id).reduce((sum, c) => sum + c.requests, 0);
  expect(keys.map(perKey)).toEqual([REQUESTS / 2, REQUESTS / 2]);
  // The organization's spending roll-up (the Overview's), kept in the same statement, counts the batch once too.
  const spent = await h.ctx.db
    .select()
    .from(organizationDailySpending)
    .where(eq(organizationDailySpending.organizationId, org));
  expect(spent.reduce((sum, d) => sum + d.requestCount, 0)).toBe(REQUESTS);
  expect(spent.reduce((sum, d) => sum + d.spent, 0n)).toBe(charged);
  // And the project's usage roll-up (the console's Gateway page), kept in the same statement.
  const used = await h.ctx.db.select().from(projectDailyUsage).where(eq(projectDailyUsage.projectId, caller.projectId));
  expect(used.reduce((sum, d) => sum + d.requestCount, 0)).toBe(REQUESTS);
  expect(used.reduce((sum, d) => sum + d.spent, 0n)).toBe(charged);
  const problems = [...(await reconcileWallets(h.ctx.db)).problems, ...(await reconcileMirrors(h.ctx)).problems];
  expect(problems.filter((p) => p.organizationId === org)).toEqual([]);

  recordFigures('SIGKILL mid-job: ledger', {
    jobsAtRisk: killed.inFlight,
    jobsLost: REQUESTS - logs.length,
    doubleEffects: consumes.length - new Set(consumes.map((r) => r.requestLogId)).size,
    requeueSeconds: secondsBetween(killed.killedAt, writtenAt),
  });
});
