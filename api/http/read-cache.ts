// A short in-process cache of public catalog responses (body, type, ETag), keyed by path and query. Entries live
// CATALOG_READ_CACHE_MS and are all dropped when a catalog write in this process changes public data; writes in
// other processes (telemetry counters, other API instances) show after at most the TTL.
import { createHash } from 'node:crypto';
import { onCatalogChange } from '../../shared/catalog/change-feed.js';
import type { AppContext } from '../../shared/context.js';

export type CachedResponse = { body: string; contentType: string; etag: string };

export class PublicReadCache {
  private readonly entries = new Map<string, CachedResponse & { expires: number }>();
  /** Bumped by clear(): a read that began before a change never stores what it read. */
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 1_000,
  ) {}

  get(key: string): CachedResponse | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires > Date.now()) return entry;
    this.entries.delete(key);
    return undefined;
  }

  /** Call before reading: the token `put` needs. */
  begin(): number {
    return this.generation;
  }

  /** Builds the response (with its ETag) and keeps it for the TTL, unless the catalog changed since `begin`. */
  put(key: string, body: string, contentType: string, since: number): CachedResponse {
    const response = { body, contentType, etag: etagOf(body) };
    if (this.ttlMs <= 0 || since !== this.generation) return response;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { ...response, expires: Date.now() + this.ttlMs });
    return response;
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }
}

export const etagOf = (body: string) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

const areaCaches = new WeakMap<AppContext, Map<string, PublicReadCache>>();

/** The read cache of one area of public catalog reads (`catalog`, `mcp-registry`): one per app context, built on
 * first use and emptied whenever a catalog write in this process changes public data. */
export function catalogReadCache(ctx: AppContext, area: string): PublicReadCache {
  const caches = areaCaches.get(ctx) ?? new Map<string, PublicReadCache>();
  areaCaches.set(ctx, caches);
  let cache = caches.get(area);
  if (!cache) {
    const created = new PublicReadCache(ctx.config.CATALOG_READ_CACHE_MS);
    onCatalogChange(ctx.db, () => created.clear());
    caches.set(area, created);
    cache = created;
  }
  return cache;
}
