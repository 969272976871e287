// A public GET route of catalog data (the catalog, the MCP registry): answered from its area's read cache (ETag,
// 304) when it can be, else read, cached and sent. The cache keys on the query parameters the route declares; a read
// that misses it counts against the client address's allowance (shared/catalog/public-read-limit.ts).
import type { Request } from 'express';
import { z } from 'zod';
import { admitPublicReadMiss } from '../../shared/catalog/public-read-limit.js';
import type { AppContext } from '../../shared/context.js';
import { type PublicBody, publicRead } from '../http/cacheable.js';
import { clientAddress } from '../http/client-address.js';
import { catalogReadCache } from '../http/read-cache.js';
import type { Route } from './route.js';

/** The parameter names of a route's query schema (an object, or an object piped into a transform). */
const queryKeysOf = (schema: Route['query']): string[] =>
  schema ? Object.keys((schema instanceof z.ZodPipe ? (schema.in as z.ZodObject) : schema).shape) : [];

export const publicReadRoute = (
  cacheArea: string,
  route: Omit<Route, 'method' | 'access' | 'handler'>,
  read: (ctx: AppContext, req: Request) => Promise<PublicBody>,
): Route => ({
  method: 'get',
  access: 'public',
  etag: 'A strong tag of the exact body (SHA-256); answers are cacheable for 30 s (Cache-Control).',
  notModified: 'If-None-Match holds the current ETag (strong or weak, a list, or `*`): no body.',
  rateLimited:
    'Catalog.TooManyReads: more than PUBLIC_READ_MISSES_PER_ADDRESS_PER_MINUTE reads from this address missed the read cache within the minute (cached answers are never refused).',
  ...route,
  handler: (ctx) =>
    publicRead(
      catalogReadCache(ctx, cacheArea),
      (req) => read(ctx, req),
      queryKeysOf(route.query),
      (req) => admitPublicReadMiss(ctx, clientAddress(req)),
    ),
});
