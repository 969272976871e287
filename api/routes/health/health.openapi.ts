// OpenAPI paths of the liveness and readiness probes.
import type { AreaPaths } from '../../openapi/route-docs.js';
import { documentRoutes } from '../../openapi/route-docs.js';

export const healthPaths: AreaPaths = (registry) =>
  documentRoutes(registry, 'Operations', [
    {
      method: 'get',
      path: '/health',
      summary: 'Liveness: "ok" while the process runs',
      access: 'public',
      content: 'text',
    },
    {
      method: 'get',
      path: '/ready',
      summary: 'Readiness: PostgreSQL and Redis reachable (503 otherwise)',
      access: 'public',
    },
  ]);
