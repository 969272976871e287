// Where a finished web-fetch batch hands its pages to the waiting API: one short-lived Redis key per batch, named by
// the API when it enqueues the batch, read and deleted by the API at once. The pages never travel as the job's return
// value: BullMQ copies a return value into the queue's events stream, which has no expiry and keeps its last 1,000
// entries however large they are (20 pages of 250,000 characters are ~15 MB). The job returns only `{resultId}`.
import type { AppContext } from '../context.js';
import type { FetchedPage } from './fetched-page.js';

/** Beyond the API's deadline: its clock may differ from the worker's, and the completed event takes a moment. */
export const RESULT_GRACE_MS = 15_000;

const resultKey = (prefix: string, resultId: string) => `${prefix}:web-fetch:result:${resultId}`;

/**
 * Kept until the API that enqueued the batch (at `enqueuedAt`) stops waiting, WEB_FETCH_WAIT_MS later, plus the
 * grace: at most WEB_FETCH_WAIT_MS + 15 s (60 s by default), and 15 s for a batch finished after its API gave up.
 * Writing again (a stalled batch run a second time) replaces the first answer with an equal one.
 */
export async function storeBatchResult(
  ctx: AppContext,
  resultId: string,
  items: FetchedPage[],
  enqueuedAt: number,
): Promise<void> {
  const waitMs = ctx.config.WEB_FETCH_WAIT_MS;
  const left = Math.min(Math.max(enqueuedAt + waitMs - Date.now(), 0), waitMs);
  await ctx.redis.set(
    resultKey(ctx.config.REDIS_PREFIX, resultId),
    JSON.stringify(items),
    'PX',
    left + RESULT_GRACE_MS,
  );
}

/** The batch's pages, removed as they are read; undefined when there is none (expired, or never written). */
export async function takeBatchResult(ctx: AppContext, resultId: string): Promise<FetchedPage[] | undefined> {
  const raw = await ctx.redis.getdel(resultKey(ctx.config.REDIS_PREFIX, resultId));
  return raw ? (JSON.parse(raw) as FetchedPage[]) : undefined;
}

/** For a batch the API stopped waiting for: an answer written just before is dropped (a later one expires). */
export async function dropBatchResult(ctx: AppContext, resultId: string): Promise<void> {
  await ctx.redis.del(resultKey(ctx.config.REDIS_PREFIX, resultId)).catch(() => undefined);
}
