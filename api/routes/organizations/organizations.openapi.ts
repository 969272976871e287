// OpenAPI paths of creating and listing organizations.
import type { AreaPaths } from '../../openapi/route-docs.js';
import { documentRoutes } from '../../openapi/route-docs.js';
import { createOrganizationBody } from '../organization/organization.schemas.js';

export const organizationsPaths: AreaPaths = (registry) =>
  documentRoutes(registry, 'Organizations', [
    {
      method: 'post',
      path: '/api/organizations',
      summary: 'Create an organization',
      access: 'bearer',
      body: createOrganizationBody,
      status: 201,
    },
    { method: 'get', path: '/api/organizations', summary: 'My organizations', access: 'bearer' },
  ]);
