// The ledger against real PostgreSQL: records chain, reservations never overdraw, settlement is exact and idempotent.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from '../../shared/db/schema/index.js';
import { organizationWallets, walletReservations } from '../../shared/db/schema/index.js';
import { consume } from '../../shared/wallet/consumption.js';
import { listRecords, recharge } from '../../shared/wallet/ledger.js';
import { reconcileWallets } from '../../shared/wallet/reconciliation.js';
import { refund } from '../../shared/wallet/refunds.js';
import { expireReservations, release, reserve, settle } from '../../shared/wallet/reservations.js';
import { getWallet } from '../../shared/wallet/wallets.js';
import { createHarness, type Harness } from '../support/harness.js';
import { createUser } from '../support/identity.js';
import { fundedWallet, usd } from './wallet-factory.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

const problemsOf = async (organizationId: string) =>
  (await reconcileWallets(h.ctx.db)).problems.filter((p) => p.organizationId === organizationId);

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
    expect(await problemsOf(org)).toEqual([]);
  });

  it('records a recharge with the same idempotency key once', async () => {
    const org = await fundedWallet(h);
    const first = await recharge(h.ctx, org, { amount: usd('5'), idempotencyKey: 'abc' });
    const again = await recharge(h.ctx, org, { amount: usd('5'), idempotencyKey: 'abc' });
    expect(again.replayed).toBe(true);
    expect(again.record.id).toBe(first.record.id);
    expect((await getWallet(h.ctx.db, org)).balance).toBe(usd('5'));
  });

  it('reserves into frozenAmount and settles ONE Consume record with the real cost, returning the rest', async () => {
    const org = await fundedWallet(h, '10');
    const reservation = await reserve(h.ctx, org, usd('3'), { requestId: randomUUID() });
    expect(await getWallet(h.ctx.db, org)).toMatchObject({ balance: usd('7'), frozenAmount: usd('3') });
    expect(await problemsOf(org)).toEqual([]);

    const settled = await settle(h.ctx, reservation.id, usd('1.25'), {
      requestLogId: randomUUID(),
      description: 'messages',
    });
    expect(settled.charged).toBe(usd('1.25'));
    expect(settled.record).toMatchObject({
      type: 'Consume',
      amount: usd('1.25'),
      previousBalance: usd('10'),
      currentBalance: usd('8.75'),
    });
    expect(await getWallet(h.ctx.db, org)).toMatchObject({ balance: usd('8.75'), frozenAmount: 0n });
    expect(await problemsOf(org)).toEqual([]);
  });

  it('records a retried settle once', async () => {
    const org = await fundedWallet(h, '10');
    const requestLogId = randomUUID();
    const reservation = await reserve(h.ctx, org, usd('2'), { requestId: randomUUID() });
    const [a, b, c] = await Promise.all([
      settle(h.ctx, reservation.id, usd('1'), { requestLogId }),
      settle(h.ctx, reservation.id, usd('1'), { requestLogId }),
      settle(h.ctx, reservation.id, usd('1'), { requestLogId }),
    ]);
    expect(new Set([a.record?.id, b.record?.id, c.record?.id]).size).toBe(1);
    expect([a, b, c].filter((s) => !s.replayed)).toHaveLength(1);
    // the same request settled through a second reservation is charged nothing more, and its money comes back
    const second = await reserve(h.ctx, org, usd('2'), { requestId: randomUUID() });
    const replay = await settle(h.ctx, second.id, usd('1'), { requestLogId });
    expect(replay).toMatchObject({ replayed: true, charged: 0n });
    expect(await getWallet(h.ctx.db, org)).toMatchObject({ balance: usd('9'), frozenAmount: 0n });
    expect((await listRecords(h.ctx.db, org, { page: 1, size: 10, type: 'Consume' })).total).toBe(1);
  });

  it('returns the same reservation for a repeated reserve of one request', async () => {
    const org = await fundedWallet(h, '5');
    const requestId = randomUUID();
    const a = await reserve(h.ctx, org, usd('1'), { requestId });
    const b = await reserve(h.ctx, org, usd('1'), { requestId });
    expect(b.id).toBe(a.id);
    expect((await getWallet(h.ctx.db, org)).frozenAmount).toBe(usd('1'));
  });

  it('releases a failed request without a record and expires a forgotten reservation', async () => {
    const org = await fundedWallet(h, '4');
    const failed = await reserve(h.ctx, org, usd('1'), { requestId: randomUUID() });
    expect(await release(h.ctx, failed.id)).toEqual({ released: true, status: 'released' });
    expect(await release(h.ctx, failed.id)).toEqual({ released: false, status: 'released' });
    await expect(settle(h.ctx, failed.id, usd('1'), { requestLogId: randomUUID() })).rejects.toMatchObject({
      code: 'Wallet.ReservationClosed',
      status: 409,
    });

    const forgotten = await reserve(h.ctx, org, usd('2'), { requestId: randomUUID(), expiresInMs: 1 });
    await new Promise((r) => setTimeout(r, 20));
    expect(await expireReservations(h.ctx)).toBeGreaterThanOrEqual(1);
    const [row] = await h.ctx.db.select().from(walletReservations).where(eq(walletReservations.id, forgotten.id));
    expect(row?.status).toBe('expired');
    expect(await getWallet(h.ctx.db, org)).toMatchObject({ balance: usd('4'), frozenAmount: 0n });
    expect((await listRecords(h.ctx.db, org, { page: 1, size: 10 })).total).toBe(1);
    expect(await problemsOf(org)).toEqual([]);
  });

  it('takes an actual cost above the reservation from the available balance, never below zero', async () => {
    const org = await fundedWallet(h, '3');
    const reservation = await reserve(h.ctx, org, usd('1'), { requestId: randomUUID() });
    const over = await settle(h.ctx, reservation.id, usd('1.5'), { requestLogId: randomUUID() });
    expect(over).toMatchObject({ charged: usd('1.5'), uncollected: 0n });

    const last = await reserve(h.ctx, org, usd('1'), { requestId: randomUUID() });
    const capped = await settle(h.ctx, last.id, usd('5'), { requestLogId: randomUUID() });
    expect(capped).toMatchObject({ charged: usd('1.5'), uncollected: usd('3.5') });
    expect(await getWallet(h.ctx.db, org)).toMatchObject({ balance: 0n, frozenAmount: 0n });
    expect(await problemsOf(org)).toEqual([]);
  });

  it('refuses new paid requests with 402 Wallet.InsufficientBalance at zero or below the amount', async () => {
    const empty = await fundedWallet(h);
    await expect(reserve(h.ctx, empty, 1n, { requestId: randomUUID() })).rejects.toMatchObject({
      code: 'Wallet.InsufficientBalance',
      status: 402,
    });
    const poor = await fundedWallet(h, '1');
    await expect(reserve(h.ctx, poor, usd('1.000001'), { requestId: randomUUID() })).rejects.toMatchObject({
      status: 402,
    });
    await expect(consume(h.ctx, poor, usd('2'), { requestLogId: randomUUID() })).rejects.toMatchObject({ status: 402 });
    await expect(reserve(h.ctx, randomUUID(), 1n, { requestId: randomUUID() })).rejects.toMatchObject({
      code: 'Wallet.NotFound',
    });
    await h.ctx.db
      .update(organizationWallets)
      .set({ isActive: false })
      .where(eq(organizationWallets.organizationId, poor));
    await expect(reserve(h.ctx, poor, 1n, { requestId: randomUUID() })).rejects.toMatchObject({
      code: 'Wallet.Inactive',
    });
  });

  it('never overdraws under 1,000 concurrent reserve+settle calls and reconciles exactly', async () => {
    const org = await fundedWallet(h, '25');
    // 1,000 calls wait for 20 connections: a pool that lets a call wait longer than the default 5 s
    const pool = new pg.Pool({ connectionString: h.config.DATABASE_URL, max: 20, connectionTimeoutMillis: 60_000 });
    const ctx = { ...h.ctx, db: drizzle(pool, { schema }) };
    const outcomes = await Promise.all(
      Array.from({ length: 1000 }, async (_, i) => {
        try {
          const r = await reserve(ctx, org, usd('0.1'), { requestId: `c-${org}-${i}` });
          const actual = i % 2 === 0 ? usd('0.05') : usd('0.1');
          await settle(ctx, r.id, actual, { requestLogId: `log-${org}-${i}` });
          return actual;
        } catch (err) {
          if ((err as { code?: string }).code === 'Wallet.InsufficientBalance') return 0n;
          throw err;
        }
      }),
    ).finally(() => pool.end());
    const charged = outcomes.reduce((a, b) => a + b, 0n);
    const wallet = await getWallet(h.ctx.db, org);
    expect(wallet.balance).toBeGreaterThanOrEqual(0n);
    expect(wallet.frozenAmount).toBe(0n);
    expect(wallet.balance).toBe(usd('25') - charged);
    expect(outcomes.filter((o) => o === 0n).length).toBeGreaterThan(0);
    expect(outcomes.filter((o) => o > 0n).length).toBeGreaterThanOrEqual(250);
    const consumed = await listRecords(h.ctx.db, org, { page: 1, size: 1, type: 'Consume' });
    expect(consumed.total).toBe(outcomes.filter((o) => o > 0n).length);
    expect(await problemsOf(org)).toEqual([]);
  }, 120_000);

  it('consumes fixed-price requests once per request log id, concurrently, never overdrawing', async () => {
    const org = await fundedWallet(h, '0.01');
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) => consume(h.ctx, org, usd('0.001'), { requestLogId: `web-${org}-${i % 15}` })),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    expect(
      results.filter((r) => r.status === 'rejected').every((r) => (r.reason as { status: number }).status === 402),
    ).toBe(true);
    expect((await listRecords(h.ctx.db, org, { page: 1, size: 50, type: 'Consume' })).total).toBe(10);
    expect(ok.length).toBeGreaterThanOrEqual(10);
    expect(await getWallet(h.ctx.db, org)).toMatchObject({ balance: 0n });
    expect(await problemsOf(org)).toEqual([]);
  });

  it('refunds a Consume once and never more than it', async () => {
    const admin = await createUser(h, { roles: ['Admin'] });
    const org = await fundedWallet(h, '5');
    const { record } = await consume(h.ctx, org, usd('2'), { requestLogId: randomUUID() });
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
    expect(await problemsOf(org)).toEqual([]);
  });
});
