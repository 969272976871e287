// The outbound clients of the process, built by how far the destination is trusted. One client per purpose and
// configuration (each owns an undici Agent and its connection pool), made on first use.
// - A user-supplied URL (web fetch pages, reference images, webhooks) meets the full address policy: only
//   OUTBOUND_ALLOWED_HOSTS are exempt from the block of private, loopback and other non-public addresses.
// - An operator-configured URL (the AI upstreams, the GitHub API) is trusted by its host as well, even when it is
//   internal (the simulated provider on loopback). A user-supplied URL must never go through such a client.
import type { Config } from '../config/index.js';
import { createOutboundClient, type OutboundClient } from './outbound-client.js';

/** One purpose's limits, fixed when its client is made. */
export type ClientPurpose = {
  /** Names the client among the process's clients; two purposes never share a name. */
  name: string;
  timeoutMs: number;
  maxBytes: number;
  maxRedirects?: number;
  userAgent?: string;
};

type TrustConfig = Pick<Config, 'OUTBOUND_ALLOWED_HOSTS'>;

const clients = new WeakMap<TrustConfig, Map<string, OutboundClient>>();

function memoized(config: TrustConfig, name: string, create: () => OutboundClient): OutboundClient {
  let byName = clients.get(config);
  if (!byName) {
    byName = new Map();
    clients.set(config, byName);
  }
  let client = byName.get(name);
  if (!client) {
    client = create();
    byName.set(name, client);
  }
  return client;
}

const limitsOf = (purpose: ClientPurpose) => ({
  timeoutMs: purpose.timeoutMs,
  maxBytes: purpose.maxBytes,
  maxRedirects: purpose.maxRedirects,
  userAgent: purpose.userAgent,
});

/** For URLs that API users supplied: only OUTBOUND_ALLOWED_HOSTS are exempt from the address block. */
export function userUrlClient(config: TrustConfig, purpose: ClientPurpose): OutboundClient {
  return memoized(config, `user:${purpose.name}`, () =>
    createOutboundClient({ allowedHosts: config.OUTBOUND_ALLOWED_HOSTS, ...limitsOf(purpose) }),
  );
}

/** For URLs from the operator's configuration: their hosts are trusted besides OUTBOUND_ALLOWED_HOSTS. */
export function operatorUrlClient(
  config: TrustConfig,
  purpose: ClientPurpose,
  configuredUrls: readonly (string | undefined)[],
): OutboundClient {
  return memoized(config, `operator:${purpose.name}`, () => {
    const configuredHosts = configuredUrls.filter((u): u is string => Boolean(u)).map((u) => new URL(u).hostname);
    return createOutboundClient({
      allowedHosts: [...config.OUTBOUND_ALLOWED_HOSTS, ...configuredHosts],
      ...limitsOf(purpose),
    });
  });
}
