// Lists every route an Express app answers (method and OpenAPI-style path) by walking its router stack, so a
// test can hold the OpenAPI document (and the fuzzer) to the routes that really exist. Mounted sub-applications
// (the bull-board dashboard under /admin/queues) are not walked: they are not part of the public API.
import type { Express } from 'express';

export type AppRoute = { method: string; path: string };

type Layer = {
  rawPath?: string | string[];
  slash?: boolean;
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
};

/** Express path syntax to OpenAPI: `/a/:id` → `/a/{id}`, `/files/*key` → `/files/{key}`. */
export function openApiPath(expressPath: string): string {
  return expressPath.replace(/[:*]([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
}

function walk(stack: Layer[], prefix: string, out: AppRoute[]): void {
  for (const layer of stack) {
    if (layer.route) {
      const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
      for (const path of paths) {
        for (const method of Object.keys(layer.route.methods)) {
          if (method === '_all') continue;
          out.push({ method, path: openApiPath(`${prefix}${path}`.replace(/\/$/, '') || '/') });
        }
      }
    } else if (layer.handle?.stack) {
      const mount = layer.slash || typeof layer.rawPath !== 'string' ? '' : layer.rawPath;
      walk(layer.handle.stack, `${prefix}${mount === '/' ? '' : mount}`, out);
    }
  }
}

export function listRoutes(app: Express): AppRoute[] {
  const out: AppRoute[] = [];
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, '', out);
  const seen = new Set<string>();
  return out.filter((r) => {
    const key = `${r.method} ${r.path}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
