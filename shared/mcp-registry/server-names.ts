// MCP Registry server names: `<namespace>.<publisher slug>/<item slug>`, in the reverse-DNS form the registry
// requires (`^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`, at most 200 characters).
import { isSlug } from '../catalog/item-types.js';
import type { Config } from '../config/index.js';
import { trimTrailing } from '../text/trim-trailing.js';

export const SERVER_NAME_PATTERN = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;

/** MCP_REGISTRY_NAMESPACE, else the reversed host of PUBLIC_BASE_URL (`hub.example.com` → `com.example.hub`). */
export function registryNamespace(config: Pick<Config, 'MCP_REGISTRY_NAMESPACE' | 'publicBaseUrl'>): string {
  if (config.MCP_REGISTRY_NAMESPACE) return config.MCP_REGISTRY_NAMESPACE;
  const host = new URL(config.publicBaseUrl).hostname.replace(/^\[|\]$/g, '');
  const reversed = host
    .split('.')
    .reverse()
    .join('.')
    .replace(/[^a-zA-Z0-9.-]/g, '-');
  // 70 + "." + a 64-character publisher slug + "/" + a 64-character item slug = 200, the registry's limit.
  return trimTrailing(reversed.slice(0, 70), /[.-]/) || 'ockhub';
}

/** The key of our own figures in a server's `_meta` (reverse DNS, like the registry's own keys). */
export const catalogMetaKey = (namespace: string) => `${namespace}/catalog`;

export const serverName = (namespace: string, publisherSlug: string, slug: string) =>
  `${namespace}.${publisherSlug}/${slug}`;

/** The publisher and item slugs of a name under this namespace; undefined for any other name. */
export function parseServerName(namespace: string, name: string): { publisherSlug: string; slug: string } | undefined {
  const prefix = `${namespace}.`;
  const slash = name.indexOf('/');
  if (!name.startsWith(prefix) || slash < prefix.length) return undefined;
  const publisherSlug = name.slice(prefix.length, slash);
  const slug = name.slice(slash + 1);
  return isSlug(publisherSlug) && isSlug(slug) ? { publisherSlug, slug } : undefined;
}
