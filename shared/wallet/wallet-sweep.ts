// The scheduled wallet sweep (maintenance queue, every minute), over every organization with a mirror in Redis:
// releases holds past their expiry, brings each mirror to PostgreSQL's state (a sync missed after a recharge or
// refund is made up here), asks for a write of ledger streams left waiting (an enqueue lost after a settlement),
// and enqueues balance alerts whose job was lost between their commit and their enqueue.
import { inArray } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import { organizationWallets } from '../db/schema/index.js';
import { scanKeys } from '../redis/connection.js';
import { untaggedPrefix } from '../redis/tagged-keys.js';
import { enqueueStrandedAlerts } from './balance-alerts.js';
import { requestLedgerWrite } from './ledger-writer.js';
import { expireStep, mirrorKeys, syncStep } from './mirror-steps.js';

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
  const resynced = await resyncMirrors(ctx, [...mirrors]);
  const requeuedAlerts = await enqueueStrandedAlerts(ctx);
  if (expiredHolds > 0 || strandedStreams > 0 || requeuedAlerts > 0) {
    ctx.logger.info({ expiredHolds, strandedStreams, requeuedAlerts, resynced }, 'wallet sweep');
  }
  return { expiredHolds, strandedStreams, resynced, requeuedAlerts };
}

async function resyncMirrors(ctx: Ctx, organizationIds: string[]): Promise<number> {
  let synced = 0;
  for (let i = 0; i < organizationIds.length; i += 500) {
    const rows = await ctx.db
      .select({
        organizationId: organizationWallets.organizationId,
        balance: organizationWallets.balance,
        seq: organizationWallets.recordSeq,
        active: organizationWallets.isActive,
      })
      .from(organizationWallets)
      .where(inArray(organizationWallets.organizationId, organizationIds.slice(i, i + 500)));
    for (const { organizationId, ...state } of rows) {
      await syncStep(ctx.redis, ctx.config.REDIS_PREFIX, organizationId, state);
      synced += 1;
    }
  }
  return synced;
}
