// OpenAPI path of anonymous usage telemetry.
import type { AreaPaths } from '../../openapi/route-docs.js';
import { documentRoutes } from '../../openapi/route-docs.js';
import { telemetryBody } from './telemetry.schemas.js';

export const telemetryPaths: AreaPaths = (registry) =>
  documentRoutes(registry, 'Catalog', [
    {
      method: 'post',
      path: '/api/v1/telemetry',
      summary: 'Record an anonymous usage event',
      access: 'public',
      body: telemetryBody,
    },
  ]);
