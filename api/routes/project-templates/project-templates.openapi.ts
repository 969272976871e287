// OpenAPI paths of project templates.
import type { AreaPaths } from '../../openapi/route-docs.js';
import { documentRoutes } from '../../openapi/route-docs.js';
import { templateBody, templatesQuery } from './project-templates.schemas.js';

export const projectTemplatesPaths: AreaPaths = (registry) =>
  documentRoutes(registry, 'Projects', [
    {
      method: 'get',
      path: '/api/project-templates',
      summary: 'System and organization templates',
      access: 'bearer',
      organization: true,
      query: templatesQuery,
    },
    {
      method: 'post',
      path: '/api/project-templates',
      summary: 'Create an organization template',
      access: 'bearer',
      organization: true,
      body: templateBody,
      status: 201,
    },
  ]);
