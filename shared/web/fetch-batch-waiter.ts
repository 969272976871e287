// The API side of a web fetch: enqueue ONE `web-fetch`/`batch` job and wait for it with a deadline, through one
// QueueEvents listener per API process (created on first use, closed with the context), then take its pages from
// the result key the worker wrote (batch-results.ts): the job's return value, copied into the events stream, is a
// small marker.
import { randomUUID } from 'node:crypto';
import { type Job, QueueEvents } from 'bullmq';
import type { AppContext } from '../context.js';
import { AppError } from '../errors/app-error.js';
import { createRedis } from '../redis/connection.js';
import { dropBatchResult, takeBatchResult } from './batch-results.js';
import type { FetchedPage } from './fetched-page.js';

const listeners = new WeakMap<AppContext, QueueEvents>();

function queueEventsOf(ctx: AppContext): QueueEvents {
  let events = listeners.get(ctx);
  if (!events) {
    // QueueEvents blocks on XREAD: it needs its own connection without per-command timeouts.
    const connection = createRedis(ctx.config, 'worker');
    const created = new QueueEvents('web-fetch', { connection, prefix: ctx.config.REDIS_PREFIX });
    created.on('error', (err) => ctx.logger.warn({ err: err.message }, 'web-fetch queue events error'));
    listeners.set(ctx, created);
    ctx.onClose(async () => {
      await created.close();
      connection.disconnect();
    });
    events = created;
  }
  return events;
}

/** Finished batches are read once and removed; these bounds only matter when the API gave up waiting. */
export const keepFinishedBatches = {
  removeOnComplete: { age: 300, count: 500 },
  removeOnFail: { age: 300, count: 500 },
};

/** What a batch job returns: where its pages wait, or (a worker before the result keys) the pages themselves. */
type BatchReturn = { resultId?: string; items?: FetchedPage[] } | undefined;

export async function runFetchBatch(ctx: AppContext, organizationId: string, urls: string[]): Promise<FetchedPage[]> {
  const events = queueEventsOf(ctx);
  const resultId = randomUUID();
  const job: Job = await ctx.queues.add('web-fetch', 'batch', { urls, organizationId, resultId }, keepFinishedBatches);
  let result: BatchReturn;
  try {
    result = (await job.waitUntilFinished(events, ctx.config.WEB_FETCH_WAIT_MS)) as BatchReturn;
  } catch (err) {
    const timedOut = err instanceof Error && /timed out before finishing/.test(err.message);
    // A batch nobody waits for any more is dropped if no worker took it yet (an active one just expires), and so is
    // an answer written just before (one written later expires within seconds).
    await Promise.all([timedOut ? job.remove().catch(() => undefined) : undefined, dropBatchResult(ctx, resultId)]);
    throw timedOut
      ? new AppError('WebFetch.Timeout', 503, 'The web fetch workers did not answer in time; try again shortly.', {
          headers: { 'retry-after': '5' },
        })
      : new AppError('WebFetch.Failed', 500, 'The web fetch batch failed.', { cause: err });
  }
  const [items] = await Promise.all([
    result?.resultId === resultId ? takeBatchResult(ctx, resultId) : result?.items,
    job.remove().catch(() => undefined),
  ]);
  if (!items || items.length !== urls.length) {
    throw new AppError('WebFetch.Failed', 500, 'The web fetch batch returned an unexpected result.');
  }
  return items;
}
