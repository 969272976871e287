// Which of the three route families (SPEC section 0) a path belongs to; it decides the error and body shapes.
export type RouteFamily = 'catalog' | 'messages' | 'gateway' | 'organization';

export function routeFamilyOf(path: string): RouteFamily {
  if (path === '/v1/messages' || path.startsWith('/v1/messages/')) return 'messages';
  if (path === '/v1' || path.startsWith('/v1/')) return 'gateway';
  if (/^\/api\/(organization|organizations|projects|project-templates)(\/|$)/.test(path)) return 'organization';
  return 'catalog';
}
