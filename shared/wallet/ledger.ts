// The record ledger: every settled change writes ONE record, chained from the previous one, in the transaction
// that changes the balance (the wallet row is locked); recharges; record listing.
import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, gte, lt, lte } from 'drizzle-orm';
import { type AuditActor, type AuditEntry, recordAudit } from '../audit/audit-log.js';
import type { AppContext } from '../context.js';
import type { DbExecutor } from '../db/client.js';
import { isUniqueViolation } from '../db/postgres-errors.js';
import { organizationWallets, type WalletRecordType, walletRecords } from '../db/schema/index.js';
import { keyReused, requestFingerprint, withIdempotencyClaim } from '../idempotency/idempotency-claims.js';
import { formatMicros } from './money.js';
import { changeWallet } from './wallet-changes.js';
import { lockWallet, type Wallet, writeBalance } from './wallets.js';

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
  topUpCodeId?: string | null;
  createdBy?: string | null;
};

/** Writes a locked wallet's new balance and the record of the change, chained after the wallet's last record. */
export async function appendRecord(tx: DbExecutor, wallet: Wallet, input: RecordInput): Promise<WalletRecord> {
  const previousBalance = wallet.balance;
  const currentBalance = previousBalance + signedAmount(input.type, input.amount);
  const seq = wallet.recordSeq + 1;
  await writeBalance(tx, wallet.organizationId, currentBalance, seq);
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
      topUpCodeId: input.topUpCodeId ?? null,
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

export type RechargeInput = {
  amount: bigint;
  description?: string;
  idempotencyKey?: string;
  createdBy?: string;
  /** Who recharged, for the audit log row written in the recharge's transaction (a replay writes none). */
  audit?: AuditActor;
};

/**
 * Adds money to the available balance. With an idempotency key (the `Idempotency-Key` header), a repeated
 * request returns the first recharge's record and changes nothing; a repeat with another amount or description
 * is 422 Idempotency.KeyReused.
 */
export async function recharge(
  ctx: Pick<AppContext, 'db' | 'redis' | 'config' | 'logger'>,
  organizationId: string,
  input: RechargeInput,
): Promise<{ record: WalletRecord; replayed: boolean }> {
  if (input.amount <= 0n) throw new RangeError('a recharge must be positive');
  const key = input.idempotencyKey
    ? `recharge:${organizationId}:${input.idempotencyKey}`
    : `recharge:${organizationId}:${randomUUID()}`;
  try {
    const record = await changeWallet(ctx, organizationId, async (tx) => {
      const wallet = await lockWallet(tx, organizationId);
      const recharged = await appendRecord(tx, wallet, {
        type: 'Recharge',
        amount: input.amount,
        idempotencyKey: key,
        description: input.description ?? null,
        createdBy: input.createdBy ?? null,
      });
      if (input.audit) await recordAudit(tx, input.audit, walletAuditEntry('wallet.recharge', recharged));
      return recharged;
    });
    return { record, replayed: false };
  } catch (err) {
    if (!isUniqueViolation(err, 'wallet_records_idempotency_key')) throw err;
    const existing = await recordByIdempotencyKey(ctx.db, key);
    if (!existing) throw err;
    if (existing.amount !== input.amount || existing.description !== (input.description ?? null)) throw keyReused();
    return { record: existing, replayed: true };
  }
}

/**
 * The recharge route's: with an Idempotency-Key, the key is claimed while the recharge runs, so a concurrent request
 * with the same key gets 409 (422 with another body) instead of waiting for the first.
 */
export async function rechargeWithIdempotencyKey(
  ctx: Pick<AppContext, 'db' | 'redis' | 'config' | 'logger'>,
  organizationId: string,
  input: RechargeInput,
): Promise<{ record: WalletRecord; replayed: boolean }> {
  if (!input.idempotencyKey) return recharge(ctx, organizationId, input);
  const fingerprint = requestFingerprint({ amount: input.amount, description: input.description ?? null });
  return withIdempotencyClaim(
    ctx,
    { scope: `recharge:${organizationId}`, key: input.idempotencyKey, fingerprint },
    () => recharge(ctx, organizationId, input),
  );
}

/** The audit entry of a recharge or refund: the settled balance before and after, and the record written. */
export function walletAuditEntry(action: 'wallet.recharge' | 'wallet.refund', record: WalletRecord): AuditEntry {
  return {
    action,
    organizationId: record.organizationId,
    target:
      action === 'wallet.refund'
        ? { type: 'wallet_record', id: record.refundOf ?? record.id }
        : { type: 'wallet', id: record.organizationId },
    before: { balance: formatMicros(record.previousBalance) },
    after: {
      balance: formatMicros(record.currentBalance),
      amount: formatMicros(record.amount),
      recordId: record.id,
      ...(record.description ? { description: record.description } : {}),
    },
  };
}
/** Records written at or after `from` and before `to`. */
export type RecordPeriod = { from?: Date | undefined; to?: Date | undefined };

export const recordFilter = (organizationId: string, options: { type?: WalletRecordType | undefined } & RecordPeriod) =>
  and(
    eq(walletRecords.organizationId, organizationId),
    options.type ? eq(walletRecords.type, options.type) : undefined,
    options.from ? gte(walletRecords.createdAt, options.from) : undefined,
    options.to ? lt(walletRecords.createdAt, options.to) : undefined,
  );

export type RecordPage = { records: WalletRecord[]; total: number; page: number; size: number };

/**
 * An organization's records numbered 1 to the wallet's record sequence without a gap (each takes the next number
 * under the wallet lock; `npm run wallet:check` proves it), so an unfiltered page is a range of that sequence: its
 * cost is the page's size however long the ledger (one record per paid request), where counting and skipping would
 * read every record before the page on each call.
 */
async function listAllRecords(
  db: DbExecutor,
  organizationId: string,
  options: { page: number; size: number },
): Promise<RecordPage> {
  const [wallet] = await db
    .select({ recordSeq: organizationWallets.recordSeq })
    .from(organizationWallets)
    .where(eq(organizationWallets.organizationId, organizationId));
  const total = wallet?.recordSeq ?? 0;
  const newest = total - (options.page - 1) * options.size;
  const records =
    newest < 1
      ? []
      : await db
          .select()
          .from(walletRecords)
          .where(and(eq(walletRecords.organizationId, organizationId), lte(walletRecords.seq, newest)))
          .orderBy(desc(walletRecords.seq))
          .limit(options.size);
  return { records, total, page: options.page, size: options.size };
}

/** Newest first (by ledger order); `type` and the period filter (those count and skip the matching records). */
export async function listRecords(
  db: DbExecutor,
  organizationId: string,
  options: { page: number; size: number; type?: WalletRecordType | undefined } & RecordPeriod,
): Promise<RecordPage> {
  if (!options.type && !options.from && !options.to) return listAllRecords(db, organizationId, options);
  const where = recordFilter(organizationId, options);
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
