// Spending from a wallet the way the gateway does: admitted and settled in the Redis mirror (openCharge,
// closeCharge), then written to PostgreSQL by the ledger writer, here run in the test's process.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../shared/context.js';
import { walletRecords } from '../../shared/db/schema/index.js';
import { type Charge, closeCharge, openCharge } from '../../shared/gateway/accounting.js';
import type { GatewayCaller } from '../../shared/gateway/gateway-caller.js';
import type { WalletRecord } from '../../shared/wallet/ledger.js';
import { writeLedger } from '../../shared/wallet/ledger-writer.js';
import { reconcileMirrors, reconcileWallets } from '../../shared/wallet/reconciliation.js';
import { liveWallet } from '../../shared/wallet/wallet-mirror.js';

/** A caller of the organization through a project of its own (no quota configured: counted, not limited). */
export const callerOf = (organizationId: string, projectId: string = randomUUID()): GatewayCaller => ({
  accountId: randomUUID(),
  projectId,
  organizationId,
});

/**
 * Holds `held`, then settles at `cost` (default: what was held), for `caller` (default: a project of its own, no key);
 * nothing is written to PostgreSQL yet.
 */
export async function charge(
  ctx: AppContext,
  organizationId: string,
  held: bigint,
  options: { cost?: bigint; operation?: string; expiresInMs?: number; caller?: GatewayCaller } = {},
): Promise<Charge> {
  const opened = await openCharge(ctx, options.caller ?? callerOf(organizationId), {
    operation: options.operation ?? 'messages',
    reserveMicros: held,
    ...(options.expiresInMs ? { reservationExpiresInMs: options.expiresInMs } : {}),
  });
  const cost = options.cost ?? held;
  await closeCharge(ctx, opened, { status: cost > 0n ? 'succeeded' : 'failed', httpStatus: 200, costMicros: cost });
  return opened;
}

/** A paid request of `amount` written through to PostgreSQL: its Consume record (what `consume` used to be). */
export async function spend(
  ctx: AppContext,
  organizationId: string,
  amount: bigint,
  options: { operation?: string; caller?: GatewayCaller } = {},
): Promise<{ record: WalletRecord }> {
  const done = await charge(ctx, organizationId, amount, options);
  await writeLedger(ctx, organizationId);
  const [record] = await ctx.db.select().from(walletRecords).where(eq(walletRecords.requestLogId, done.requestLogId));
  if (!record) throw new Error(`no Consume record for ${amount} (refused or uncollected)`);
  return { record };
}

/** What the wallet route shows: available and frozen, from the mirror. */
export const live = (ctx: AppContext, organizationId: string) => liveWallet(ctx, organizationId);

/** Every difference `npm run wallet:check` would print for the organization (PostgreSQL and mirror). */
export async function walletProblems(ctx: AppContext, organizationId: string) {
  const [pg, mirror] = [await reconcileWallets(ctx.db), await reconcileMirrors(ctx)];
  return [...pg.problems, ...mirror.problems].filter((p) => p.organizationId === organizationId);
}
