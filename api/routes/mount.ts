// Builds the Express router of each area from its route declarations, in the order api/routes/areas.ts gives.
import { type Express, type RequestHandler, Router } from 'express';
import type { AppContext } from '../../shared/context.js';
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

export function areaRouter(area: Area, ctx: AppContext, where: string): Router {
  // mergeParams: the catalog's prefix carries {type}.
  const router = Router({ mergeParams: true });
  area.middleware?.(router, ctx);
  for (const route of area.routes) {
    if (signedInAccess.has(route.access) && route.dailyQuota === undefined) {
      throw new Error(`${route.method.toUpperCase()} ${where}${route.path}: declare its dailyQuota`);
    }
    router[route.method](
      route.path,
      ...(area.before?.(ctx, route) ?? []),
      ...(route.before?.(ctx, route) ?? []),
      ...pathParamsCheck(route),
      route.handler(ctx),
    );
  }
  area.trailingMiddleware?.(router, ctx);
  return router;
}

function mount(app: Express, ctx: AppContext, { prefix, area }: MountedArea): void {
  if (area.enabled && !area.enabled(ctx)) return;
  const router = areaRouter(area, ctx, prefix);
  if (prefix === '') app.use(router);
  else app.use(prefix, router);
}

export function mountAreas(app: Express, ctx: AppContext): void {
  for (const mounted of mountedAreas) mount(app, ctx, mounted);
}
