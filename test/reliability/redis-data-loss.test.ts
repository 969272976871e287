// Redis dies (SIGKILL) with settled requests waiting in a ledger stream and a request in flight. From its
// append-only file it comes back with everything it acknowledged: the mirror, the stream and the hold are there, the
// ledger writer writes each waiting entry once and the request in flight settles once. Without persistence it comes
// back empty: the mirror is rebuilt from PostgreSQL, the waiting entries are lost (undercharged, never charged
// twice), the request in flight settles charging nothing, and the reconciliation finds nothing wrong.
import { eq } from 'drizzle-orm';
import { requestLogs, walletRecords } from '../../shared/db/schema/index.js';
import { closeCharge, openCharge } from '../../shared/gateway/accounting.js';
import { writeLedger } from '../../shared/wallet/ledger-writer.js';
import { formatMicros } from '../../shared/wallet/money.js';
import { reconcileMirrors, reconcileWallets } from '../../shared/wallet/reconciliation.js';
import { liveWallet } from '../../shared/wallet/wallet-mirror.js';
import { getWallet } from '../../shared/wallet/wallets.js';
import { createHarness, type Harness } from '../support/harness.js';
import { PrivateRedis, reconnected } from '../support/private-redis.js';
import { fundedWallet, usd } from '../support/wallet-factory.js';
import { callerOf, charge, spend } from '../support/wallet-spend.js';
import { recordFigures } from './support/figures.js';

const WRITTEN = 20;
const WAITING = 30;

async function scenario(h: Harness, redis: PrivateRedis) {
  const org = await fundedWallet(h, '10');
  for (let i = 0; i < WRITTEN; i++) await spend(h.ctx, org, usd('0.1'));
  const waiting = await Promise.all(Array.from({ length: WAITING }, () => charge(h.ctx, org, usd('0.05'))));
  const inFlight = await openCharge(h.ctx, callerOf(org), { operation: 'messages', reserveMicros: usd('1') });
  const before = await liveWallet(h.ctx, org);
  expect(before).toMatchObject({ balance: usd('10') - usd('2') - usd('1.5') - usd('1'), frozenAmount: usd('1') });

  await redis.stop();
  await redis.start();
  await reconnected(h.ctx.redis);

  const after = await liveWallet(h.ctx, org);
  const settled = await closeCharge(h.ctx, inFlight, { status: 'succeeded', costMicros: usd('0.4') });
  const again = await closeCharge(
    h.ctx,
    { ...inFlight, closed: false },
    { status: 'succeeded', costMicros: usd('0.4') },
  );
  await writeLedger(h.ctx, org);
  const records = await h.ctx.db.select().from(walletRecords).where(eq(walletRecords.organizationId, org));
  const logs = await h.ctx.db.select().from(requestLogs).where(eq(requestLogs.organizationId, org));
  const consumes = records.filter((r) => r.type === 'Consume');
  const problems = [...(await reconcileWallets(h.ctx.db)).problems, ...(await reconcileMirrors(h.ctx)).problems];
  return {
    org,
    waiting,
    after,
    settled,
    again,
    consumes,
    logs,
    pg: await getWallet(h.ctx.db, org),
    live: await liveWallet(h.ctx, org),
    problems: problems.filter((p) => p.organizationId === org),
  };
}

describe('Redis loses its data', () => {
  it('comes back from its append-only file with every waiting entry and hold, each applied once', async () => {
    const redis = await PrivateRedis.start({ appendOnly: true });
    const h = await createHarness({ REDIS_URL: redis.url });
    try {
      const r = await scenario(h, redis);
      expect(r.after).toMatchObject({ balance: usd('5.5'), frozenAmount: usd('1') });
      expect(r.settled).toEqual({ charged: usd('0.4'), replayed: false });
      expect(r.again).toEqual({ charged: 0n, replayed: true });
      expect(r.consumes).toHaveLength(WRITTEN + WAITING + 1);
      expect(new Set(r.consumes.map((c) => c.requestLogId)).size).toBe(WRITTEN + WAITING + 1);
      expect(r.pg.balance).toBe(usd('10') - usd('2') - usd('1.5') - usd('0.4'));
      expect(r.live).toMatchObject({ balance: r.pg.balance, frozenAmount: 0n });
      expect(r.problems).toEqual([]);
      recordFigures('Redis SIGKILL + restart (AOF) with ledger entries waiting', {
        jobsAtRisk: WAITING + 1,
        jobsLost: WRITTEN + WAITING + 1 - r.consumes.length,
        doubleEffects: r.consumes.length - new Set(r.consumes.map((c) => c.requestLogId)).size,
        undercharged: 0,
      });
    } finally {
      await h.close();
      await redis.dispose();
    }
  });

  it('without persistence rebuilds the mirror from PostgreSQL: the lost entries are undercharged, nothing twice', async () => {
    const redis = await PrivateRedis.start();
    const h = await createHarness({ REDIS_URL: redis.url });
    try {
      const r = await scenario(h, redis);
      // PostgreSQL knows only the written requests: the 30 waiting charges (1.5) are gone with Redis.
      expect(r.after).toMatchObject({ balance: usd('8'), frozenAmount: 0n });
      // The request in flight lost its hold: it is logged, charged nothing, and its retry changes nothing.
      expect(r.settled).toEqual({ charged: 0n, replayed: true });
      expect(r.again).toEqual({ charged: 0n, replayed: true });
      expect(r.consumes).toHaveLength(WRITTEN);
      expect(r.logs.map((l) => l.costMicros).filter((c) => c === usd('0.4'))).toHaveLength(1);
      expect(r.pg.balance).toBe(usd('8'));
      expect(r.live).toMatchObject({ balance: usd('8'), frozenAmount: 0n });
      expect(r.problems).toEqual([]);
      const lost = usd('1.5') + usd('0.4');
      recordFigures('Redis SIGKILL + restart without persistence (all data lost)', {
        jobsAtRisk: WAITING + 1,
        jobsLost: WAITING,
        doubleEffects: r.consumes.length - new Set(r.consumes.map((c) => c.requestLogId)).size,
        undercharged: Number(formatMicros(lost)),
      });
    } finally {
      await h.close();
      await redis.dispose();
    }
  });
});
