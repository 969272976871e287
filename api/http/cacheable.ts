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
 * A public GET route: answers from the read cache when it can, else runs `load` (which validates and reads) and
 * caches what it returns. Errors are never cached.
 */
export function publicRead(cache: PublicReadCache, load: (req: Request) => Promise<PublicBody>): RequestHandler {
  return async (req, res) => {
    const key = req.originalUrl;
    const hit = cache.get(key);
    if (hit) return send(req, res, hit);
    const since = cache.begin();
    const loaded = await load(req);
    const response =
      'json' in loaded
        ? cache.put(key, JSON.stringify(loaded.json), 'application/json; charset=utf-8', since)
        : cache.put(key, loaded.text, loaded.contentType, since);
    send(req, res, response);
  };
}
