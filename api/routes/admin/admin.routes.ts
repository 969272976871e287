// Admin routes: provision accounts, set roles, decide quota requests.
import { Router } from 'express';
import type { AppContext } from '../../../shared/context.js';
import { assertStrongPassword, createAccount, setRoles } from '../../../shared/identity/accounts.js';
import { decideQuotaRequest, listQuotaRequests } from '../../../shared/identity/quota-requests.js';
import { withoutNulls } from '../../http/json.js';
import { body, pathId, query } from '../../http/validate.js';
import { authenticate, principalOf, requireRole } from '../../middleware/auth.js';
import { presentQuotaRequest } from '../api-keys/api-keys.presenters.js';
import { presentAccount } from '../auth/auth.presenters.js';
import { provisionAccountBody, quotaRequestsQuery, rolesBody } from './admin.schemas.js';

export function adminRoutes(ctx: AppContext): Router {
  const router = Router();
  router.use(authenticate(ctx), requireRole('Admin'));

  router.post('/accounts', async (req, res) => {
    const input = body(req, provisionAccountBody, 'Account.Invalid');
    assertStrongPassword(input.password);
    res.json(presentAccount(await createAccount(ctx, input)));
  });

  router.put('/accounts/:id/roles', async (req, res) => {
    const id = pathId(req, 'id', 'Account.InvalidId');
    const input = body(req, rolesBody, 'Account.InvalidRoles');
    res.json(presentAccount(await setRoles(ctx, id, input.roles)));
  });

  router.get('/quota-requests', async (req, res) => {
    const { status } = query(req, quotaRequestsQuery, 'QuotaRequest.InvalidQuery');
    const rows = await listQuotaRequests(ctx, status);
    res.json(rows.map((r) => ({ ...presentQuotaRequest(r.request), account: withoutNulls(r.account) })));
  });

  for (const [action, decision] of [
    ['approve', 'approved'],
    ['reject', 'rejected'],
  ] as const) {
    router.post(`/quota-requests/:id/${action}`, async (req, res) => {
      const id = pathId(req, 'id', 'QuotaRequest.InvalidId');
      res.json(presentQuotaRequest(await decideQuotaRequest(ctx, id, decision, principalOf(res).accountId)));
    });
  }

  return router;
}
