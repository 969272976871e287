// OpenAPI paths of the dashboard cookie step (the bull-board UI and its own API are not part of the document).
import type { AreaPaths } from '../../openapi/route-docs.js';
import { documentRoutes } from '../../openapi/route-docs.js';

export const queueDashboardPaths: AreaPaths = (registry) =>
  documentRoutes(registry, 'Operations', [
    {
      method: 'post',
      path: '/admin/session',
      summary: 'Set the queue dashboard cookie from an Admin console session (API keys refused)',
      access: 'session',
      status: 204,
      content: 'none',
      returns: 'The HttpOnly, SameSite=Strict cookie is set for /admin.',
    },
    {
      method: 'delete',
      path: '/admin/session',
      summary: 'Clear the queue dashboard cookie',
      access: 'public',
      status: 204,
      content: 'none',
    },
  ]);
