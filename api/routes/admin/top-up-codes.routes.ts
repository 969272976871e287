// `/api/v1/admin/top-up-codes` (platform Admin; guarded by the admin area): issue codes (each shown once), list
// them, revoke one nobody redeemed. Organizations redeem them at POST /api/organization/wallet/redeem.
import { DEFAULT_CODE_LIFETIME_DAYS } from '../../../shared/wallet/top-up-code-rules.js';
import { issueTopUpCodes, listTopUpCodes, revokeTopUpCode } from '../../../shared/wallet/top-up-codes.js';
import { pathParam, uuidParam } from '../../http/path-params.js';
import { body, query } from '../../http/validate.js';
import { auditActorOf } from '../../middleware/audit-actor.js';
import { principalOf } from '../../middleware/auth.js';
import { defineRoutes } from '../route.js';
import { presentIssuedTopUpCode, presentListedTopUpCode, presentTopUpCode } from './top-up-codes.presenters.js';
import { issuedTopUpCodes, topUpCode, topUpCodePage } from './top-up-codes.responses.js';
import { issueTopUpCodesBody, topUpCodesQuery } from './top-up-codes.schemas.js';

const admin = { access: 'bearer', dailyQuota: 'counted' } as const;

export const topUpCodeRoutes = defineRoutes([
  {
    method: 'post',
    path: '/top-up-codes',
    audited: true,
    summary: 'Issue top-up codes (amount, count, expiry); each code is in this answer only',
    ...admin,
    body: issueTopUpCodesBody,
    status: 201,
    response: issuedTopUpCodes,
    handler: (ctx) => async (req, res) => {
      const input = body(req, issueTopUpCodesBody, 'TopUpCode.Invalid');
      const issued = await issueTopUpCodes(ctx.db, ctx.config, {
        amount: input.amount,
        count: input.count,
        expiresAt: input.expiresAt ?? new Date(Date.now() + DEFAULT_CODE_LIFETIME_DAYS * 86_400_000),
        ...(input.description ? { description: input.description } : {}),
        createdBy: principalOf(res).accountId,
        audit: auditActorOf(req, res),
      });
      res.status(201).json({ batchId: issued.batchId, codes: issued.codes.map(presentIssuedTopUpCode) });
    },
  },
  {
    method: 'get',
    path: '/top-up-codes',
    summary: 'List top-up codes',
    ...admin,
    query: topUpCodesQuery,
    response: topUpCodePage,
    handler: (ctx) => async (req, res) => {
      const page = await listTopUpCodes(ctx.db, query(req, topUpCodesQuery, 'TopUpCode.InvalidQuery'));
      res.json({ ...page, items: page.items.map(presentListedTopUpCode) });
    },
  },
  {
    method: 'post',
    path: '/top-up-codes/:id/revoke',
    audited: true,
    summary: 'Revoke a top-up code nobody redeemed',
    ...admin,
    params: { id: uuidParam({ invalid: 'TopUpCode.InvalidId' }) },
    response: topUpCode,
    handler: (ctx) => async (req, res) => {
      res.json(presentTopUpCode(await revokeTopUpCode(ctx.db, pathParam(req, 'id'), auditActorOf(req, res))));
    },
  },
]);
