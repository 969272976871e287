// The one way money changes from outside the gateway (recharge, refund, top-up redemption): the change commits in
// PostgreSQL first, with its record and the wallet row locked, then the Redis mirror takes the committed state.
import type { AppContext } from '../context.js';
import type { DbExecutor } from '../db/client.js';
import { syncMirrorAfterCommit, walletState } from './wallet-mirror.js';

/**
 * Runs `change` in a transaction, reads the wallet's balance and record sequence at its end (the row is locked by
 * then, or untouched), and after the commit brings the mirror to that state. The mirror step is idempotent and
 * ordered by the record sequence, so steps of concurrent changes may arrive in any order. Should it fail, the mirror
 * only lacks money that PostgreSQL has (changes from here only ever add money), and the next sync adds it.
 */
export async function changeWallet<T>(
  ctx: Pick<AppContext, 'db' | 'redis' | 'config' | 'logger'>,
  organizationId: string,
  change: (tx: DbExecutor) => Promise<T>,
): Promise<T> {
  const { result, state } = await ctx.db.transaction(async (tx) => {
    const result = await change(tx);
    return { result, state: await walletState(tx, organizationId) };
  });
  if (state) await syncMirrorAfterCommit(ctx, organizationId, state);
  return result;
}
