// SIGKILL a real worker process mid-job and start a replacement: no shutdown code runs, the job's lock is left to
// expire, and the replacement's stalled-job check puts the job back in its queue.
import type { QueueName } from '../../../shared/queues/registry.js';
import { type Harness, startProcess, type TestEnv, type WorkerProcess, waitUntil } from '../../support/harness.js';

/** Short job locks so a dead worker's job is back in its queue within seconds rather than a minute. */
export const FAST_STALL_RECOVERY: TestEnv = { WORKER_LOCK_MS: '2000' };

export const startQueueWorker = (env: TestEnv, queue: QueueName) =>
  startProcess(env, { extraEnv: { WORKER_QUEUES: queue } });

/**
 * Waits until `midJob` holds (the job provably waits on something the test holds), SIGKILLs the worker, lets go
 * of what the job waited on (`release`), and starts a replacement worker for the same queue. `inFlight` is how
 * many of the queue's jobs were active when the worker died.
 */
export async function killMidJob(
  h: Harness,
  worker: WorkerProcess,
  queue: QueueName,
  options: { midJob: () => Promise<boolean>; release: () => unknown },
) {
  let killed: { killedAt: number; signal: NodeJS.Signals | null; inFlight: number };
  try {
    await waitUntil(options.midJob, 30_000);
    const inFlight = await h.ctx.queues.queue(queue).getActiveCount();
    worker.child.kill('SIGKILL');
    await worker.exited;
    killed = { killedAt: Date.now(), signal: worker.child.signalCode, inFlight };
  } finally {
    await options.release();
  }
  return { ...killed, replacement: await startQueueWorker(h.env, queue) };
}
