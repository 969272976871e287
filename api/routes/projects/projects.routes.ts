// `/api/projects`: create (also from a template) and list in the current organization; read and delete one.
// A project route takes its organization from the project: a caller outside it gets 404.
import { Router } from 'express';
import type { AppContext } from '../../../shared/context.js';
import { requireOrganizationAdmin, requireProjectManager } from '../../../shared/organizations/access.js';
import { createProjectFromTemplate } from '../../../shared/organizations/project-from-template.js';
import { createProject, deleteProject, listProjects } from '../../../shared/organizations/projects.js';
import { sendData, sendPage } from '../../http/envelope.js';
import { body, query } from '../../http/validate.js';
import { authenticate, principalOf } from '../../middleware/auth.js';
import { currentOrganization, organizationOf, projectOf, projectParam } from '../../middleware/organization-access.js';
import { projectSettingsRoutes } from './project-settings.routes.js';
import { presentProject, presentProjectFromTemplate } from './projects.presenters.js';
import { createProjectBody, fromTemplateBody, projectsQuery } from './projects.schemas.js';

/** Everything under `/api/projects`, authenticated once. */
export function projectRoutes(ctx: AppContext): Router {
  const router = Router();
  router.use(authenticate(ctx));
  router.use(projectLifecycleRoutes(ctx));
  router.use(projectSettingsRoutes(ctx));
  return router;
}

function projectLifecycleRoutes(ctx: AppContext): Router {
  const router = Router();
  router.param('projectId', projectParam(ctx));
  const namedOrganization = currentOrganization(ctx, { fromBody: true });

  router.post('/', namedOrganization, async (req, res) => {
    const access = organizationOf(res);
    requireOrganizationAdmin(access, 'create projects');
    const input = body(req, createProjectBody, 'Project.Invalid');
    sendData(res, presentProject(await createProject(ctx, access.organizationId, access.accountId, input)), 201);
  });

  router.post('/from-template', namedOrganization, async (req, res) => {
    const access = organizationOf(res);
    requireOrganizationAdmin(access, 'create projects');
    const input = body(req, fromTemplateBody, 'Project.Invalid');
    const created = await createProjectFromTemplate(ctx, access.organizationId, access.accountId, input);
    sendData(res, presentProjectFromTemplate(created), 201);
  });

  router.get('/', currentOrganization(ctx), async (req, res) => {
    const options = query(req, projectsQuery, 'Project.InvalidQuery');
    const { projects, total } = await listProjects(
      ctx.db,
      organizationOf(res).organizationId,
      principalOf(res).accountId,
      options,
    );
    sendPage(res, projects.map(presentProject), { total, page: options.page, size: options.size });
  });

  router.get('/:projectId', (_req, res) => {
    sendData(res, presentProject(projectOf(res).project));
  });

  router.delete('/:projectId', async (_req, res) => {
    const access = projectOf(res);
    requireProjectManager(access, 'delete the project');
    await deleteProject(ctx, access.project.id);
    sendData(res, { message: 'The project was deleted.', id: access.project.id });
  });

  return router;
}
