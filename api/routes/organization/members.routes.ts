// Members of the current organization: any member reads the list; only an Admin changes roles or removes others
// (a member may remove themselves); the last Admin stays (409).
import { Router } from 'express';
import type { AppContext } from '../../../shared/context.js';
import { requireOrganizationAdmin } from '../../../shared/organizations/access.js';
import { changeMemberRole, listMembers, removeMember } from '../../../shared/organizations/members.js';
import { sendData, sendPage } from '../../http/envelope.js';
import { body, query } from '../../http/validate.js';
import { organizationOf } from '../../middleware/organization-access.js';
import { presentMember } from './organization.presenters.js';
import { memberRoleBody, membersQuery } from './organization.schemas.js';

export function memberRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/members', async (req, res) => {
    const paging = query(req, membersQuery, 'Member.InvalidQuery');
    const { members, total } = await listMembers(ctx.db, organizationOf(res).organizationId, paging);
    sendPage(res, members.map(presentMember), { total, ...paging });
  });

  router.put('/members/:userId/role', async (req, res) => {
    const access = organizationOf(res);
    requireOrganizationAdmin(access, 'change member roles');
    const { role } = body(req, memberRoleBody, 'Member.Invalid');
    sendData(res, await changeMemberRole(ctx, access.organizationId, req.params.userId, role));
  });

  router.delete('/members/:userId', async (req, res) => {
    const access = organizationOf(res);
    if (req.params.userId !== access.accountId) requireOrganizationAdmin(access, 'remove members');
    await removeMember(ctx, access.organizationId, req.params.userId);
    sendData(res, { message: 'The member was removed from the organization.', userId: req.params.userId });
  });

  return router;
}
