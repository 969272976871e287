// The scheduled wallet sweep (maintenance queue, every minute): releases expired reservations and enqueues
// balance alerts whose job was lost between their commit and their enqueue.
import type { AppContext } from '../context.js';
import { enqueueStrandedAlerts } from './balance-alerts.js';
import { expireReservations } from './reservations.js';

export async function sweepWallets(ctx: Pick<AppContext, 'db' | 'queues' | 'logger'>) {
  const batchSize = 1000;
  let expiredReservations = 0;
  let batch: number;
  do {
    batch = await expireReservations(ctx, batchSize);
    expiredReservations += batch;
  } while (batch === batchSize);
  const requeuedAlerts = await enqueueStrandedAlerts(ctx);
  if (expiredReservations > 0 || requeuedAlerts > 0) {
    ctx.logger.info({ expiredReservations, requeuedAlerts }, 'wallet sweep');
  }
  return { expiredReservations, requeuedAlerts };
}
