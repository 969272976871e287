// Admin routes (platform Admin role): provision accounts, set roles, decide quota requests, issue top-up codes,
// read the audit log; the directory of accounts and organizations.
import { z } from 'zod';
import { assertStrongPassword, provisionAccount, setRoles } from '../../../shared/identity/accounts.js';
import { decideQuotaRequest, listQuotaRequests } from '../../../shared/identity/quota-requests.js';
import { withoutNulls } from '../../http/json.js';
import { pathParam, uuidParam } from '../../http/path-params.js';
import { body, query } from '../../http/validate.js';
import { auditActorOf } from '../../middleware/audit-actor.js';
import { authenticate, requireRole } from '../../middleware/auth.js';
import { hashingBusy } from '../../openapi/limit-notes.js';
import { presentQuotaRequest } from '../api-keys/api-keys.presenters.js';
import { quotaRequest } from '../api-keys/api-keys.responses.js';
import { adminAuditLogRoute } from '../audit-log/audit-log.routes.js';
import { presentAccount } from '../auth/auth.presenters.js';
import type { Area, Route } from '../route.js';
import { account, quotaRequestWithAccount } from './admin.responses.js';
import { provisionAccountBody, quotaRequestsQuery, rolesBody } from './admin.schemas.js';
import { adminDirectoryRoutes } from './admin-directory.routes.js';
import { topUpCodeRoutes } from './top-up-codes.routes.js';

const admin = { access: 'bearer', dailyQuota: 'counted' } as const;

const decisionRoutes = (['approve', 'reject'] as const).map(
  (action): Route => ({
    method: 'post',
    path: `/quota-requests/:id/${action}`,
    audited: true,
    summary: action === 'approve' ? 'Approve a quota request' : 'Reject a quota request',
    ...admin,
    params: { id: uuidParam({ invalid: 'QuotaRequest.InvalidId' }) },
    response: quotaRequest,
    handler: (ctx) => async (req, res) => {
      const decision = action === 'approve' ? 'approved' : 'rejected';
      const id = pathParam(req, 'id');
      res.json(presentQuotaRequest(await decideQuotaRequest(ctx, id, decision, auditActorOf(req, res))));
    },
  }),
);

export const adminArea: Area = {
  tag: 'Admin',
  before: (ctx, route) => [authenticate(ctx, route), requireRole('Admin')],
  routes: [
    ...adminDirectoryRoutes,
    {
      method: 'post',
      path: '/accounts',
      audited: true,
      summary: 'Provision an account',
      ...admin,
      body: provisionAccountBody,
      response: account,
      busy: hashingBusy,
      handler: (ctx) => async (req, res) => {
        const input = body(req, provisionAccountBody, 'Account.Invalid');
        assertStrongPassword(input.password);
        res.json(presentAccount(await provisionAccount(ctx, input, auditActorOf(req, res))));
      },
    },
    {
      method: 'put',
      path: '/accounts/:id/roles',
      audited: true,
      summary: 'Set the roles of an account',
      ...admin,
      params: { id: uuidParam({ invalid: 'Account.InvalidId' }) },
      body: rolesBody,
      response: account,
      handler: (ctx) => async (req, res) => {
        const input = body(req, rolesBody, 'Account.InvalidRoles');
        res.json(presentAccount(await setRoles(ctx, pathParam(req, 'id'), input.roles, auditActorOf(req, res))));
      },
    },
    {
      method: 'get',
      path: '/quota-requests',
      summary: 'List quota requests',
      ...admin,
      query: quotaRequestsQuery,
      response: z.array(quotaRequestWithAccount),
      handler: (ctx) => async (req, res) => {
        const { status } = query(req, quotaRequestsQuery, 'QuotaRequest.InvalidQuery');
        const rows = await listQuotaRequests(ctx, status);
        res.json(rows.map((r) => ({ ...presentQuotaRequest(r.request), account: withoutNulls(r.account) })));
      },
    },
    ...decisionRoutes,
    ...topUpCodeRoutes,
    adminAuditLogRoute,
  ],
};
