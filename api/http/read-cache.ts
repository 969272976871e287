// A short in-process cache of public catalog responses (body, type, ETag), keyed by what the route reads (cacheable.ts).
// Entries live CATALOG_READ_CACHE_MS and are all dropped when a catalog write in this process changes public data;
// writes in other processes (telemetry counters, other API instances) show after at most the TTL. Memory is bounded
// by bytes, not entries: an area holds at most READ_CACHE_MAX_BYTES of bodies, oldest first out, never a body over
// READ_CACHE_MAX_BODY_BYTES, and an expired entry goes when it expires (the sweep timer; also on access and on
// insert), so a flood of distinct URLs costs a bounded amount while it lasts and nothing once the TTL has passed.
import { createHash } from 'node:crypto';
import { onCatalogChange } from '../../shared/catalog/change-feed.js';
import type { AppContext } from '../../shared/context.js';

/** The bodies one cache area may hold (two areas: catalog, mcp-registry, so 32 MiB per API process). A list page
 * is ~20–60 KB and an item's detail a few KB, so this holds hundreds of distinct answers per TTL (2 s). */
export const READ_CACHE_MAX_BYTES = 16 * 1_048_576;
/** A body larger than this is answered but not cached (an item with a huge readme): it would evict ~16 others. */
export const READ_CACHE_MAX_BODY_BYTES = 1_048_576;
/** What an entry costs besides its body (the key, the ETag, the object and the map slot), roughly. */
const ENTRY_OVERHEAD_BYTES = 256;

export type CachedResponse = { body: Buffer; contentType: string; etag: string };
type Entry = CachedResponse & { expires: number; bytes: number };

export type ReadCacheLimits = { maxBytes: number; maxBodyBytes: number };

export class PublicReadCache {
  /** In insertion order, which is also expiry order (one TTL for all): the first entry is the oldest and the first
   * to expire, so eviction and the sweep only ever look at the front. A replaced key moves to the back. */
  private readonly entries = new Map<string, Entry>();
  private heldBytes = 0;
  private sweepTimer: NodeJS.Timeout | undefined;
  /** Bumped by clear(): a read that began before a change never stores what it read. */
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly limits: ReadCacheLimits = {
      maxBytes: READ_CACHE_MAX_BYTES,
      maxBodyBytes: READ_CACHE_MAX_BODY_BYTES,
    },
  ) {}

  /** Bytes held now (bodies and per-entry overhead): never above `maxBytes`. */
  get bytes(): number {
    return this.heldBytes;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): CachedResponse | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires > Date.now()) return entry;
    this.remove(key, entry);
    return undefined;
  }

  /** Call before reading: the token `put` needs. */
  begin(): number {
    return this.generation;
  }

  /** Builds the response (with its ETag) and keeps it for the TTL, unless the catalog changed since `begin` or the
   * body is over the per-body limit; older entries make room for it. */
  put(key: string, text: string, contentType: string, since: number): CachedResponse {
    const body = Buffer.from(text);
    const response = { body, contentType, etag: etagOf(body) };
    if (this.ttlMs <= 0 || since !== this.generation || body.length > this.limits.maxBodyBytes) return response;
    const bytes = body.length + key.length + ENTRY_OVERHEAD_BYTES;
    if (bytes > this.limits.maxBytes) return response;
    const now = Date.now();
    const replaced = this.entries.get(key);
    if (replaced) this.remove(key, replaced);
    this.dropExpired(now);
    for (const [oldest, entry] of this.entries) {
      if (this.heldBytes + bytes <= this.limits.maxBytes) break;
      this.remove(oldest, entry);
    }
    this.entries.set(key, { ...response, expires: now + this.ttlMs, bytes });
    this.heldBytes += bytes;
    this.scheduleSweep(now);
    return response;
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
    this.heldBytes = 0;
  }

  private remove(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.heldBytes -= entry.bytes;
  }

  private dropExpired(now: number): void {
    for (const [key, entry] of this.entries) {
      if (entry.expires > now) return;
      this.remove(key, entry);
    }
  }

  /** One timer at most, set for the oldest entry's expiry, so memory comes back after the TTL even when no request
   * follows; unref'd, so it never keeps a process alive. */
  private scheduleSweep(now: number): void {
    if (this.sweepTimer) return;
    const first = this.entries.values().next().value;
    if (!first) return;
    this.sweepTimer = setTimeout(
      () => {
        this.sweepTimer = undefined;
        const at = Date.now();
        this.dropExpired(at);
        this.scheduleSweep(at);
      },
      Math.max(first.expires - now, 0) + 1,
    );
    this.sweepTimer.unref();
  }
}

export const etagOf = (body: Buffer | string) =>
  `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

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
