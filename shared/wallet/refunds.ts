// Refunds (SPEC section 4): a platform Admin reverses all or part of a settled Consume record, once.
import { eq } from 'drizzle-orm';
import { type AuditActor, recordAudit } from '../audit/audit-log.js';
import type { AppContext } from '../context.js';
import type { DbExecutor } from '../db/client.js';
import { isUniqueViolation } from '../db/postgres-errors.js';
import { walletRecords } from '../db/schema/index.js';
import { badRequest, conflict, notFound } from '../errors/app-error.js';
import { appendRecord, recordById, type WalletRecord, walletAuditEntry } from './ledger.js';
import { formatMicros } from './money.js';
import { takeRefundFromUsage } from './refund-usage.js';
import { changeWallet } from './wallet-changes.js';
import { lockWallet } from './wallets.js';

export type RefundInput = {
  amount?: bigint;
  reason: string;
  createdBy: string;
  /** When given, the record must belong to this organization (else 404, as for a missing record). */
  organizationId?: string | undefined;
  /** Who refunded, for the audit log row written in the refund's transaction (a replay writes none). */
  audit?: AuditActor;
};

const recordNotFound = () => notFound('Wallet.RecordNotFound', 'No such wallet record.');

/**
 * Writes a Refund record of `amount` (default: the whole consumption) and adds it to the available balance.
 * A Consume record is refunded at most once and never by more than it charged. Repeating the same refund
 * returns it unchanged; a different second refund is 409 Wallet.AlreadyRefunded.
 */
export async function refund(
  ctx: Pick<AppContext, 'db' | 'redis' | 'config' | 'logger'>,
  recordId: string,
  input: RefundInput,
): Promise<{ record: WalletRecord; replayed: boolean }> {
  const consumed = await recordById(ctx.db, recordId);
  if (!consumed || (input.organizationId !== undefined && consumed.organizationId !== input.organizationId)) {
    throw recordNotFound();
  }
  if (consumed.type !== 'Consume') {
    throw badRequest('Wallet.NotRefundable', `A ${consumed.type} record cannot be refunded; only Consume records can.`);
  }
  const amount = input.amount ?? consumed.amount;
  if (amount > consumed.amount) {
    throw badRequest(
      'Wallet.RefundTooLarge',
      `amount: a refund cannot exceed the consumption of ${formatMicros(consumed.amount)}.`,
    );
  }
  const previous = await refundOf(ctx.db, recordId);
  if (previous) return replayOrConflict(previous, amount, input.reason);
  try {
    const record = await changeWallet(ctx, consumed.organizationId, async (tx) => {
      const wallet = await lockWallet(tx, consumed.organizationId);
      const refunded = await appendRecord(tx, wallet, {
        type: 'Refund',
        amount,
        idempotencyKey: `refund:${recordId}`,
        refundOf: recordId,
        description: input.reason,
        requestLogId: consumed.requestLogId,
        createdBy: input.createdBy,
      });
      await takeRefundFromUsage(tx, consumed.requestLogId, amount);
      if (input.audit) await recordAudit(tx, input.audit, walletAuditEntry('wallet.refund', refunded));
      return refunded;
    });
    return { record, replayed: false };
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const winner = await refundOf(ctx.db, recordId);
    if (!winner) throw err;
    return replayOrConflict(winner, amount, input.reason);
  }
}

function replayOrConflict(previous: WalletRecord, amount: bigint, reason: string) {
  if (previous.amount === amount && previous.description === reason) return { record: previous, replayed: true };
  throw conflict('Wallet.AlreadyRefunded', 'This consumption has already been refunded.', {
    details: { refundId: previous.id },
  });
}

async function refundOf(db: DbExecutor, consumeId: string): Promise<WalletRecord | undefined> {
  const [record] = await db.select().from(walletRecords).where(eq(walletRecords.refundOf, consumeId));
  return record;
}
