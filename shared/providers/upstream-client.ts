// The outbound client for configured AI upstreams: the safe client of shared/http, with the operator-configured
// upstream hosts trusted (they may be internal, like the simulated provider on loopback). User-supplied URLs
// never go through this client.
import type { Config } from '../config/index.js';
import { createOutboundClient, type OutboundClient } from '../http/index.js';

const clients = new WeakMap<Config, OutboundClient>();

export function upstreamClient(config: Config): OutboundClient {
  let client = clients.get(config);
  if (!client) {
    const upstreamHosts = [config.UPSTREAM_MESSAGES_URL, config.UPSTREAM_VIDEO_URL, config.UPSTREAM_SEARCH_URL]
      .filter((u): u is string => Boolean(u))
      .map((u) => new URL(u).hostname.replace(/^\[|\]$/g, ''));
    client = createOutboundClient({
      allowedHosts: [...config.OUTBOUND_ALLOWED_HOSTS, ...upstreamHosts],
      timeoutMs: 10 * 60_000,
      maxBytes: 64 * 1024 * 1024,
      maxRedirects: 0,
      userAgent: 'ockhub-gateway/0.1',
    });
    clients.set(config, client);
  }
  return client;
}
