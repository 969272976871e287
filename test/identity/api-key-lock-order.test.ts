// API key rows are written by two writers that each lock many of them in one transaction: the ledger writer moves
// the keys' last use (one statement, a locking CTE, shared/wallet/ledger-rows.ts) and the daily usage rollover
// persists the keys' counters and last use (one key after another, shared/identity/daily-usage.ts). Both lock in key id
// order, so they never wait on each other in a cycle. Here many of each run at once against real PostgreSQL on the
// same keys: with either order reversed, PostgreSQL aborts some of them as deadlocked (40P01).
import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { apiKeyDailyUsage, apiKeys, requestLogs } from '../../shared/db/schema/index.js';
import { persistAccountUsage } from '../../shared/identity/daily-usage.js';
import { utcDay } from '../../shared/time/utc-day.js';
import type { LedgerEntry } from '../../shared/wallet/ledger-entry.js';
import { insertRequestLogs } from '../../shared/wallet/ledger-rows.js';
import { createHarness, type Harness } from '../support/harness.js';
import { bearer } from '../support/identity.js';
import { anOrganization, aProject, inOrg } from '../support/org-fixtures.js';

const KEYS = 24;
/** Of each writer, at once (the pool holds 10 connections, so both kinds wait for one). */
const RUNS = 8;
const WAVES = 3;

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const entry = (organizationId: string, projectId: string, apiKeyId: string, finishedAt: number): LedgerEntry => ({
  id: randomUUID(),
  organizationId,
  projectId,
  apiKeyId,
  operation: 'messages',
  model: 'sim-small',
  status: 'succeeded',
  httpStatus: 200,
  inputTokens: 1,
  outputTokens: 1,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  cost: '0',
  latencyMs: 1,
  errorMessage: null,
  correlationId: null,
  startedAt: finishedAt - 1,
  finishedAt,
});

it('the ledger writer and the daily usage rollover lock the same API keys at once without a deadlock or a lost last use', async () => {
  const org = await anOrganization(h);
  const project = await aProject(h, org);
  const keys: { id: string; token: string }[] = [];
  for (let i = 0; i < KEYS; i++) {
    const res = await h.http
      .post('/api/v1/api-keys')
      .set(inOrg(org.admin, org.id))
      .send({ name: `key ${i}`, projectId: project.id });
    expect(res.status).toBe(200);
    keys.push({ id: res.body.id, token: res.body.token });
  }
  // One request with each key: today's counters the rollover persists (and its last use).
  for (const key of keys) {
    expect((await h.http.get('/api/v1/api-keys/usage').set(bearer(key.token))).status).toBe(200);
  }
  const keyIds = keys.map((k) => k.id);
  const day = utcDay(new Date());
  // Each ledger batch has a request of every key, in an order of its own; later batches end later.
  const base = Date.now() + 60_000;
  let newest = 0;
  const ledgerBatch = (n: number) => {
    const finishedAt = base + n * 1_000;
    newest = Math.max(newest, finishedAt);
    const shuffled = [...keyIds].sort(() => Math.random() - 0.5);
    return h.ctx.db.transaction((tx) =>
      insertRequestLogs(
        tx,
        shuffled.map((id) => entry(org.id, project.id, id, finishedAt)),
      ),
    );
  };

  const failures: string[] = [];
  for (let wave = 0; wave < WAVES; wave++) {
    const runs = Array.from({ length: RUNS }, (_, i) => [
      ledgerBatch(wave * RUNS + i),
      persistAccountUsage(h.ctx, day),
    ]).flat();
    for (const result of await Promise.allSettled(runs)) {
      if (result.status === 'rejected') {
        const err = result.reason as { code?: string; cause?: { code?: string }; message?: string };
        failures.push(`${err.cause?.code ?? err.code ?? ''} ${err.message ?? String(err)}`.slice(0, 200));
      }
    }
  }
  expect(failures).toEqual([]);

  // Every batch's request logs are written, and each key's last use is the newest of them (never moved back).
  const logs = await h.ctx.db
    .select({ id: requestLogs.id })
    .from(requestLogs)
    .where(eq(requestLogs.projectId, project.id));
  expect(logs).toHaveLength(WAVES * RUNS * KEYS);
  const rows = await h.ctx.db.select().from(apiKeys).where(inArray(apiKeys.id, keyIds));
  expect(rows.map((r) => r.lastUsedAt?.getTime())).toEqual(rows.map(() => newest));
  const usage = await h.ctx.db.select().from(apiKeyDailyUsage).where(inArray(apiKeyDailyUsage.keyId, keyIds));
  expect(usage.map((u) => [u.day, u.requestCount])).toEqual(keyIds.map(() => [day, 1]));
});
