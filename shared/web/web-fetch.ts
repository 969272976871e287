// POST /v1/web/fetch as a domain service: charge the request once (wallet, then project quota), run the batch
// through the workers, settle the web price. The request is billed even when every URL failed (the seed bills
// per request, and the work was done); it is not billed when no answer came (deadline passed, batch crashed).
import type { AppContext } from '../context.js';
import { isAppError } from '../errors/app-error.js';
import { closeCharge, openCharge } from '../gateway/accounting.js';
import type { GatewayCaller } from '../gateway/gateway-caller.js';
import { takeBatchPlace } from './batch-share.js';
import { runFetchBatch } from './fetch-batch-waiter.js';
import type { FetchedPage } from './fetched-page.js';
import { webRequestPriceMicros } from './web-price.js';

export async function fetchPages(ctx: AppContext, caller: GatewayCaller, urls: string[]): Promise<FetchedPage[]> {
  const price = webRequestPriceMicros(ctx.config);
  // Before the charge: a batch past the organization's share waits its turn (429 after the wait) with nothing
  // reserved or counted.
  const place = await takeBatchPlace(ctx, caller.organizationId);
  let charge: Awaited<ReturnType<typeof openCharge>>;
  try {
    charge = await openCharge(ctx, caller, { operation: 'web_fetch', reserveMicros: price });
  } catch (err) {
    await place.release();
    throw err;
  }
  let pages: FetchedPage[];
  try {
    pages = await runFetchBatch(ctx, caller.organizationId, urls);
    await place.release();
  } catch (err) {
    // A batch the API stopped waiting for may still hold a worker slot: its place expires with it instead.
    if (!(isAppError(err) && err.code === 'WebFetch.Timeout')) await place.release();
    await closeCharge(ctx, charge, {
      status: 'failed',
      httpStatus: isAppError(err) ? err.status : 500,
      costMicros: 0n,
      errorMessage: err instanceof Error ? err.message : String(err),
    });
    throw err;
  }
  const failed = pages.filter((p) => p.error).length;
  await closeCharge(ctx, charge, {
    status: 'succeeded',
    httpStatus: 200,
    costMicros: price,
    ...(failed > 0 ? { errorMessage: `${failed} of ${pages.length} URLs failed` } : {}),
  });
  return pages;
}
