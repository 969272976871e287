// A video task's charge: its price held at create, settled at the stored price on completion, released on failure
// or cancel. Closing is idempotent (the hold in the wallet mirror and the request log are keyed by the request id:
// a second settlement finds no hold and charges nothing), so a retried worker job never charges or releases twice.
import type { AppContext } from '../context.js';
import { type Charge, closeCharge } from '../gateway/accounting.js';
import { markChargeClosed, type VideoTask } from './video-store.js';

/** The charge opened at create, rebuilt from what the task stored (the worker runs in another process). */
export function chargeOf(task: VideoTask): Charge {
  return {
    requestLogId: task.requestLogId,
    caller: {
      accountId: task.accountId,
      projectId: task.projectId,
      organizationId: task.organizationId,
      ...(task.apiKeyId ? { keyId: task.apiKeyId } : {}),
    },
    operation: 'video',
    model: task.model,
    startedAt: task.createdAt.getTime(),
    closed: false,
  };
}

/** Settles or releases the charge of a task that reached a final state; does nothing for open or closed ones. */
export async function closeTaskCharge(ctx: AppContext, task: VideoTask): Promise<void> {
  if (task.chargeClosed) return;
  if (task.status === 'queued' || task.status === 'in_progress') return;
  const completed = task.status === 'completed';
  await closeCharge(ctx, chargeOf(task), {
    status: completed ? 'succeeded' : task.status === 'cancelled' ? 'cancelled' : 'failed',
    httpStatus: 200,
    costMicros: completed ? task.priceMicros : 0n,
    ...(task.errorMessage ? { errorMessage: task.errorMessage } : {}),
  });
  await markChargeClosed(ctx.db, task.id);
}
