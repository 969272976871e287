// A project key used only on the gateway showed no last use on the API keys page: a gateway call authenticates from
// an in-process copy of the key, so nothing recorded it. The ledger writer now moves the key's last use up to its
// newest written request, never down.
//
// The ledger writer once moved its batch's API keys' last use inside its transaction, locking many key rows while the
// daily usage rollover locked them too; under load PostgreSQL aborted ledger batches as deadlocked (40P01). Now the
// writer locks no key row: a key's last use goes to Redis after the commit and the rollover persists it. Here a key row
// is held locked as the rollover holds it, and the ledger must write past it; the last use still arrives, listed at
// once and persisted by the rollover, and many writers and rollovers at once still leave the newest.
import { and, eq } from 'drizzle-orm';
import pg from 'pg';
import { apiKeyDailyUsage, apiKeys } from '../../shared/db/schema/index.js';
import { CredentialCache } from '../../shared/identity/credential-cache.js';
import { persistAccountUsage } from '../../shared/identity/daily-usage.js';
import { addDays, utcDay } from '../../shared/time/utc-day.js';
import { type GatewayWorld, openGatewayWorld, writeLedgers } from '../support/gateway.js';
import { bearer } from '../support/identity.js';

let w: GatewayWorld;
beforeAll(async () => {
  w = await openGatewayWorld({ balance: '10' });
});
afterAll(() => w?.close());

const listedKey = async () => {
  const res = await w.h.http.get('/api/v1/api-keys').set(bearer(w.org.admin.session));
  return (res.body as { id: string; name: string; lastUsedAt?: string }[]).find((k) => k.name === 'gateway key');
};
const paidCall = () =>
  w.h.http
    .post('/v1/messages')
    .set('x-api-key', w.key)
    .send({ model: 'claude-sonnet-5', max_tokens: 16, messages: [{ role: 'user', content: 'hello' }] });

it("shows a gateway call as the key's last use once the ledger has it, and never moves it back", async () => {
  expect((await listedKey())?.lastUsedAt).toBeUndefined();

  const before = Date.now();
  expect((await paidCall()).status).toBe(200);
  await writeLedgers(w.h);
  const lastUsed = Date.parse((await listedKey())?.lastUsedAt ?? '');
  expect(lastUsed).toBeGreaterThanOrEqual(before);
  expect(lastUsed).toBeLessThanOrEqual(Date.now());

  // A newer use recorded elsewhere (the daily rollover of /api/v1 use) stays when an older gateway batch lands.
  const later = new Date(Date.now() + 3_600_000);
  const id = (await listedKey())?.id ?? '';
  await w.h.ctx.db.update(apiKeys).set({ lastUsedAt: later }).where(eq(apiKeys.id, id));
  expect((await paidCall()).status).toBe(200);
  await writeLedgers(w.h);
  expect(Date.parse((await listedKey())?.lastUsedAt ?? '')).toBe(later.getTime());
});

/** Resolves when some other backend waits on a lock `holderPid` holds (polled, no fixed wait). */
async function someoneWaitsOn(holderPid: number, stop: { done: boolean }): Promise<'blocked' | 'never'> {
  const watcher = new pg.Client({ connectionString: w.h.ctx.config.DATABASE_URL });
  await watcher.connect();
  try {
    while (!stop.done) {
      const { rows } = await watcher.query('select 1 from pg_stat_activity where $1 = any(pg_blocking_pids(pid))', [
        holderPid,
      ]);
      if (rows.length > 0) return 'blocked';
      await new Promise((resolve) => setImmediate(resolve));
    }
    return 'never';
  } finally {
    await watcher.end();
  }
}

it('writes a batch past a key row the rollover holds, and the last use still arrives', async () => {
  const keyId = (await listedKey())?.id ?? '';
  expect(keyId).not.toBe('');
  await w.h.ctx.db.update(apiKeys).set({ lastUsedAt: null }).where(eq(apiKeys.id, keyId));
  const before = Date.now();
  expect((await paidCall()).status).toBe(200);

  // The rollover's hold on the key row: `update api_keys set last_used_at = …` (FOR NO KEY UPDATE), not committed.
  const holder = new pg.Client({ connectionString: w.h.ctx.config.DATABASE_URL });
  await holder.connect();
  try {
    await holder.query('begin');
    await holder.query('update api_keys set last_used_at = last_used_at where id = $1', [keyId]);
    const holderPid = Number((await holder.query('select pg_backend_pid() as pid')).rows[0].pid);

    const stop = { done: false };
    const write = writeLedgers(w.h).then((done) => {
      stop.done = true;
      return done;
    });
    const first = await Promise.race([write.then(() => 'written' as const), someoneWaitsOn(holderPid, stop)]);
    if (first === 'blocked') await holder.query('rollback');
    expect(first).toBe('written');
    expect((await write).written).toBe(1);
  } finally {
    await holder.query('rollback').catch(() => undefined);
    await holder.end();
  }

  const listed = Date.parse((await listedKey())?.lastUsedAt ?? '');
  expect(listed).toBeGreaterThanOrEqual(before);
  expect(listed).toBeLessThanOrEqual(Date.now());
  // The rollover of the day persists it to the key's row (the day the call was made, and the next in case 00:00 UTC
  // passed since).
  await persistAccountUsage(w.h.ctx, utcDay(new Date(before)));
  await persistAccountUsage(w.h.ctx, addDays(utcDay(new Date(before)), 1));
  const [row] = await w.h.ctx.db.select().from(apiKeys).where(eq(apiKeys.id, keyId));
  expect(row?.lastUsedAt?.getTime()).toBe(listed);
});

it('keeps the newest last use when many writers and rollovers run at once', async () => {
  const keyId = (await listedKey())?.id ?? '';
  const cache = new CredentialCache(w.h.ctx.redis, w.h.ctx.config.REDIS_PREFIX);
  const day = utcDay(new Date());
  const base = Date.now() + 60_000;
  const uses = Array.from({ length: 40 }, (_, i) => base + ((i * 7919) % 40) * 1_000);
  await Promise.all([
    ...uses.map((at) => cache.recordLastUse(new Map([[keyId, at]]), day)),
    ...uses.slice(0, 8).map(() => persistAccountUsage(w.h.ctx, day)),
  ]);
  const newest = Math.max(...uses);
  expect(Date.parse((await listedKey())?.lastUsedAt ?? '')).toBe(newest);
  await persistAccountUsage(w.h.ctx, day);
  const [row] = await w.h.ctx.db.select().from(apiKeys).where(eq(apiKeys.id, keyId));
  expect(row?.lastUsedAt?.getTime()).toBe(newest);
});

// An /api/v1 call counted by a web process whose clock is behind once wrote its time over a later last use.
it('keeps a later last use when an /api/v1 call with the key is counted', async () => {
  const keyId = (await listedKey())?.id ?? '';
  const cache = new CredentialCache(w.h.ctx.redis, w.h.ctx.config.REDIS_PREFIX);
  const day = utcDay(new Date());
  const later = Date.now() + 3_600_000;
  await cache.recordLastUse(new Map([[keyId, later]]), day);
  expect((await w.h.http.get('/api/v1/auth/me').set(bearer(w.key))).status).toBe(200);
  expect(Date.parse((await listedKey())?.lastUsedAt ?? '')).toBe(later);
});

// The rollover once wrote a usage row of 0 requests for each key used only on the gateway that day.
it("persists a gateway-only key's last use without a usage row", async () => {
  const keyId = (await listedKey())?.id ?? '';
  const cache = new CredentialCache(w.h.ctx.redis, w.h.ctx.config.REDIS_PREFIX);
  const day = '2020-01-02';
  const at = Date.now() + 7_200_000;
  await cache.recordLastUse(new Map([[keyId, at]]), day);
  await persistAccountUsage(w.h.ctx, day);
  const usage = await w.h.ctx.db
    .select()
    .from(apiKeyDailyUsage)
    .where(and(eq(apiKeyDailyUsage.keyId, keyId), eq(apiKeyDailyUsage.day, day)));
  expect(usage).toEqual([]);
  const [row] = await w.h.ctx.db.select().from(apiKeys).where(eq(apiKeys.id, keyId));
  expect(row?.lastUsedAt?.getTime()).toBe(at);
});
