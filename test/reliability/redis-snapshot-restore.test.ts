// Redis restored from an older RDB snapshot (last hour's backup, or a Redis that keeps only snapshots, Redis's own
// default) while PostgreSQL kept everything: the wallet mirror comes back behind the ledger, at an older record and
// balance. A mirror behind is brought to PostgreSQL's state by the first ledger write's acknowledgement or the minute
// sweep; until then it may admit money the wallet no longer holds. The ledger writer then takes what the wallet holds
// (never below zero, as a settlement does), so the organization is undercharged, never overdrawn. Before, it wrote
// the charge as the stale mirror had taken it, PostgreSQL refused the negative balance, and every later write of the
// organization failed with it: its requests stayed in the stream until the backlog limit refused them all.
import { eq } from 'drizzle-orm';
import { requestLogs, walletRecords } from '../../shared/db/schema/index.js';
import { recharge } from '../../shared/wallet/ledger.js';
import { writeLedger } from '../../shared/wallet/ledger-writer.js';
import { mirrorKeys } from '../../shared/wallet/mirror-steps.js';
import { formatMicros } from '../../shared/wallet/money.js';
import { sweepWallets } from '../../shared/wallet/wallet-sweep.js';
import { getWallet } from '../../shared/wallet/wallets.js';
import { createHarness, type Harness } from '../support/harness.js';
import { PrivateRedis, reconnected } from '../support/private-redis.js';
import { fundedWallet, usd } from '../support/wallet-factory.js';
import { charge, live, spend, walletProblems } from '../support/wallet-spend.js';
import { recordFigures } from './support/figures.js';

const mirrorBase = async (h: Harness, org: string) =>
  BigInt((await h.ctx.redis.hget(mirrorKeys(h.config.REDIS_PREFIX, org).w, 'base')) ?? -1);

describe('Redis restored from an older snapshot, PostgreSQL kept', () => {
  let redis: PrivateRedis;
  let h: Harness;
  beforeEach(async () => {
    redis = await PrivateRedis.start({ snapshots: true });
    h = await createHarness({ REDIS_URL: redis.url });
  });
  afterEach(async () => {
    await h?.close();
    await redis?.dispose();
  });

  it('never overdraws: what a stale mirror admitted past the balance is written as what the wallet held', async () => {
    const org = await fundedWallet(h, '1');
    for (let i = 0; i < 2; i++) await spend(h.ctx, org, usd('0.1'));
    const replayed = await charge(h.ctx, org, usd('0.05')); // waiting in the snapshot's stream, written after it
    await redis.snapshot('hourly');
    for (let i = 0; i < 7; i++) await spend(h.ctx, org, usd('0.1'));
    const lost = await charge(h.ctx, org, usd('0.05')); // settled, still in the stream: gone with the restore
    expect((await getWallet(h.ctx.db, org)).balance).toBe(usd('0.05'));

    await redis.restoreSnapshot('hourly');
    await reconnected(h.ctx.redis);
    // The snapshot's mirror: the balance of two requests in, where PostgreSQL has nine (read without the wallet
    // read's sync, which would bring it up to date).
    expect(await mirrorBase(h, org)).toBe(usd('0.8'));
    expect(await h.ctx.redis.xlen(mirrorKeys(h.config.REDIS_PREFIX, org).l)).toBe(1);

    // Admitted and settled against the stale mirror, then written with the snapshot's entry written before: the
    // wallet held 0.05 of its 0.3, and the entry already written is not counted again.
    const over = await charge(h.ctx, org, usd('0.3'));
    await writeLedger(h.ctx, org);
    const pg = await getWallet(h.ctx.db, org);
    expect(pg.balance).toBe(0n);
    const consumeOf = (id: string) => h.ctx.db.select().from(walletRecords).where(eq(walletRecords.requestLogId, id));
    expect(await consumeOf(over.requestLogId)).toEqual([
      expect.objectContaining({
        type: 'Consume',
        amount: usd('0.05'),
        previousBalance: usd('0.05'),
        currentBalance: 0n,
      }),
    ]);
    expect(await consumeOf(replayed.requestLogId)).toEqual([expect.objectContaining({ amount: usd('0.05') })]);
    const [log] = await h.ctx.db.select().from(requestLogs).where(eq(requestLogs.id, over.requestLogId));
    expect(log?.costMicros).toBe(usd('0.3'));
    expect(await h.ctx.db.select().from(requestLogs).where(eq(requestLogs.id, lost.requestLogId))).toEqual([]);

    // The acknowledgement brought the mirror to PostgreSQL: the next request is refused, nothing waits.
    expect(await live(h.ctx, org)).toMatchObject({ balance: 0n, frozenAmount: 0n });
    await expect(charge(h.ctx, org, usd('0.05'))).rejects.toMatchObject({ status: 402 });
    expect(await walletProblems(h.ctx, org)).toEqual([]);
    recordFigures('Redis restored from an older RDB snapshot (mirror behind PostgreSQL)', {
      jobsAtRisk: 2,
      jobsLost: 1,
      doubleEffects: 0,
      undercharged: Number(formatMicros(usd('0.05') + usd('0.25'))),
    });
  });

  it('brings a mirror behind PostgreSQL (a recharge made since the snapshot) to its state at the sweep', async () => {
    const org = await fundedWallet(h, '1');
    for (let i = 0; i < 2; i++) await spend(h.ctx, org, usd('0.1'));
    await redis.snapshot('hourly');
    await recharge(h.ctx, org, { amount: usd('0.5'), description: 'after the snapshot' });
    expect(await live(h.ctx, org)).toMatchObject({ balance: usd('1.3') });

    await redis.restoreSnapshot('hourly');
    await reconnected(h.ctx.redis);
    expect(await mirrorBase(h, org)).toBe(usd('0.8'));
    await sweepWallets(h.ctx);
    expect(await live(h.ctx, org)).toMatchObject({ balance: usd('1.3'), frozenAmount: 0n });
    expect(await walletProblems(h.ctx, org)).toEqual([]);
  });
});
