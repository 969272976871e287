// The record ledger: every settled change writes ONE record, chained from the previous one, in the transaction
// that changes the balance (the wallet row is locked); recharges; record listing.
import { randomUUID } from 'node:crypto';
import { and, count, desc, eq } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import type { DbExecutor } from '../db/client.js';
import { type WalletRecordType, walletRecords } from '../db/schema/index.js';
import { isUniqueViolation } from './postgres-errors.js';
import { lockWallet, settledBalance, type Wallet, writeBalances } from './wallets.js';

export type WalletRecord = typeof walletRecords.$inferSelect;

/** The signed effect of a record on the settled balance. */
export const signedAmount = (type: WalletRecordType, amount: bigint) => (type === 'Consume' ? -amount : amount);

export type RecordInput = {
  type: WalletRecordType;
  amount: bigint;
  idempotencyKey: string;
  description?: string | null;
  requestLogId?: string | null;
  refundOf?: string | null;
  reservationId?: string | null;
  createdBy?: string | null;
};

/**
 * Writes a locked wallet's new balances and the record of the change. `next` are the wallet's balances after the
 * change; the record's previous/current balances are the settled balances (balance + frozen) before and after.
 */
export async function appendRecord(
  tx: DbExecutor,
  wallet: Wallet,
  next: { balance: bigint; frozenAmount: bigint },
  input: RecordInput,
): Promise<WalletRecord> {
  const previousBalance = settledBalance(wallet);
  const currentBalance = settledBalance(next);
  if (currentBalance - previousBalance !== signedAmount(input.type, input.amount)) {
    throw new Error(`ledger: ${input.type} of ${input.amount} does not explain ${previousBalance} → ${currentBalance}`);
  }
  const seq = await writeBalances(tx, wallet, { ...next, withRecord: true });
  return insertRecord(tx, { organizationId: wallet.organizationId, seq, previousBalance, currentBalance, ...input });
}

/** Inserts a record whose sequence number the caller took with the wallet row locked. */
export async function insertRecord(
  tx: DbExecutor,
  input: RecordInput & { organizationId: string; seq: number; previousBalance: bigint; currentBalance: bigint },
): Promise<WalletRecord> {
  const [record] = await tx
    .insert(walletRecords)
    .values({
      organizationId: input.organizationId,
      seq: input.seq,
      type: input.type,
      amount: input.amount,
      previousBalance: input.previousBalance,
      currentBalance: input.currentBalance,
      description: input.description ?? null,
      requestLogId: input.requestLogId ?? null,
      refundOf: input.refundOf ?? null,
      reservationId: input.reservationId ?? null,
      idempotencyKey: input.idempotencyKey,
      createdBy: input.createdBy ?? null,
    })
    .returning();
  if (!record) throw new Error('wallet record insert returned nothing');
  return record;
}

export async function recordByIdempotencyKey(db: DbExecutor, key: string): Promise<WalletRecord | undefined> {
  const [record] = await db.select().from(walletRecords).where(eq(walletRecords.idempotencyKey, key));
  return record;
}

export async function recordById(db: DbExecutor, id: string): Promise<WalletRecord | undefined> {
  const [record] = await db.select().from(walletRecords).where(eq(walletRecords.id, id));
  return record;
}

export type RechargeInput = { amount: bigint; description?: string; idempotencyKey?: string; createdBy?: string };

/**
 * Adds money to the available balance. With an idempotency key (the `Idempotency-Key` header), a repeated
 * request returns the first recharge's record and changes nothing.
 */
export async function recharge(
  ctx: Pick<AppContext, 'db'>,
  organizationId: string,
  input: RechargeInput,
): Promise<{ record: WalletRecord; replayed: boolean }> {
  if (input.amount <= 0n) throw new RangeError('a recharge must be positive');
  const key = input.idempotencyKey
    ? `recharge:${organizationId}:${input.idempotencyKey}`
    : `recharge:${organizationId}:${randomUUID()}`;
  try {
    const record = await ctx.db.transaction(async (tx) => {
      const wallet = await lockWallet(tx, organizationId);
      return appendRecord(
        tx,
        wallet,
        { balance: wallet.balance + input.amount, frozenAmount: wallet.frozenAmount },
        {
          type: 'Recharge',
          amount: input.amount,
          idempotencyKey: key,
          description: input.description ?? null,
          createdBy: input.createdBy ?? null,
        },
      );
    });
    return { record, replayed: false };
  } catch (err) {
    if (!isUniqueViolation(err, 'wallet_records_idempotency_key')) throw err;
    const existing = await recordByIdempotencyKey(ctx.db, key);
    if (!existing) throw err;
    return { record: existing, replayed: true };
  }
}

export type RecordPage = { records: WalletRecord[]; total: number; page: number; size: number };

/** Newest first (by ledger order); `type` filters. */
export async function listRecords(
  db: DbExecutor,
  organizationId: string,
  options: { page: number; size: number; type?: WalletRecordType },
): Promise<RecordPage> {
  const where = and(
    eq(walletRecords.organizationId, organizationId),
    options.type ? eq(walletRecords.type, options.type) : undefined,
  );
  const [records, [totals]] = await Promise.all([
    db
      .select()
      .from(walletRecords)
      .where(where)
      .orderBy(desc(walletRecords.seq))
      .limit(options.size)
      .offset((options.page - 1) * options.size),
    db.select({ total: count() }).from(walletRecords).where(where),
  ]);
  return { records, total: totals?.total ?? 0, page: options.page, size: options.size };
}
