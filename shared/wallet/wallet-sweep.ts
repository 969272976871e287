// The scheduled wallet sweep (maintenance queue, every minute), over every organization with a mirror in Redis:
// releases holds past their expiry, brings each mirror to PostgreSQL's state (a sync missed after a recharge or
// refund is made up here), asks for a write of ledger streams left waiting (an enqueue lost after a settlement),
// rebuilds a mirror that is ahead of PostgreSQL (a restored or failed-over database), and enqueues balance alerts
// whose job was lost between their commit and their enqueue.
import { inArray } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import { organizationWallets } from '../db/schema/index.js';
import { scanKeys } from '../redis/connection.js';
import { untaggedPrefix } from '../redis/tagged-keys.js';
import { enqueueStrandedAlerts } from './balance-alerts.js';
import { requestLedgerWrite } from './ledger-writer.js';
import { expireStep, mirrorKeys, rebuildStep, syncStep } from './mirror-steps.js';

/** A stream whose oldest entry waited this long has no write on its way (one is asked at its first entry). */
const STRANDED_MS = 15_000;

type Ctx = Pick<AppContext, 'db' | 'redis' | 'config' | 'queues' | 'logger'>;

const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A wallet mirror's keys under the untagged prefix `kp`: `<kp>:{o:<organization>}:w`, `:hx` and `:l`. */
export const walletKeyShape = (kp: string) => new RegExp(`^${escaped(kp)}:\\{o:([^}]+)\\}:(w|hx|l)$`);

export async function sweepWallets(ctx: Ctx, now = Date.now()) {
  const prefix = ctx.config.REDIS_PREFIX;
  const kp = untaggedPrefix(prefix);
  const shape = walletKeyShape(kp);
  let expiredHolds = 0;
  let strandedStreams = 0;
  const mirrors = new Set<string>();
  for await (const keys of scanKeys(ctx.redis, `${kp}:{o:*}:[whl]*`)) {
    for (const key of keys) {
      const [, organizationId, kind] = shape.exec(key) ?? [];
      if (!organizationId) continue;
      if (kind === 'w') mirrors.add(organizationId);
      if (kind === 'hx') expiredHolds += await expireStep(ctx.redis, prefix, organizationId, now, 10_000);
      if (kind === 'l') {
        const [oldest] = await ctx.redis.xrange(mirrorKeys(prefix, organizationId).l, '-', '+', 'COUNT', 1);
        if (oldest && now - Number(oldest[0].split('-')[0]) > STRANDED_MS) {
          strandedStreams += 1;
          await requestLedgerWrite(ctx, organizationId, 0);
        }
      }
    }
  }
  const { synced: resynced, rebuilt } = await resyncMirrors(ctx, [...mirrors]);
  const requeuedAlerts = await enqueueStrandedAlerts(ctx);
  if (expiredHolds > 0 || strandedStreams > 0 || requeuedAlerts > 0 || rebuilt > 0) {
    ctx.logger.info({ expiredHolds, strandedStreams, requeuedAlerts, resynced, rebuilt }, 'wallet sweep');
  }
  return { expiredHolds, strandedStreams, resynced, rebuilt, requeuedAlerts };
}

/**
 * Brings each mirror to PostgreSQL's state. Each mirror's sequence is read BEFORE PostgreSQL: PostgreSQL's sequence
 * only grows, and a mirror only ever takes a sequence PostgreSQL had committed, so a mirror seen ahead of the wallet
 * row read after it means PostgreSQL went back (restored from a backup, or a replica promoted without the last
 * commits). Left alone, such a mirror ignores every later state (they look older): its base stays at the lost
 * balance, the charges written since leave `pend` without lowering it, and the same money admits request after
 * request until PostgreSQL's sequence passes it. It is rebuilt from PostgreSQL instead.
 */
async function resyncMirrors(ctx: Ctx, organizationIds: string[]): Promise<{ synced: number; rebuilt: number }> {
  let synced = 0;
  let rebuilt = 0;
  const prefix = ctx.config.REDIS_PREFIX;
  for (let i = 0; i < organizationIds.length; i += 500) {
    const batch = organizationIds.slice(i, i + 500);
    const seqs = await Promise.all(batch.map((id) => ctx.redis.hget(mirrorKeys(prefix, id).w, 'seq')));
    const seen = new Map(batch.map((id, k) => [id, seqs[k]]));
    const rows = await ctx.db
      .select({
        organizationId: organizationWallets.organizationId,
        balance: organizationWallets.balance,
        seq: organizationWallets.recordSeq,
        active: organizationWallets.isActive,
      })
      .from(organizationWallets)
      .where(inArray(organizationWallets.organizationId, batch));
    for (const { organizationId, ...state } of rows) {
      const mirrorSeq = Number(seen.get(organizationId) ?? 0);
      if (mirrorSeq > state.seq && (await rebuildStep(ctx.redis, prefix, organizationId, state, mirrorSeq))) {
        rebuilt += 1;
        ctx.logger.error(
          { organizationId, mirrorSeq, postgresSeq: state.seq },
          'wallet mirror was ahead of PostgreSQL (a restored or failed-over database): rebuilt from PostgreSQL',
        );
      } else await syncStep(ctx.redis, prefix, organizationId, state);
      synced += 1;
    }
  }
  return { synced, rebuilt };
}
