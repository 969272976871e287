// A project's members, quota and quota usage. Reading: any member of the organization; changing: the project's
// Owner or an organization Admin.
import { Router } from 'express';
import type { AppContext } from '../../../shared/context.js';
import { notFound } from '../../../shared/errors/app-error.js';
import { requireProjectManager } from '../../../shared/organizations/access.js';
import {
  listProjectMembers,
  putProjectMember,
  removeProjectMember,
} from '../../../shared/organizations/project-members.js';
import { getProjectQuota, quotaUsage, setProjectQuota } from '../../../shared/organizations/project-quotas.js';
import { sendData } from '../../http/envelope.js';
import { body, query } from '../../http/validate.js';
import { projectOf, projectParam } from '../../middleware/organization-access.js';
import { presentProjectMember, presentQuota, presentQuotaUsage } from './projects.presenters.js';
import { projectMemberBody, quotaBody, quotaUsageQuery } from './projects.schemas.js';

export function projectSettingsRoutes(ctx: AppContext): Router {
  const router = Router();
  router.param('projectId', projectParam(ctx));

  router.get('/:projectId/members', async (_req, res) => {
    const members = await listProjectMembers(ctx.db, projectOf(res).project.id);
    sendData(res, members.map(presentProjectMember), 200, { total: members.length });
  });

  router.post('/:projectId/members', async (req, res) => {
    const access = projectOf(res);
    requireProjectManager(access, 'manage project members');
    const { userId, role } = body(req, projectMemberBody, 'ProjectMember.Invalid');
    const { member, created } = await putProjectMember(ctx.db, access.project, userId, role);
    sendData(res, presentProjectMember(member), created ? 201 : 200);
  });

  router.delete('/:projectId/members/:userId', async (req, res) => {
    const access = projectOf(res);
    requireProjectManager(access, 'manage project members');
    await removeProjectMember(ctx.db, access.project.id, req.params.userId);
    sendData(res, { message: 'The member was removed from the project.', userId: req.params.userId });
  });

  router.get('/:projectId/quota', async (_req, res) => {
    const quota = await getProjectQuota(ctx.db, projectOf(res).project.id);
    if (!quota) throw notFound('Quota.NotFound', 'This project has no quota configured: it is not limited.');
    sendData(res, presentQuota(quota));
  });

  router.post('/:projectId/quota', async (req, res) => {
    const access = projectOf(res);
    requireProjectManager(access, 'configure quotas');
    const input = body(req, quotaBody, 'Quota.Invalid');
    sendData(res, presentQuota(await setProjectQuota(ctx, access.project.id, input)));
  });

  router.get('/:projectId/quota-usage', async (req, res) => {
    const { period } = query(req, quotaUsageQuery, 'Quota.InvalidQuery');
    sendData(res, presentQuotaUsage(await quotaUsage(ctx, projectOf(res).project.id, period)));
  });

  return router;
}
