// OpenAPI paths of projects, their members and quotas.
import type { AreaPaths } from '../../openapi/route-docs.js';
import { documentRoutes } from '../../openapi/route-docs.js';
import {
  createProjectBody,
  fromTemplateBody,
  projectMemberBody,
  projectsQuery,
  quotaBody,
  quotaUsageQuery,
} from './projects.schemas.js';

const base = '/api/projects';
const org = { access: 'bearer', organization: true } as const;

export const projectsPaths: AreaPaths = (registry) =>
  documentRoutes(registry, 'Projects', [
    { method: 'post', path: base, summary: 'Create a project', ...org, body: createProjectBody, status: 201 },
    {
      method: 'post',
      path: `${base}/from-template`,
      summary: 'Create a project from a template',
      ...org,
      body: fromTemplateBody,
      status: 201,
    },
    { method: 'get', path: base, summary: 'Projects of the organization', ...org, query: projectsQuery },
    { method: 'get', path: `${base}/{projectId}`, summary: 'A project', access: 'bearer' },
    { method: 'delete', path: `${base}/{projectId}`, summary: 'Delete a project', access: 'bearer' },
    { method: 'get', path: `${base}/{projectId}/members`, summary: 'Project members', access: 'bearer' },
    {
      method: 'post',
      path: `${base}/{projectId}/members`,
      summary: 'Add or update a project member',
      access: 'bearer',
      body: projectMemberBody,
    },
    {
      method: 'delete',
      path: `${base}/{projectId}/members/{userId}`,
      summary: 'Remove a project member',
      access: 'bearer',
    },
    { method: 'get', path: `${base}/{projectId}/quota`, summary: 'Project quota settings', access: 'bearer' },
    {
      method: 'post',
      path: `${base}/{projectId}/quota`,
      summary: 'Set project quotas',
      access: 'bearer',
      body: quotaBody,
    },
    {
      method: 'get',
      path: `${base}/{projectId}/quota-usage`,
      summary: 'Project quota usage',
      access: 'bearer',
      query: quotaUsageQuery,
    },
  ]);
