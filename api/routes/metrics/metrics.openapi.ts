// OpenAPI path of the Prometheus scrape endpoint.
import type { AreaPaths } from '../../openapi/route-docs.js';
import { documentRoutes } from '../../openapi/route-docs.js';

export const metricsPaths: AreaPaths = (registry) =>
  documentRoutes(registry, 'Operations', [
    {
      method: 'get',
      path: '/metrics',
      summary: 'Prometheus metrics (text format); 404 when METRICS_TOKEN is not set',
      access: 'metrics',
      content: 'text',
    },
  ]);
