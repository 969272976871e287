// web-fetch/batch: fetch and extract the URLs of one API request; the result is what the waiting API returns.
import type { Job } from 'bullmq';
import type { Config } from '../../shared/config/index.js';
import type { AppContext } from '../../shared/context.js';
import { createOutboundClient, type OutboundClient } from '../../shared/http/index.js';
import { fetchBatch } from '../../shared/web/fetch-batch.js';

export const concurrency = 4;

export const WEB_FETCH_MAX_BYTES = 5 * 1024 * 1024;

const clients = new WeakMap<Config, OutboundClient>();

/** User URLs only ever go through this client: it trusts OUTBOUND_ALLOWED_HOSTS and nothing else. */
function pageClient(config: Config): OutboundClient {
  let client = clients.get(config);
  if (!client) {
    client = createOutboundClient({
      allowedHosts: config.OUTBOUND_ALLOWED_HOSTS,
      timeoutMs: config.WEB_FETCH_PAGE_TIMEOUT_MS,
      maxBytes: WEB_FETCH_MAX_BYTES,
      userAgent: 'ockhub-web-fetch/0.1',
    });
    clients.set(config, client);
  }
  return client;
}

export default async function processWebFetch(job: Job, ctx: AppContext) {
  const { urls } = job.data as { urls: string[] };
  return { items: await fetchBatch(ctx, pageClient(ctx.config), urls) };
}
