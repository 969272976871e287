// Public catalog reads: a strong ETag over the exact body, a short shared-cache lifetime, and 304 for a matching
// If-None-Match (weak or strong, a list, or `*`), so clients and CDNs revalidate without re-downloading.
import type { Request, RequestHandler, Response } from 'express';
import type { CachedResponse, PublicReadCache } from './read-cache.js';

export const PUBLIC_CACHE_CONTROL = 'public, max-age=30, stale-while-revalidate=60';

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch
    .split(',')
    .map((t) => t.trim())
    .some((t) => t === '*' || t.replace(/^W\//, '') === bare);
}

function send(req: Request, res: Response, response: CachedResponse): void {
  res.setHeader('ETag', response.etag);
  res.setHeader('Cache-Control', PUBLIC_CACHE_CONTROL);
  if (matches(req.header('if-none-match'), response.etag)) {
    res.status(304).end();
    return;
  }
  res.type(response.contentType).send(response.body);
}

export type PublicBody = { json: unknown } | { text: string; contentType: string };

/**
 * What a public read's answer depends on: the route, its decoded path parameters, and the query parameters it
 * declares (`queryKeys`, sorted), each as it arrived. Nothing else in the URL makes a new entry: not an unknown
 * parameter (`?n=1`), the order of parameters, percent-encoding of a path segment or a trailing slash. The routes of
 * one cache area have distinct paths (cacheable routes of one area share a cache).
 */
export function readCacheKey(req: Request, queryKeys: readonly string[]): string {
  const path = (req.route as { path?: string } | undefined)?.path ?? req.path;
  if (queryKeys.length === 0) return JSON.stringify([path, req.params]);
  const query = req.query as Record<string, unknown>;
  return JSON.stringify([path, req.params, queryKeys.map((name) => query[name] ?? null)]);
}

/**
 * A public GET route: answers from the read cache when it can, else runs `admitMiss` (a limit on reads that miss,
 * which may throw) and `load` (which validates and reads), and caches what it returns. Errors are never cached.
 * `queryKeys`: the query parameters the route reads.
 */
export function publicRead(
  cache: PublicReadCache,
  load: (req: Request) => Promise<PublicBody>,
  queryKeys: readonly string[] = [],
  admitMiss: (req: Request) => Promise<void> = async () => undefined,
): RequestHandler {
  const names = [...queryKeys].sort();
  return async (req, res) => {
    const key = readCacheKey(req, names);
    const hit = cache.get(key);
    if (hit) return send(req, res, hit);
    await admitMiss(req);
    const since = cache.begin();
    const loaded = await load(req);
    const response =
      'json' in loaded
        ? cache.put(key, JSON.stringify(loaded.json), 'application/json; charset=utf-8', since)
        : cache.put(key, loaded.text, loaded.contentType, since);
    send(req, res, response);
  };
}
