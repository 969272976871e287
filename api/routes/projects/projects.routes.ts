// `/api/projects`: create (also from a template) and list in the current organization; read and delete one.
// A project route takes its organization from the project: a caller outside it gets 404. The project's
// settings, activity and keys are in the neighbouring files; this area mounts them all.

import { z } from 'zod';
import { MAX_API_KEYS_PER_ACCOUNT } from '../../../shared/identity/api-keys.js';
import { requireOrganizationAdmin, requireProjectManager } from '../../../shared/organizations/access.js';
import { MAX_PROJECTS_PER_ORGANIZATION } from '../../../shared/organizations/organization-limits.js';
import { createProjectFromTemplate } from '../../../shared/organizations/project-from-template.js';
import { createProject, deleteProject, listProjects } from '../../../shared/organizations/projects.js';
import { sendData, sendPage } from '../../http/envelope.js';
import { body, query } from '../../http/validate.js';
import { auditActorOf } from '../../middleware/audit-actor.js';
import { authenticate, principalOf } from '../../middleware/auth.js';
import {
  currentOrganization,
  inCurrentOrganization,
  organizationOf,
  projectOf,
} from '../../middleware/organization-access.js';
import { pageFields } from '../../openapi/response-parts.js';
import type { Area, Before } from '../route.js';
import { projectActivityRoutes } from './project-activity.routes.js';
import { projectKeyRoutes } from './project-keys.routes.js';
import { projectModelRoutes } from './project-models.routes.js';
import { inProjectRoute } from './project-route.js';
import { projectSettingsRoutes } from './project-settings.routes.js';
import { presentProject, presentProjectFromTemplate } from './projects.presenters.js';
import { project, projectDeleted, projectFromTemplate } from './projects.responses.js';
import { createProjectBody, fromTemplateBody, projectsQuery } from './projects.schemas.js';

/** Project creation names its organization in the body (`organizationId`), else the header. */
const inNamedOrganization: Before = (ctx, route) => [
  authenticate(ctx, route),
  currentOrganization(ctx, { fromBody: true }),
];
const org = { access: 'bearer', dailyQuota: 'shown', organization: true } as const;
const projectLimitConflict = `Project.LimitReached: the organization already holds ${MAX_PROJECTS_PER_ORGANIZATION.toLocaleString('en')} projects.`;

export const projectsArea: Area = {
  tag: 'Projects',
  routes: [
    {
      method: 'post',
      path: '/',
      summary: 'Create a project',
      ...org,
      before: inNamedOrganization,
      body: createProjectBody,
      status: 201,
      conflicts: projectLimitConflict,
      response: project,
      handler: (ctx) => async (req, res) => {
        const access = organizationOf(res);
        requireOrganizationAdmin(access, 'create projects');
        const input = body(req, createProjectBody, 'Project.Invalid');
        sendData(res, presentProject(await createProject(ctx, access.organizationId, access.accountId, input)), 201);
      },
    },
    {
      method: 'post',
      path: '/from-template',
      audited: true,
      summary: 'Create a project from a template',
      ...org,
      before: inNamedOrganization,
      body: fromTemplateBody,
      status: 201,
      response: projectFromTemplate,
      notFound:
        "Template.NotFound: no built-in or public template, or template of the caller's organization, has this id.",
      conflicts: `${projectLimitConflict} ApiKey.LimitReached: the caller already holds ${MAX_API_KEYS_PER_ACCOUNT} API keys (the project's key would pass the limit; nothing is created).`,
      handler: (ctx) => async (req, res) => {
        const access = organizationOf(res);
        requireOrganizationAdmin(access, 'create projects');
        const input = body(req, fromTemplateBody, 'Project.Invalid');
        const created = await createProjectFromTemplate(
          ctx,
          access.organizationId,
          access.accountId,
          input,
          auditActorOf(req, res),
        );
        sendData(res, presentProjectFromTemplate(created), 201);
      },
    },
    {
      method: 'get',
      path: '/',
      summary: 'Projects of the organization',
      ...org,
      before: inCurrentOrganization,
      query: projectsQuery,
      response: z.array(project),
      envelopeFields: pageFields,
      handler: (ctx) => async (req, res) => {
        const options = query(req, projectsQuery, 'Project.InvalidQuery');
        const { projects, total } = await listProjects(
          ctx.db,
          organizationOf(res).organizationId,
          principalOf(res).accountId,
          options,
        );
        sendPage(res, projects.map(presentProject), { total, page: options.page, size: options.size });
      },
    },
    {
      method: 'get',
      path: '/:projectId',
      summary: 'A project',
      ...inProjectRoute,
      response: project,
      handler: () => (_req, res) => {
        sendData(res, presentProject(projectOf(res).project));
      },
    },
    {
      method: 'delete',
      path: '/:projectId',
      summary: 'Delete a project',
      ...inProjectRoute,
      response: projectDeleted,
      handler: (ctx) => async (_req, res) => {
        const access = projectOf(res);
        requireProjectManager(access, 'delete the project');
        await deleteProject(ctx, access.project.id);
        sendData(res, { message: 'The project was deleted.', id: access.project.id });
      },
    },
    ...projectSettingsRoutes,
    ...projectActivityRoutes,
    ...projectModelRoutes,
    ...projectKeyRoutes,
  ],
};
