// Maintenance jobs: expired console sessions are deleted; the GitHub star count is refreshed; forgotten wallet
// reservations are released and balance alerts left unqueued are enqueued; temp files of writes cut by a crash are
// removed once they are an hour old.

import { refreshStarCountOrSayOnce } from '../../shared/github/star-count.js';
import { deleteStaleSessions } from '../../shared/identity/sessions.js';
import { sweepWallets } from '../../shared/wallet/wallet-sweep.js';
import { defineQueueWorker } from '../processor.js';

/** A temp file untouched this long has no writer left (an HTTP upload ends long before: Node's request timeout). */
export const ORPHANED_TEMP_AGE_MS = 60 * 60_000;

export default defineQueueWorker(
  'maintenance',
  {
    'expire-credentials': async (_payload, ctx) => ({ deletedSessions: await deleteStaleSessions(ctx) }),
    'github-stars': (_payload, ctx) => refreshStarCountOrSayOnce(ctx),
    'wallet-sweep': (_payload, ctx) => sweepWallets(ctx),
    'temp-files': async (_payload, ctx) => ({
      removedTempFiles: await ctx.storage.removeOrphanedTemp(ORPHANED_TEMP_AGE_MS),
    }),
  },
  { concurrency: 1 },
);
