// OpenAPI paths of the document itself and its interactive page.
import type { AreaPaths } from '../../openapi/route-docs.js';
import { documentRoutes } from '../../openapi/route-docs.js';

export const apiDocsPaths: AreaPaths = (registry) =>
  documentRoutes(registry, 'Operations', [
    { method: 'get', path: '/openapi.json', summary: 'This OpenAPI 3.1 document', access: 'public' },
    {
      method: 'get',
      path: '/docs',
      summary: 'Interactive API reference (Swagger UI)',
      access: 'public',
      content: 'html',
    },
  ]);
