// The wallet against real Redis and PostgreSQL: holds and settlements in the Redis mirror never overdraw, the ledger
// written behind chains its records exactly once, and the mirror always reconciles with PostgreSQL.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { organizationWallets, requestLogs } from '../../shared/db/schema/index.js';
import { closeCharge, openCharge } from '../../shared/gateway/accounting.js';
import { listRecords, recharge } from '../../shared/wallet/ledger.js';
import { writeLedger } from '../../shared/wallet/ledger-writer.js';
import { mirrorKeys } from '../../shared/wallet/mirror-steps.js';
import { refund } from '../../shared/wallet/refunds.js';
import { sweepWallets } from '../../shared/wallet/wallet-sweep.js';
import { getWallet } from '../../shared/wallet/wallets.js';
import { createHarness, type Harness } from '../support/harness.js';
import { createUser } from '../support/identity.js';
import { fundedWallet, usd } from '../support/wallet-factory.js';
import { callerOf, charge, live, spend, walletProblems } from '../support/wallet-spend.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

const consumeCount = async (org: string) =>
  (await listRecords(h.ctx.db, org, { page: 1, size: 1, type: 'Consume' })).total;
const codeOf = (err: unknown) => (err as { code?: string }).code;

describe('wallet ledger', () => {
  it('writes every recharge as a record chained from the previous one', async () => {
    const org = await fundedWallet(h, '10');
    await recharge(h.ctx, org, { amount: usd('2.5') });
    const { records, total } = await listRecords(h.ctx.db, org, { page: 1, size: 10 });
    expect(total).toBe(2);
    expect(records.map((r) => [r.type, r.amount, r.previousBalance, r.currentBalance])).toEqual([
      ['Recharge', usd('2.5'), usd('10'), usd('12.5')],
      ['Recharge', usd('10'), 0n, usd('10')],
    ]);
    expect((await getWallet(h.ctx.db, org)).balance).toBe(usd('12.5'));
    expect(await walletProblems(h.ctx, org)).toEqual([]);
  });

  it('records a recharge with the same idempotency key once', async () => {
    const org = await fundedWallet(h);
    const first = await recharge(h.ctx, org, { amount: usd('5'), idempotencyKey: 'abc' });
    const again = await recharge(h.ctx, org, { amount: usd('5'), idempotencyKey: 'abc' });
    expect(again.replayed).toBe(true);
    expect(again.record.id).toBe(first.record.id);
    expect((await getWallet(h.ctx.db, org)).balance).toBe(usd('5'));
    expect(await live(h.ctx, org)).toMatchObject({ balance: usd('5'), frozenAmount: 0n });
  });

  it('holds in the mirror, settles ONE Consume with the real cost, and writes it to PostgreSQL behind', async () => {
    const org = await fundedWallet(h, '10');
    const opened = await openCharge(h.ctx, callerOf(org), { operation: 'messages', reserveMicros: usd('3') });
    expect(await live(h.ctx, org)).toMatchObject({ balance: usd('7'), frozenAmount: usd('3') });
    expect(await walletProblems(h.ctx, org)).toEqual([]);

    await closeCharge(h.ctx, opened, { status: 'succeeded', httpStatus: 200, costMicros: usd('1.25') });
    // The mirror knows at once; PostgreSQL once the ledger is written.
    expect(await live(h.ctx, org)).toMatchObject({ balance: usd('8.75'), frozenAmount: 0n });
    expect((await getWallet(h.ctx.db, org)).balance).toBe(usd('10'));
    expect(await walletProblems(h.ctx, org)).toEqual([]);

    expect(await writeLedger(h.ctx, org)).toEqual({ entries: 1, written: 1, transactions: 1 });
    const { records } = await listRecords(h.ctx.db, org, { page: 1, size: 1, type: 'Consume' });
    expect(records[0]).toMatchObject({
      type: 'Consume',
      amount: usd('1.25'),
      previousBalance: usd('10'),
      currentBalance: usd('8.75'),
      requestLogId: opened.requestLogId,
      description: 'messages',
    });
    expect((await getWallet(h.ctx.db, org)).balance).toBe(usd('8.75'));
    const [log] = await h.ctx.db.select().from(requestLogs).where(eq(requestLogs.id, opened.requestLogId));
    expect(log).toMatchObject({ status: 'succeeded', costMicros: usd('1.25'), organizationId: org });
    expect(await live(h.ctx, org)).toMatchObject({ balance: usd('8.75'), frozenAmount: 0n });
    expect(await walletProblems(h.ctx, org)).toEqual([]);
  });

  it('charges a settlement retried from anywhere once, and writes its entry once', async () => {
    const org = await fundedWallet(h, '10');
    const opened = await openCharge(h.ctx, callerOf(org), { operation: 'video', reserveMicros: usd('2') });
    const outcome = { status: 'succeeded' as const, httpStatus: 200, costMicros: usd('1') };
    // a worker's retried job rebuilds the charge from storage: three closes of one request, at once
    await Promise.all([0, 1, 2].map(() => closeCharge(h.ctx, { ...opened, closed: false }, outcome)));
    expect(await live(h.ctx, org)).toMatchObject({ balance: usd('9'), frozenAmount: 0n });
    await writeLedger(h.ctx, org);
    // and once more after the first was written
    await closeCharge(h.ctx, { ...opened, closed: false }, outcome);
    await writeLedger(h.ctx, org);
    expect(await consumeCount(org)).toBe(1);
    expect(await h.ctx.db.select().from(requestLogs).where(eq(requestLogs.id, opened.requestLogId))).toHaveLength(1);
    expect((await getWallet(h.ctx.db, org)).balance).toBe(usd('9'));
    expect(await walletProblems(h.ctx, org)).toEqual([]);
  });

  it('releases a failed request without a record, and returns a forgotten hold at its expiry', async () => {
    const org = await fundedWallet(h, '4');
    const failed = await charge(h.ctx, org, usd('1'), { cost: 0n });
    expect(await live(h.ctx, org)).toMatchObject({ balance: usd('4'), frozenAmount: 0n });
    await writeLedger(h.ctx, org);
    const [log] = await h.ctx.db.select().from(requestLogs).where(eq(requestLogs.id, failed.requestLogId));
    expect(log).toMatchObject({ status: 'failed', costMicros: 0n });

    const forgotten = await openCharge(h.ctx, callerOf(org), {
      operation: 'video',
      reserveMicros: usd('2'),
      reservationExpiresInMs: 1,
    });
    expect(await live(h.ctx, org)).toMatchObject({ balance: usd('2'), frozenAmount: usd('2') });
    await new Promise((r) => setTimeout(r, 5));
    expect((await sweepWallets(h.ctx)).expiredHolds).toBeGreaterThanOrEqual(1);
    expect(await live(h.ctx, org)).toMatchObject({ balance: usd('4'), frozenAmount: 0n });
    // settled after its expiry, it is charged from the available balance, once
    await closeCharge(h.ctx, forgotten, { status: 'succeeded', costMicros: usd('0.5') });
    await closeCharge(h.ctx, { ...forgotten, closed: false }, { status: 'succeeded', costMicros: usd('0.5') });
    await writeLedger(h.ctx, org);
    expect(await live(h.ctx, org)).toMatchObject({ balance: usd('3.5'), frozenAmount: 0n });
    expect(await consumeCount(org)).toBe(1);
    expect(await walletProblems(h.ctx, org)).toEqual([]);
  });

  it('paced (the ledger job), writes what it found and hands what settled meanwhile to one more job', async () => {
    const org = await fundedWallet(h, '10');
    await charge(h.ctx, org, usd('1'));
    // a request settles while the batch's transaction is being written: it finds the stream non-empty, asks for no
    // write of its own, and is left for the job one flush delay later rather than a second transaction at once
    let settledMeanwhile = false;
    const db = new Proxy(h.ctx.db, {
      get(target, property, receiver) {
        if (property !== 'transaction') return Reflect.get(target, property, receiver);
        return async (...args: Parameters<typeof target.transaction>) => {
          if (!settledMeanwhile) {
            settledMeanwhile = true;
            await charge(h.ctx, org, usd('2'));
          }
          return target.transaction(...args);
        };
      },
    });
    const ledgerJobs = async () =>
      (await h.ctx.queues.queue('ledger').getJobs(['waiting', 'delayed'])).filter(
        (job) => job.data.organizationId === org,
      ).length;
    const jobsBefore = await ledgerJobs();

    expect(await writeLedger({ ...h.ctx, db }, org, { paced: true })).toEqual({
      entries: 1,
      written: 1,
      transactions: 1,
    });
    expect(await h.ctx.redis.xlen(mirrorKeys(h.ctx.config.REDIS_PREFIX, org).l)).toBe(1);
    expect(await ledgerJobs()).toBe(jobsBefore + 1);
    expect(await consumeCount(org)).toBe(1);

    // that job's write (and an unpaced drain) takes the rest
    expect(await writeLedger(h.ctx, org, { paced: true })).toEqual({ entries: 1, written: 1, transactions: 1 });
    expect(await ledgerJobs()).toBe(jobsBefore + 1);
    expect(await consumeCount(org)).toBe(2);
    expect(await live(h.ctx, org)).toMatchObject({ balance: usd('7'), frozenAmount: 0n });
    expect(await walletProblems(h.ctx, org)).toEqual([]);
  });

  it('takes an actual cost above the hold from the available balance, never below zero', async () => {
    const org = await fundedWallet(h, '3');
    await charge(h.ctx, org, usd('1'), { cost: usd('1.5') });
    expect(await live(h.ctx, org)).toMatchObject({ balance: usd('1.5') });
    const capped = await charge(h.ctx, org, usd('1'), { cost: usd('5') });
    expect(await live(h.ctx, org)).toMatchObject({ balance: 0n, frozenAmount: 0n });
    await writeLedger(h.ctx, org);
    const [log] = await h.ctx.db.select().from(requestLogs).where(eq(requestLogs.id, capped.requestLogId));
    expect(log?.costMicros).toBe(usd('5'));
    const { records } = await listRecords(h.ctx.db, org, { page: 1, size: 5, type: 'Consume' });
    expect(records.map((r) => r.amount)).toEqual([usd('1.5'), usd('1.5')]);
    expect((await getWallet(h.ctx.db, org)).balance).toBe(0n);
    expect(await walletProblems(h.ctx, org)).toEqual([]);
  });

  it('refuses new paid requests with 402 Wallet.InsufficientBalance at zero or below the amount', async () => {
    const empty = await fundedWallet(h);
    const open = (org: string, amount: bigint) =>
      openCharge(h.ctx, callerOf(org), { operation: 'messages', reserveMicros: amount });
    await expect(open(empty, 1n)).rejects.toMatchObject({ code: 'Wallet.InsufficientBalance', status: 402 });
    const poor = await fundedWallet(h, '1');
    await expect(open(poor, usd('1.000001'))).rejects.toMatchObject({ status: 402 });
    await expect(open(randomUUID(), 1n)).rejects.toMatchObject({ code: 'Wallet.NotFound' });
    // free requests (count_tokens) pass a wallet at zero
    await expect(open(empty, 0n)).resolves.toMatchObject({ closed: false });
    await h.ctx.db
      .update(organizationWallets)
      .set({ isActive: false })
      .where(eq(organizationWallets.organizationId, poor));
    await live(h.ctx, poor); // a read brings the mirror to PostgreSQL's state
    await expect(open(poor, 1n)).rejects.toMatchObject({ code: 'Wallet.Inactive' });
  });

  it('never overdraws under 1,000 concurrent paid requests and reconciles exactly after the drain', async () => {
    const org = await fundedWallet(h, '25');
    const outcomes = await Promise.all(
      Array.from({ length: 1000 }, async (_, i) => {
        try {
          const actual = i % 2 === 0 ? usd('0.05') : usd('0.1');
          await charge(h.ctx, org, usd('0.1'), { cost: actual });
          return actual;
        } catch (err) {
          if (codeOf(err) === 'Wallet.InsufficientBalance') return 0n;
          throw err;
        }
      }),
    );
    const charged = outcomes.reduce((a, b) => a + b, 0n);
    const paid = outcomes.filter((o) => o > 0n).length;
    expect(outcomes.filter((o) => o === 0n).length).toBeGreaterThan(0);
    expect(paid).toBeGreaterThanOrEqual(250);
    expect(await live(h.ctx, org)).toMatchObject({ balance: usd('25') - charged, frozenAmount: 0n });
    expect(await walletProblems(h.ctx, org)).toEqual([]);
    const written = await writeLedger(h.ctx, org);
    expect(written).toMatchObject({ entries: paid, written: paid, transactions: 1 });
    const wallet = await getWallet(h.ctx.db, org);
    expect(wallet.balance).toBe(usd('25') - charged);
    expect(wallet.balance).toBeGreaterThanOrEqual(0n);
    expect(await consumeCount(org)).toBe(paid);
    expect(await walletProblems(h.ctx, org)).toEqual([]);
  }, 120_000);

  it('rebuilds a lost mirror from PostgreSQL and the entries still on their way', async () => {
    const org = await fundedWallet(h, '5');
    await spend(h.ctx, org, usd('1'));
    await charge(h.ctx, org, usd('0.5'));
    const held = await openCharge(h.ctx, callerOf(org), { operation: 'video', reserveMicros: usd('2') });
    await h.ctx.redis.del(mirrorKeys(h.config.REDIS_PREFIX, org).w);
    expect(await live(h.ctx, org)).toMatchObject({ balance: usd('1.5'), frozenAmount: usd('2') });
    expect(await walletProblems(h.ctx, org)).toEqual([]);
    await closeCharge(h.ctx, held, { status: 'succeeded', costMicros: usd('2') });
    await writeLedger(h.ctx, org);
    expect((await getWallet(h.ctx.db, org)).balance).toBe(usd('1.5'));
    expect(await live(h.ctx, org)).toMatchObject({ balance: usd('1.5'), frozenAmount: 0n });
    expect(await walletProblems(h.ctx, org)).toEqual([]);
  });

  it('refunds a Consume once, never more than it, and the mirror shows the money at once', async () => {
    const admin = await createUser(h, { roles: ['Admin'] });
    const org = await fundedWallet(h, '5');
    const { record } = await spend(h.ctx, org, usd('2'));
    await expect(
      refund(h.ctx, record.id, { amount: usd('2.000001'), reason: 'too much', createdBy: admin.accountId }),
    ).rejects.toMatchObject({ code: 'Wallet.RefundTooLarge', status: 400 });
    const [a, b] = await Promise.all([
      refund(h.ctx, record.id, { amount: usd('1.5'), reason: 'outage', createdBy: admin.accountId }),
      refund(h.ctx, record.id, { amount: usd('1.5'), reason: 'outage', createdBy: admin.accountId }),
    ]);
    expect(a.record.id).toBe(b.record.id);
    expect(a.record).toMatchObject({
      type: 'Refund',
      amount: usd('1.5'),
      refundOf: record.id,
      currentBalance: usd('4.5'),
    });
    await expect(
      refund(h.ctx, record.id, { amount: usd('0.5'), reason: 'again', createdBy: admin.accountId }),
    ).rejects.toMatchObject({ code: 'Wallet.AlreadyRefunded', status: 409 });
    const recharge1 = (await listRecords(h.ctx.db, org, { page: 1, size: 5, type: 'Recharge' })).records[0];
    await expect(refund(h.ctx, recharge1?.id ?? '', { reason: 'x', createdBy: admin.accountId })).rejects.toMatchObject(
      { code: 'Wallet.NotRefundable' },
    );
    expect((await getWallet(h.ctx.db, org)).balance).toBe(usd('4.5'));
    expect(await live(h.ctx, org)).toMatchObject({ balance: usd('4.5') });
    expect(await walletProblems(h.ctx, org)).toEqual([]);
  });
});

describe('the ledger backlog bound', () => {
  let small: Harness;
  beforeAll(async () => {
    small = await createHarness({ LEDGER_BACKLOG_LIMIT: '3' });
  });
  afterAll(async () => small.close());

  it('answers 503 Ledger.Backlogged once an organization has too many entries waiting, until they are written', async () => {
    const org = await fundedWallet(small, '5');
    for (let i = 0; i < 3; i++) await charge(small.ctx, org, usd('0.1'));
    await expect(charge(small.ctx, org, usd('0.1'))).rejects.toMatchObject({ code: 'Ledger.Backlogged', status: 503 });
    await writeLedger(small.ctx, org);
    await expect(charge(small.ctx, org, usd('0.1'))).resolves.toMatchObject({ closed: true });
    expect(await live(small.ctx, org)).toMatchObject({ balance: usd('4.6') });
  });
});
