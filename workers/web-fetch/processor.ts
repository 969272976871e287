// web-fetch/batch: fetch and extract the URLs of one API request; the result is what the waiting API returns.
import type { AppContext } from '../../shared/context.js';
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

async function batch({ urls }: { urls: string[] }, ctx: AppContext) {
  const reader = extractionPool(ctx);
  const readHtml = (body: Uint8Array, contentType: string | undefined) => {
    ctx.logger.debug({ bytes: body.byteLength }, 'reading a page');
    return reader.extract(body, contentType);
  };
  return { items: await fetchBatch(ctx, pageClient(ctx.config), readHtml, urls) };
}

/** At shutdown, after the jobs in hand: the threads go (a page still being read is cut). */
async function close(): Promise<void> {
  const closing = pool;
  pool = undefined;
  await closing?.close();
}

export default defineQueueWorker('web-fetch', { batch }, { concurrency: 4, close });
