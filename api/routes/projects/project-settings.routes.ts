// A project's members, quota and quota usage. Reading: any member of the organization; changing: the project's
// Owner or an organization Admin.
import { z } from 'zod';
import { notFound } from '../../../shared/errors/app-error.js';
import { requireProjectManager } from '../../../shared/organizations/access.js';
import { memberNotFound } from '../../../shared/organizations/members.js';
import {
  listProjectMembers,
  putProjectMember,
  removeProjectMember,
} from '../../../shared/organizations/project-members.js';
import { getProjectQuota, quotaUsage, setProjectQuota } from '../../../shared/organizations/project-quotas.js';
import { sendData } from '../../http/envelope.js';
import { pathParam, uuidParam } from '../../http/path-params.js';
import { body, query } from '../../http/validate.js';
import { auditActorOf } from '../../middleware/audit-actor.js';
import { projectOf } from '../../middleware/organization-access.js';
import { totalField } from '../../openapi/response-parts.js';
import { memberRemoved } from '../organization/organization.responses.js';
import { defineRoutes } from '../route.js';
import { inProjectRoute } from './project-route.js';
import { presentProjectMember, presentQuota, presentQuotaUsage } from './projects.presenters.js';
import { projectMember, projectQuota, quotaUsage as quotaUsageSchema } from './projects.responses.js';
import { projectMemberBody, quotaBody, quotaUsageQuery } from './projects.schemas.js';

export const projectSettingsRoutes = defineRoutes([
  {
    method: 'get',
    path: '/:projectId/members',
    summary: 'Project members',
    ...inProjectRoute,
    response: z.array(projectMember),
    envelopeFields: totalField,
    handler: (ctx) => async (_req, res) => {
      const members = await listProjectMembers(ctx.db, projectOf(res).project.id);
      sendData(res, members.map(presentProjectMember), 200, { total: members.length });
    },
  },

  {
    method: 'post',
    path: '/:projectId/members',
    audited: true,
    summary: 'Add or update a project member',
    ...inProjectRoute,
    body: projectMemberBody,
    status: 201,
    response: projectMember,
    returns: 'The member was added.',
    alsoSucceeds: { status: 200, when: 'The account was a member already: its role is changed.' },
    handler: (ctx) => async (req, res) => {
      const access = projectOf(res);
      requireProjectManager(access, 'manage project members');
      const { userId, role } = body(req, projectMemberBody, 'ProjectMember.Invalid');
      const { member, created } = await putProjectMember(ctx.db, access.project, userId, role, auditActorOf(req, res));
      sendData(res, presentProjectMember(member), created ? 201 : 200);
    },
  },

  {
    method: 'delete',
    path: '/:projectId/members/:userId',
    audited: true,
    summary: 'Remove a project member',
    ...inProjectRoute,
    params: { ...inProjectRoute.params, userId: uuidParam({ notFound: memberNotFound }) },
    response: memberRemoved,
    handler: (ctx) => async (req, res) => {
      const access = projectOf(res);
      requireProjectManager(access, 'manage project members');
      await removeProjectMember(ctx, access.project, pathParam(req, 'userId'), auditActorOf(req, res));
      sendData(res, { message: 'The member was removed from the project.', userId: pathParam(req, 'userId') });
    },
  },

  {
    method: 'get',
    path: '/:projectId/quota',
    summary: 'Project quota settings',
    ...inProjectRoute,
    response: projectQuota,
    handler: (ctx) => async (_req, res) => {
      const quota = await getProjectQuota(ctx.db, projectOf(res).project.id);
      if (!quota) throw notFound('Quota.NotFound', 'This project has no quota configured: it is not limited.');
      sendData(res, presentQuota(quota));
    },
  },

  {
    method: 'post',
    path: '/:projectId/quota',
    summary: 'Set project quotas',
    ...inProjectRoute,
    body: quotaBody,
    response: projectQuota,
    handler: (ctx) => async (req, res) => {
      const access = projectOf(res);
      requireProjectManager(access, 'configure quotas');
      const input = body(req, quotaBody, 'Quota.Invalid');
      sendData(res, presentQuota(await setProjectQuota(ctx, access.project.id, input)));
    },
  },

  {
    method: 'get',
    path: '/:projectId/quota-usage',
    summary: 'Project quota usage',
    ...inProjectRoute,
    query: quotaUsageQuery,
    response: quotaUsageSchema,
    handler: (ctx) => async (req, res) => {
      const { period } = query(req, quotaUsageQuery, 'Quota.InvalidQuery');
      sendData(res, presentQuotaUsage(await quotaUsage(ctx, projectOf(res).project.id, period)));
    },
  },
]);
