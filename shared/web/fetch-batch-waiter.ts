// The API side of a web fetch: enqueue ONE `web-fetch`/`batch` job and wait for its result with a deadline,
// through one QueueEvents listener per API process (created on first use, closed with the context).
import { type Job, QueueEvents } from 'bullmq';
import type { AppContext } from '../context.js';
import { AppError } from '../errors/app-error.js';
import { createRedis } from '../redis/connection.js';
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

export async function runFetchBatch(ctx: AppContext, urls: string[]): Promise<FetchedPage[]> {
  const events = queueEventsOf(ctx);
  const job: Job = await ctx.queues.add('web-fetch', 'batch', { urls }, keepFinishedBatches);
  let result: { items?: FetchedPage[] } | undefined;
  try {
    result = (await job.waitUntilFinished(events, ctx.config.WEB_FETCH_WAIT_MS)) as typeof result;
  } catch (err) {
    const timedOut = err instanceof Error && /timed out before finishing/.test(err.message);
    // A batch nobody waits for any more is dropped if no worker took it yet (an active one just expires).
    if (timedOut) await job.remove().catch(() => undefined);
    throw timedOut
      ? new AppError('WebFetch.Timeout', 503, 'The web fetch workers did not answer in time; try again shortly.', {
          headers: { 'retry-after': '5' },
        })
      : new AppError('WebFetch.Failed', 500, 'The web fetch batch failed.', { cause: err });
  }
  await job.remove().catch(() => undefined);
  if (!result?.items || result.items.length !== urls.length) {
    throw new AppError('WebFetch.Failed', 500, 'The web fetch batch returned an unexpected result.');
  }
  return result.items;
}
