// Builds the Express router of each area from its route declarations, in the order api/routes/areas.ts gives, and
// hands back the chains of the routes declared `hotPath` for the direct lane (api/http/direct-lane.ts).
import { type Express, type RequestHandler, Router } from 'express';
import type { AppContext } from '../../shared/context.js';
import type { LeanAnswer } from '../http/lean-lane.js';
import { auditedChangeAllowance } from '../middleware/audit-actor.js';
import { type MountedArea, mountedAreas } from './areas.js';
import type { Area, Route } from './route.js';

const signedInAccess = new Set(['bearer', 'optional-bearer', 'session']);

/** Checks the declared path parameters; the handler then reads them with `pathParam`. */
function pathParamsCheck(route: Route): RequestHandler[] {
  const params = Object.entries(route.params ?? {});
  if (params.length === 0) return [];
  return [
    (req, _res, next) => {
      for (const [name, param] of params) {
        const result = param.schema.safeParse(req.params[name]);
        if (!result.success) throw param.refused(req, result.error);
      }
      next();
    },
  ];
}

/** A hot route's full path, checked to be literal: the direct lane matches it exactly. */
function hotPathOf(area: Area, route: Route, where: string): string {
  const path = where + (route.path === '/' ? '' : route.path);
  if (area.middleware || area.trailingMiddleware || /[:*?(]/.test(path)) {
    throw new Error(`${route.method.toUpperCase()} ${path}: a hot path needs a literal path and no area middleware`);
  }
  return path;
}

/** A hot route as the router mounts it, with its lean answer if it has one. */
export type HotRoute = { method: string; path: string; chain: RequestHandler[]; leanAnswer?: LeanAnswer };

/** The lean answer skips the route's chain: only a route whose chain is its handler alone may have one. */
function leanOf(area: Area, route: Route, ctx: AppContext): { leanAnswer?: LeanAnswer } {
  if (!route.lean) return {};
  if (!route.hotPath || area.before || route.before || route.params) {
    throw new Error(
      `${route.method.toUpperCase()} ${route.path}: a lean answer needs a hot path, no before and no params`,
    );
  }
  return { leanAnswer: route.lean(ctx) };
}

export function areaRouter(area: Area, ctx: AppContext, where: string, hot: HotRoute[] = []): Router {
  // mergeParams: the catalog's prefix carries {type}.
  const router = Router({ mergeParams: true });
  area.middleware?.(router, ctx);
  for (const route of area.routes) {
    if (signedInAccess.has(route.access) && route.dailyQuota === undefined) {
      throw new Error(`${route.method.toUpperCase()} ${where}${route.path}: declare its dailyQuota`);
    }
    const chain = [
      ...(area.before?.(ctx, route) ?? []),
      ...(route.before?.(ctx, route) ?? []),
      ...pathParamsCheck(route),
      ...(route.audited ? [auditedChangeAllowance(ctx)] : []),
      route.handler(ctx),
    ];
    router[route.method](route.path, ...chain);
    if (route.hotPath)
      hot.push({ method: route.method, path: hotPathOf(area, route, where), chain, ...leanOf(area, route, ctx) });
  }
  area.trailingMiddleware?.(router, ctx);
  return router;
}

function mount(app: Express, ctx: AppContext, { prefix, area }: MountedArea, hot: HotRoute[]): void {
  if (area.enabled && !area.enabled(ctx)) return;
  const router = areaRouter(area, ctx, prefix, hot);
  if (prefix === '') app.use(router);
  else app.use(prefix, router);
}

/**
 * Mounts every area; returns the hot routes with what each runs after the application-level middleware. A hot
 * route's area must come before any area that could take its path first in the router (one mounted at '' or at a
 * prefix with parameters, or one with router middleware): the direct lane runs none of them.
 */
export function mountAreas(app: Express, ctx: AppContext, areas: MountedArea[] = mountedAreas): HotRoute[] {
  const hot: HotRoute[] = [];
  let coveringArea: string | undefined;
  for (const mounted of areas) {
    const before = hot.length;
    mount(app, ctx, mounted, hot);
    if (hot.length > before && coveringArea !== undefined) {
      throw new Error(`${hot[before]?.path}: its area must be mounted before '${coveringArea}' (a hot path)`);
    }
    if (mounted.prefix === '' || mounted.prefix.includes(':') || mounted.area.middleware) {
      coveringArea ??= mounted.prefix;
    }
  }
  return hot;
}
