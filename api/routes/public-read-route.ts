// A public GET route of catalog data (the catalog, the MCP registry): answered from its area's read cache (ETag,
// 304) when it can be, else read, cached and sent.
import type { Request } from 'express';
import type { AppContext } from '../../shared/context.js';
import { type PublicBody, publicRead } from '../http/cacheable.js';
import { catalogReadCache } from '../http/read-cache.js';
import type { Route } from './route.js';

export const publicReadRoute = (
  cacheArea: string,
  route: Omit<Route, 'method' | 'access' | 'handler'>,
  read: (ctx: AppContext, req: Request) => Promise<PublicBody>,
): Route => ({
  method: 'get',
  access: 'public',
  ...route,
  handler: (ctx) => publicRead(catalogReadCache(ctx, cacheArea), (req) => read(ctx, req)),
});
