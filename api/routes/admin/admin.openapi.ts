// OpenAPI paths of platform administration (Admin role).
import type { AreaPaths } from '../../openapi/route-docs.js';
import { documentRoutes } from '../../openapi/route-docs.js';
import { provisionAccountBody, quotaRequestsQuery, rolesBody } from './admin.schemas.js';

const base = '/api/v1/admin';

export const adminPaths: AreaPaths = (registry) =>
  documentRoutes(registry, 'Admin', [
    {
      method: 'post',
      path: `${base}/accounts`,
      summary: 'Provision an account',
      access: 'bearer',
      body: provisionAccountBody,
    },
    {
      method: 'put',
      path: `${base}/accounts/{id}/roles`,
      summary: 'Set the roles of an account',
      access: 'bearer',
      body: rolesBody,
    },
    {
      method: 'get',
      path: `${base}/quota-requests`,
      summary: 'List quota requests',
      access: 'bearer',
      query: quotaRequestsQuery,
    },
    {
      method: 'post',
      path: `${base}/quota-requests/{id}/approve`,
      summary: 'Approve a quota request',
      access: 'bearer',
    },
    { method: 'post', path: `${base}/quota-requests/{id}/reject`, summary: 'Reject a quota request', access: 'bearer' },
  ]);
