// web-fetch/batch: fetch and extract the URLs of one API request, and hand the pages to the waiting API.
import type { Job } from 'bullmq';
import type { AppContext } from '../../shared/context.js';
import type { ParsedPayload } from '../../shared/queues/registry.js';
import { storeBatchResult } from '../../shared/web/batch-results.js';
import { createExtractionPool, type ExtractionPool } from '../../shared/web/extraction-pool.js';
import { fetchBatch } from '../../shared/web/fetch-batch.js';
import { pageClient } from '../../shared/web/page-client.js';
import { defineQueueWorker } from '../processor.js';

let pool: ExtractionPool | undefined;

/** One pool of HTML-reading threads per process, started with the first batch. */
function extractionPool(ctx: AppContext): ExtractionPool {
  pool ??= createExtractionPool(
    {
      threads: ctx.config.WEB_EXTRACT_THREADS,
      timeoutMs: ctx.config.WEB_EXTRACT_TIMEOUT_MS,
      heapMb: ctx.config.WEB_EXTRACT_HEAP_MB,
      maxElements: ctx.config.WEB_EXTRACT_MAX_ELEMENTS,
      maxAttributes: ctx.config.WEB_EXTRACT_MAX_ATTRIBUTES,
      maxDepth: ctx.config.WEB_EXTRACT_MAX_DEPTH,
    },
    (err) => ctx.logger.warn({ err: err.message }, 'an idle extraction thread died; it is replaced'),
  );
  return pool;
}

async function batch(
  { urls, organizationId, resultId }: ParsedPayload<'web-fetch', 'batch'>,
  ctx: AppContext,
  job: Job,
) {
  const reader = extractionPool(ctx);
  const readHtml = (body: Uint8Array, contentType: string | undefined) => {
    ctx.logger.debug({ bytes: body.byteLength }, 'reading a page');
    return reader.extract(body, contentType);
  };
  const items = await fetchBatch(ctx, pageClient(ctx.config), readHtml, urls, organizationId);
  // The return value is copied into the queue's events stream: only a marker goes there (batch-results.ts).
  if (!resultId) return { items }; // queued by an API from before the result keys
  await storeBatchResult(ctx, resultId, items, job.timestamp);
  return { resultId };
}

/** At shutdown, after the jobs in hand: the threads go (a page still being read is cut). */
async function close(): Promise<void> {
  const closing = pool;
  pool = undefined;
  await closing?.close();
}

export default defineQueueWorker('web-fetch', { batch }, { concurrency: 4, close });
