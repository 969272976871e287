// OpenAPI path of the local storage driver's file download.
import type { AreaPaths } from '../../openapi/route-docs.js';
import { documentRoutes } from '../../openapi/route-docs.js';

export const filesPaths: AreaPaths = (registry) =>
  documentRoutes(registry, 'Files', [
    {
      method: 'get',
      path: '/files/{key}',
      summary: 'Download a stored object (local storage driver only)',
      access: 'public',
      content: 'binary',
    },
  ]);
