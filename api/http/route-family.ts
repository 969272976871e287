// Which of the route families (SPEC section 0) a path belongs to; it decides the error and body shapes. The family
// of each prefix is declared once, beside the area mounted there (api/routes/areas.ts): the longest matching
// prefix decides, and a path under no prefix is the catalog's.
import type { Request } from 'express';
import { mountedAreas } from '../routes/areas.js';

export type RouteFamily = 'catalog' | 'messages' | 'gateway' | 'organization' | 'mcpRegistry';

type Prefix = { pattern: RegExp; length: number; family: RouteFamily };

let prefixes: Prefix[] | undefined;

/** Built on first use: areas.ts imports every area, some of which import this module. */
export function prefixTable(): Prefix[] {
  prefixes ??= mountedAreas
    .filter((m) => m.prefix !== '')
    .map(({ prefix, family }) => ({
      // Without regard to letter case, as Express matches the mount prefixes.
      pattern: new RegExp(`^${prefix.replace(/\./g, '\\.').replace(/:\w+/g, '[^/]+')}(/|$)`, 'i'),
      length: prefix.length,
      family,
    }))
    .sort((a, b) => b.length - a.length);
  return prefixes;
}

export function routeFamilyOf(path: string): RouteFamily {
  return prefixTable().find((p) => p.pattern.test(path))?.family ?? 'catalog';
}

/** The Models API speaks both dialects: an Anthropic client (it always sends `anthropic-version`) gets its errors
 * in Anthropic's shape there, everyone else in the gateway's OpenAI shape. */
export function routeFamilyOfRequest(req: Request): RouteFamily {
  const family = routeFamilyOf(req.path);
  const models = family === 'gateway' && /^\/v1\/models(\/|$)/i.test(req.path);
  return models && req.header('anthropic-version') !== undefined ? 'messages' : family;
}
