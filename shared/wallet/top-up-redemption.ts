// Redeeming a top-up code: the code is spent and the wallet credited in ONE transaction, so a code is spent exactly
// once however many requests race for it, and its Recharge record names the code's id (never the code).
import { and, eq, gt, isNull } from 'drizzle-orm';
import { type AuditActor, recordAudit } from '../audit/audit-log.js';
import type { AppContext } from '../context.js';
import { walletRecords, walletTopUpCodes } from '../db/schema/index.js';
import { AppError, conflict } from '../errors/app-error.js';
import { findRehashing } from '../identity/secret-rotation.js';
import { appendRecord, type WalletRecord } from './ledger.js';
import { formatMicros } from './money.js';
import {
  canonicalTopUpCode,
  hashTopUpCode,
  statusOf,
  type TopUpCode,
  topUpCodeHashUnder,
  topUpCodeNotFound,
} from './top-up-codes.js';
import { changeWallet } from './wallet-changes.js';
import { lockWallet } from './wallets.js';

export type Redemption = { record: WalletRecord; code: TopUpCode; replayed: boolean };

/**
 * Spends `code` into the organization's wallet. The conditional UPDATE takes the code's row lock: of N concurrent
 * redemptions one updates it, and the others, once it commits, see it redeemed and update nothing. The same
 * organization redeeming a code it already redeemed gets that redemption back (`replayed`); another organization
 * gets 409 TopUpCode.Redeemed; an expired or revoked code is 410; an unknown one 404. During a SECRET_KEY rotation a
 * code that spends nothing under SECRET_KEY's hash is moved from the previous key's hash in the same transaction, and
 * spent again (secret-rotation.ts): a code issued before the rotation is answered like any other.
 */
export async function redeemTopUpCode(
  ctx: Pick<AppContext, 'db' | 'redis' | 'config' | 'logger'>,
  input: { organizationId: string; accountId: string; code: string; audit?: AuditActor },
): Promise<Redemption> {
  const canonical = canonicalTopUpCode(input.code);
  if (!canonical) throw topUpCodeNotFound();
  const codeHash = hashTopUpCode(ctx.config, canonical);
  const spent = await changeWallet(ctx, input.organizationId, async (tx) => {
    const spend = () =>
      tx
        .update(walletTopUpCodes)
        .set({ redeemedAt: new Date(), redeemedBy: input.accountId, organizationId: input.organizationId })
        .where(
          and(
            eq(walletTopUpCodes.codeHash, codeHash),
            isNull(walletTopUpCodes.redeemedAt),
            isNull(walletTopUpCodes.revokedAt),
            gt(walletTopUpCodes.expiresAt, new Date()),
          ),
        )
        .returning()
        .then(([row]) => row);
    // The move keeps the code's row locked until this transaction ends: a concurrent redemption waits, then spends
    // nothing and answers from the code as this one left it.
    const code = await findRehashing(
      ctx.config,
      (secret) => topUpCodeHashUnder(secret, canonical),
      spend,
      (previous) => tx.update(walletTopUpCodes).set({ codeHash }).where(eq(walletTopUpCodes.codeHash, previous)),
    );
    if (!code) return undefined;
    // Lock order: the code's row, then the wallet's (the only transaction holding both).
    const wallet = await lockWallet(tx, input.organizationId);
    const record = await appendRecord(tx, wallet, {
      type: 'Recharge',
      amount: code.amount,
      idempotencyKey: `top-up:${code.id}`,
      topUpCodeId: code.id,
      description: code.description ?? 'Top-up code',
      createdBy: input.accountId,
    });
    if (input.audit) {
      await recordAudit(tx, input.audit, {
        action: 'wallet.redeem',
        organizationId: input.organizationId,
        target: { type: 'top_up_code', id: code.id },
        before: { balance: formatMicros(record.previousBalance) },
        after: {
          balance: formatMicros(record.currentBalance),
          amount: formatMicros(record.amount),
          recordId: record.id,
        },
      });
    }
    return { record, code };
  });
  if (spent) return { ...spent, replayed: false };
  return earlierRedemption(ctx, codeHash, input.organizationId);
}

/** Why a code could not be spent: an earlier redemption by this organization is answered again. */
async function earlierRedemption(
  ctx: Pick<AppContext, 'db'>,
  codeHash: string,
  organizationId: string,
): Promise<Redemption> {
  const [row] = await ctx.db
    .select({ code: walletTopUpCodes, record: walletRecords })
    .from(walletTopUpCodes)
    .leftJoin(walletRecords, eq(walletRecords.topUpCodeId, walletTopUpCodes.id))
    .where(eq(walletTopUpCodes.codeHash, codeHash));
  if (!row) throw topUpCodeNotFound();
  const { code, record } = row;
  switch (statusOf(code)) {
    case 'redeemed':
      if (record && record.organizationId === organizationId) return { record, code, replayed: true };
      throw conflict('TopUpCode.Redeemed', 'This top-up code has already been redeemed.');
    case 'revoked':
      throw new AppError('TopUpCode.Revoked', 410, 'This top-up code was revoked.');
    default:
      throw new AppError('TopUpCode.Expired', 410, 'This top-up code has expired.');
  }
}
