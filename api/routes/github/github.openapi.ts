// OpenAPI path of the cached GitHub star count.
import type { AreaPaths } from '../../openapi/route-docs.js';
import { documentRoutes } from '../../openapi/route-docs.js';

export const githubPaths: AreaPaths = (registry) =>
  documentRoutes(registry, 'Catalog', [
    { method: 'get', path: '/api/v1/github/stars', summary: 'Star count of the project repository', access: 'public' },
  ]);
