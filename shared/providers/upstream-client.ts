// The outbound client for the configured AI upstreams: their hosts are trusted (they may be internal, like the
// simulated provider on loopback). User-supplied URLs never go through this client.
import type { Config } from '../config/index.js';
import { type OutboundClient, operatorUrlClient } from '../http/index.js';

const UPSTREAM = {
  name: 'ai-upstream',
  timeoutMs: 10 * 60_000,
  maxBytes: 64 * 1024 * 1024,
  maxRedirects: 0,
  userAgent: 'ockhub-gateway/0.1',
};

export function upstreamClient(config: Config): OutboundClient {
  return operatorUrlClient(config, UPSTREAM, [
    config.UPSTREAM_MESSAGES_URL,
    config.UPSTREAM_VIDEO_URL,
    config.UPSTREAM_SEARCH_URL,
  ]);
}
