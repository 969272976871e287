// Members of the current organization: any member reads the list; only an Admin changes roles or removes others
// (a member may remove themselves); the last Admin stays (409).
import { z } from 'zod';
import { requireOrganizationAdmin } from '../../../shared/organizations/access.js';
import { changeMemberRole, listMembers, memberNotFound, removeMember } from '../../../shared/organizations/members.js';
import { sendData, sendPage } from '../../http/envelope.js';
import { pathParam, uuidParam } from '../../http/path-params.js';
import { body, query } from '../../http/validate.js';
import { auditActorOf } from '../../middleware/audit-actor.js';
import { inCurrentOrganization, organizationOf } from '../../middleware/organization-access.js';
import { pageFields } from '../../openapi/response-parts.js';
import { defineRoutes } from '../route.js';
import { presentMember } from './organization.presenters.js';
import { memberRemoved, memberRoleChanged, member as memberSchema } from './organization.responses.js';
import { memberRoleBody, membersQuery } from './organization.schemas.js';

const org = { access: 'bearer', dailyQuota: 'shown', organization: true, before: inCurrentOrganization } as const;
const userId = { userId: uuidParam({ notFound: memberNotFound }) };

const lastAdmin = 'Member.LastAdmin: the organization must keep at least one Admin.';

export const memberRoutes = defineRoutes([
  {
    method: 'get',
    path: '/members',
    summary: 'Members of the organization',
    ...org,
    query: membersQuery,
    response: z.array(memberSchema),
    envelopeFields: pageFields,
    handler: (ctx) => async (req, res) => {
      const paging = query(req, membersQuery, 'Member.InvalidQuery');
      const { members, total } = await listMembers(ctx.db, organizationOf(res).organizationId, paging);
      sendPage(res, members.map(presentMember), { total, ...paging });
    },
  },
  {
    method: 'put',
    path: '/members/:userId/role',
    audited: true,
    summary: "Change a member's role",
    ...org,
    params: userId,
    body: memberRoleBody,
    response: memberRoleChanged,
    conflicts: lastAdmin,
    handler: (ctx) => async (req, res) => {
      const access = organizationOf(res);
      requireOrganizationAdmin(access, 'change member roles');
      const { role } = body(req, memberRoleBody, 'Member.Invalid');
      const member = pathParam(req, 'userId');
      sendData(res, await changeMemberRole(ctx, access.organizationId, member, role, auditActorOf(req, res)));
    },
  },
  {
    method: 'delete',
    path: '/members/:userId',
    audited: true,
    summary: 'Remove a member',
    ...org,
    params: userId,
    response: memberRemoved,
    conflicts: lastAdmin,
    handler: (ctx) => async (req, res) => {
      const access = organizationOf(res);
      const member = pathParam(req, 'userId');
      if (member !== access.accountId) requireOrganizationAdmin(access, 'remove members');
      await removeMember(ctx, access.organizationId, member, auditActorOf(req, res));
      sendData(res, { message: 'The member was removed from the organization.', userId: member });
    },
  },
]);
