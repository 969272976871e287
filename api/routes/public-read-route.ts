// A public GET route of catalog data (the catalog, the MCP registry): answered from its area's read cache (ETag,
// 304) when it can be, else read, cached and sent. The cache keys on the query parameters the route declares.
import type { Request } from 'express';
import { z } from 'zod';
import type { AppContext } from '../../shared/context.js';
import { type PublicBody, publicRead } from '../http/cacheable.js';
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
  ...route,
  handler: (ctx) => publicRead(catalogReadCache(ctx, cacheArea), (req) => read(ctx, req), queryKeysOf(route.query)),
});
