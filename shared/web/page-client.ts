// The client web fetch reads pages with. Page URLs come from API users, so it is the user-URL client (the full
// address policy, docs/outbound-http.md), never the upstream one.
import type { Config } from '../config/index.js';
import { type OutboundClient, userUrlClient } from '../http/index.js';

const WEB_FETCH_MAX_BYTES = 5 * 1024 * 1024;

export function pageClient(config: Config): OutboundClient {
  return userUrlClient(config, {
    name: 'web-fetch-pages',
    timeoutMs: config.WEB_FETCH_PAGE_TIMEOUT_MS,
    maxBytes: WEB_FETCH_MAX_BYTES,
    userAgent: 'ockhub-web-fetch/0.1',
  });
}
