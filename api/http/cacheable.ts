// Public catalog reads: a strong ETag over the exact body, a short shared-cache lifetime, and 304 for a matching
// If-None-Match (weak or strong, a list, or `*`), so clients and CDNs revalidate without re-downloading.
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';

export const PUBLIC_CACHE_CONTROL = 'public, max-age=30, stale-while-revalidate=60';

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch
    .split(',')
    .map((t) => t.trim())
    .some((t) => t === '*' || t.replace(/^W\//, '') === bare);
}

export function sendCacheable(req: Request, res: Response, body: string, contentType: string): void {
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  res.setHeader('ETag', etag);
  res.setHeader('Cache-Control', PUBLIC_CACHE_CONTROL);
  if (matches(req.header('if-none-match'), etag)) {
    res.status(304).end();
    return;
  }
  res.type(contentType).send(body);
}

export const sendCacheableJson = (req: Request, res: Response, value: unknown) =>
  sendCacheable(req, res, JSON.stringify(value), 'application/json; charset=utf-8');
