// Reserve-then-settle for the gateway: a paid request first moves its most possible cost from `balance` to
// `frozenAmount` (one conditional UPDATE), then settles its real cost as ONE Consume record, or is released.
import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import type { DbExecutor } from '../db/client.js';
import { type WalletReservationStatus, walletReservations } from '../db/schema/index.js';
import { conflict, notFound } from '../errors/app-error.js';
import { alertThresholds, enqueueAlerts, raiseCrossingAlerts } from './balance-alerts.js';
import { appendRecord, recordById, recordByIdempotencyKey, type WalletRecord } from './ledger.js';
import { isUniqueViolation } from './postgres-errors.js';
import { debitRefusal, lockWallet, settledBalance, writeBalances } from './wallets.js';

export type Reservation = {
  id: string;
  organizationId: string;
  requestId: string;
  amount: bigint;
  status: WalletReservationStatus;
  expiresAt: Date;
};

/** How long a reservation lives when the caller names no expiry; a forgotten one is released by the sweep after it. */
export const DEFAULT_RESERVATION_MS = 15 * 60_000;

type Ctx = Pick<AppContext, 'db' | 'queues' | 'logger'>;
type Row = Record<string, unknown>;

const reservationNotFound = () => notFound('Wallet.ReservationNotFound', 'No such wallet reservation.');

function toReservation(row: Row): Reservation {
  return {
    id: String(row.id),
    organizationId: String(row.organization_id),
    requestId: String(row.request_id),
    amount: BigInt(row.amount as string),
    status: row.status as WalletReservationStatus,
    expiresAt: new Date(row.expires_at as string | Date),
  };
}

/**
 * Moves `maxAmountMicros` from the available balance to `frozenAmount` in ONE statement: the conditional UPDATE
 * of the wallet and the reservation's INSERT succeed or fail together. Refuses with 402 Wallet.InsufficientBalance
 * when the available balance is at or below zero or below the amount (a reservation is always fully covered,
 * so settling never overdraws). A repeated call with the same `requestId` returns the same reservation.
 */
export async function reserve(
  ctx: Pick<AppContext, 'db'>,
  organizationId: string,
  maxAmountMicros: bigint,
  options: { requestId: string; expiresInMs?: number },
): Promise<Reservation> {
  if (maxAmountMicros <= 0n) throw new RangeError('a reservation must be positive');
  const expiresInMs = Math.max(1, Math.round(options.expiresInMs ?? DEFAULT_RESERVATION_MS));
  let rows: Row[];
  try {
    ({ rows } = await ctx.db.execute<Row>(sql`
      with debited as (
        update organization_wallets
           set balance = balance - ${maxAmountMicros}, frozen_amount = frozen_amount + ${maxAmountMicros}, updated_at = now()
         where organization_id = ${organizationId} and is_active and balance > 0 and balance >= ${maxAmountMicros}
        returning organization_id
      )
      insert into wallet_reservations (organization_id, request_id, amount, expires_at)
      select organization_id, ${options.requestId}, ${maxAmountMicros}, now() + ${expiresInMs} * interval '1 millisecond'
        from debited
      returning id, organization_id, request_id, amount, status, expires_at`));
  } catch (err) {
    if (!isUniqueViolation(err, 'wallet_reservations_request_key')) throw err;
    return existingReservation(ctx.db, organizationId, options.requestId);
  }
  const [row] = rows;
  if (row) return toReservation(row);
  // A repeat of a reserved request finds the balance already lowered by its first call: answer that reservation.
  const [earlier] = await ctx.db
    .select({ id: walletReservations.id })
    .from(walletReservations)
    .where(eq(walletReservations.requestId, options.requestId));
  if (earlier) return existingReservation(ctx.db, organizationId, options.requestId);
  throw await debitRefusal(ctx.db, organizationId);
}

async function existingReservation(db: DbExecutor, organizationId: string, requestId: string) {
  const [row] = await db.select().from(walletReservations).where(eq(walletReservations.requestId, requestId));
  if (!row || row.organizationId !== organizationId || row.status !== 'held') {
    throw conflict('Wallet.ReservationExists', `Request ${requestId} already has a closed or foreign reservation.`);
  }
  return row satisfies Reservation;
}

export type Settlement = {
  reservationId: string;
  organizationId: string;
  /** The Consume record (null when nothing was charged). */
  record: WalletRecord | null;
  charged: bigint;
  /** The part of the actual cost the wallet could not cover (never taken: the balance never goes below zero). */
  uncollected: bigint;
  /** True when this call found the settlement already done and changed nothing. */
  replayed: boolean;
};

/**
 * Settles a reservation with the request's real cost: ONE Consume record of the cost, the rest back to `balance`.
 * Idempotent: settling a settled reservation, or settling any reservation of a request (`requestLogId`) that
 * already has its Consume record, returns that record and charges nothing more. When the actual cost exceeds the
 * reservation the difference is taken from the available balance as far as it goes, never below zero; what it
 * cannot cover is reported as `uncollected`. An expired reservation's money is already back, so its settlement
 * charges the available balance the same way. A released reservation cannot be settled (409).
 */
export async function settle(
  ctx: Ctx,
  reservationId: string,
  actualMicros: bigint,
  options: { requestLogId: string; description?: string },
): Promise<Settlement> {
  if (actualMicros < 0n) throw new RangeError('an actual cost cannot be negative');
  try {
    return await settleOnce(ctx, reservationId, actualMicros, options);
  } catch (err) {
    // Another reservation of the same request was settled concurrently: this time the check finds its record.
    if (!isUniqueViolation(err, 'wallet_records_idempotency_key')) throw err;
    return settleOnce(ctx, reservationId, actualMicros, options);
  }
}

async function settleOnce(
  ctx: Ctx,
  reservationId: string,
  actualMicros: bigint,
  options: { requestLogId: string; description?: string },
): Promise<Settlement> {
  const { settlement, alertIds } = await ctx.db.transaction(
    async (tx): Promise<{ settlement: Settlement; alertIds: string[] }> => {
      const [reservation] = await tx
        .select()
        .from(walletReservations)
        .where(eq(walletReservations.id, reservationId))
        .for('update');
      if (!reservation) throw reservationNotFound();
      const base = { reservationId, organizationId: reservation.organizationId, uncollected: 0n };
      if (reservation.status === 'settled') {
        const record = reservation.recordId ? ((await recordById(tx, reservation.recordId)) ?? null) : null;
        return {
          settlement: { ...base, record, charged: reservation.chargedAmount ?? 0n, replayed: true },
          alertIds: [],
        };
      }
      if (reservation.status === 'released') {
        throw conflict('Wallet.ReservationClosed', 'This reservation was released; it cannot be settled.');
      }
      // Read before the wallet row is locked, to keep the lock short; a Consume of the same request committed
      // after this read makes the insert below fail, and the retry then finds it here.
      const idempotencyKey = `consume:${options.requestLogId}`;
      const earlier = await recordByIdempotencyKey(tx, idempotencyKey);
      const thresholds = earlier ? [] : await alertThresholds(tx, reservation.organizationId);
      const wallet = await lockWallet(tx, reservation.organizationId);
      const held = reservation.status === 'held' ? reservation.amount : 0n;
      const returned = { balance: wallet.balance + held, frozenAmount: wallet.frozenAmount - held };
      if (earlier) {
        await writeBalances(tx, wallet, { ...returned, withRecord: false });
        await closeReservation(tx, reservationId, { charged: 0n, uncollected: 0n, recordId: earlier.id });
        return { settlement: { ...base, record: earlier, charged: 0n, replayed: true }, alertIds: [] };
      }

      const charged = actualMicros < returned.balance ? actualMicros : returned.balance;
      const uncollected = actualMicros - charged;
      let record: WalletRecord | null = null;
      let alertIds: string[] = [];
      if (charged > 0n) {
        const next = { balance: returned.balance - charged, frozenAmount: returned.frozenAmount };
        record = await appendRecord(tx, wallet, next, {
          type: 'Consume',
          amount: charged,
          idempotencyKey,
          requestLogId: options.requestLogId,
          description: options.description ?? null,
          reservationId,
        });
        alertIds = await raiseCrossingAlerts(tx, thresholds, {
          organizationId: wallet.organizationId,
          currency: wallet.currency,
          recordId: record.id,
          previous: settledBalance(wallet),
          current: settledBalance(next),
        });
      } else {
        await writeBalances(tx, wallet, { ...returned, withRecord: false });
      }
      await closeReservation(tx, reservationId, { charged, uncollected, recordId: record?.id ?? null });
      return { settlement: { ...base, record, charged, uncollected, replayed: false }, alertIds };
    },
  );
  if (settlement.uncollected > 0n) {
    ctx.logger.warn(
      { reservationId, organizationId: settlement.organizationId, uncollected: String(settlement.uncollected) },
      'actual cost exceeded what the wallet could cover; the rest is uncollected',
    );
  }
  if (alertIds.length > 0) await enqueueAlerts(ctx, alertIds);
  return settlement;
}

async function closeReservation(
  tx: DbExecutor,
  id: string,
  outcome: { charged: bigint; uncollected: bigint; recordId: string | null },
) {
  await tx
    .update(walletReservations)
    .set({
      status: 'settled',
      chargedAmount: outcome.charged,
      uncollectedAmount: outcome.uncollected,
      recordId: outcome.recordId,
      closedAt: sql`now()`,
    })
    .where(eq(walletReservations.id, id));
}

/**
 * Releases a held reservation (the request failed, was cancelled or abandoned): the money goes back to `balance`
 * and no record is written. Releasing a reservation that is no longer held changes nothing.
 */
export async function release(
  ctx: Pick<AppContext, 'db'>,
  reservationId: string,
): Promise<{ released: boolean; status: WalletReservationStatus }> {
  const { rows } = await ctx.db.execute<Row>(sql`
    with released as (
      update wallet_reservations set status = 'released', closed_at = now()
       where id = ${reservationId} and status = 'held'
      returning organization_id, amount
    )
    update organization_wallets w
       set balance = w.balance + r.amount, frozen_amount = w.frozen_amount - r.amount, updated_at = now()
      from released r
     where w.organization_id = r.organization_id
    returning w.organization_id`);
  if (rows.length > 0) return { released: true, status: 'released' };
  const [reservation] = await ctx.db
    .select({ status: walletReservations.status })
    .from(walletReservations)
    .where(eq(walletReservations.id, reservationId));
  if (!reservation) throw reservationNotFound();
  return { released: false, status: reservation.status };
}

/** Maintenance: held reservations past their expiry are released (status `expired`), at most `limit` per call. */
export async function expireReservations(ctx: Pick<AppContext, 'db'>, limit = 1000): Promise<number> {
  const { rows } = await ctx.db.execute<Row>(sql`
    with due as (
      select id from wallet_reservations
       where status = 'held' and expires_at <= now()
       order by expires_at
       limit ${limit}
       for update skip locked
    ), expired as (
      update wallet_reservations r set status = 'expired', closed_at = now()
        from due where r.id = due.id
      returning r.organization_id, r.amount
    ), totals as (
      select organization_id, sum(amount) as amount, count(*) as n from expired group by organization_id
    )
    update organization_wallets w
       set balance = w.balance + t.amount, frozen_amount = w.frozen_amount - t.amount, updated_at = now()
      from totals t
     where w.organization_id = t.organization_id
    returning t.n`);
  return rows.reduce((sum, row) => sum + Number(row.n), 0);
}
