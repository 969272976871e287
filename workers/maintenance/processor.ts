// Maintenance jobs: expired console sessions are deleted; the GitHub star count is refreshed; forgotten wallet
// reservations are released and balance alerts left unqueued are enqueued.

import { refreshStarCount } from '../../shared/github/star-count.js';
import { deleteStaleSessions } from '../../shared/identity/sessions.js';
import { sweepWallets } from '../../shared/wallet/wallet-sweep.js';
import type { Processor } from '../processor.js';

const processor: Processor = async (job, ctx) => {
  switch (job.name) {
    case 'expire-credentials':
      return { deletedSessions: await deleteStaleSessions(ctx) };
    case 'github-stars':
      return refreshStarCount(ctx);
    case 'wallet-sweep':
      return sweepWallets(ctx);
    default:
      throw new Error(`maintenance has no job named ${job.name}`);
  }
};

export default processor;
export const concurrency = 1;
