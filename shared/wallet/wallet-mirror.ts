// The Redis mirror of each organization's wallet (docs/wallet.md): loaded from PostgreSQL when missing, brought to
// PostgreSQL's committed state after changes from elsewhere, and read by the wallet routes in real time.
import { eq } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import type { DbExecutor } from '../db/client.js';
import { organizationWallets } from '../db/schema/index.js';
import { type MirrorState, mirrorKeys, syncStep, type WalletState } from './mirror-steps.js';
import { walletNotFound } from './wallets.js';

type Ctx = Pick<AppContext, 'db' | 'redis' | 'config'>;

/** The wallet's balance, record sequence and state in PostgreSQL (one row: one snapshot). */
export async function walletState(db: DbExecutor, organizationId: string): Promise<WalletState | undefined> {
  const [row] = await db
    .select({
      balance: organizationWallets.balance,
      seq: organizationWallets.recordSeq,
      active: organizationWallets.isActive,
    })
    .from(organizationWallets)
    .where(eq(organizationWallets.organizationId, organizationId));
  return row;
}

/**
 * Creates the mirror from PostgreSQL when it is missing, or moves it forward when PostgreSQL is newer. Safe under
 * concurrency: the step creates the mirror only if it is still missing, and takes a state only if its sequence is
 * higher, so a slow load never overwrites what an admission or a newer change did meanwhile.
 */
export async function loadMirror(ctx: Ctx, organizationId: string): Promise<MirrorState> {
  const state = await walletState(ctx.db, organizationId);
  if (!state) throw walletNotFound();
  return syncStep(ctx.redis, ctx.config.REDIS_PREFIX, organizationId, state);
}

/**
 * Whether the wallet can pay for anything at all: active, and its balance less the charges still on their way above
 * zero. Read from the mirror (one Redis read; loaded from PostgreSQL when missing, as the admission would). Holds are
 * left out on purpose: one past its expiry may still count until it is released, and a request refused here must
 * be one the admission would refuse too.
 */
export async function walletCanPay(ctx: Ctx, organizationId: string): Promise<'yes' | 'inactive' | 'empty'> {
  const [base, pend, act] = await ctx.redis.hmget(
    mirrorKeys(ctx.config.REDIS_PREFIX, organizationId).w,
    'base',
    'pend',
    'act',
  );
  const state = base
    ? { base: BigInt(base), pending: BigInt(pend ?? '0'), active: act === '1' }
    : await loadMirror(ctx, organizationId);
  if (!state.active) return 'inactive';
  return state.base - state.pending > 0n ? 'yes' : 'empty';
}

/** After a change committed: a failure is logged, not thrown (the change is done; the next sync catches up). */
export async function syncMirrorAfterCommit(
  ctx: Ctx & Pick<AppContext, 'logger'>,
  organizationId: string,
  state: WalletState,
): Promise<void> {
  try {
    await syncStep(ctx.redis, ctx.config.REDIS_PREFIX, organizationId, state);
  } catch (err) {
    ctx.logger.warn({ organizationId, err: (err as Error).message }, 'wallet mirror not synced; the sweep will');
  }
}

export type LiveWallet = {
  organizationId: string;
  /** Available: what new requests may hold. */
  balance: bigint;
  /** Held by requests in flight. */
  frozenAmount: bigint;
  currency: string;
  isActive: boolean;
};

/**
 * The wallet as the routes show it: available and frozen from the mirror (synced from PostgreSQL first, so a missed
 * sync never shows less than PostgreSQL holds). Consumptions on their way to PostgreSQL are already deducted.
 */
export async function liveWallet(ctx: Ctx, organizationId: string): Promise<LiveWallet> {
  const [row] = await ctx.db
    .select()
    .from(organizationWallets)
    .where(eq(organizationWallets.organizationId, organizationId));
  if (!row) throw walletNotFound();
  const mirror = await syncStep(ctx.redis, ctx.config.REDIS_PREFIX, organizationId, {
    balance: row.balance,
    seq: row.recordSeq,
    active: row.isActive,
  });
  return {
    organizationId,
    balance: mirror.base - mirror.pending - mirror.frozen,
    frozenAmount: mirror.frozen,
    currency: row.currency,
    isActive: row.isActive,
  };
}
