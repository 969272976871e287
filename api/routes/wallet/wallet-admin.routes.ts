// The wallet routes of the platform Admin (account role `Admin`), who need not be a member of the organization:
// `POST /api/organization/wallet/recharge` creates money in a wallet (organization Owners and Admins redeem top-up
// codes instead, SPEC section 4) and `POST /api/organization/wallet/records/{id}/refund` refunds a Consume record.

import type { Request, RequestHandler } from 'express';
import type { AppContext } from '../../../shared/context.js';
import { forbidden, notFound } from '../../../shared/errors/app-error.js';
import { parseOrThrow } from '../../../shared/errors/validation.js';
import { idempotencyKeyHeader } from '../../../shared/idempotency/idempotency-claims.js';
import { organizationNotFound, resolveCurrentOrganization } from '../../../shared/organizations/organizations.js';
import { isUuid } from '../../../shared/validation/uuid.js';
import { rechargeWithIdempotencyKey } from '../../../shared/wallet/ledger.js';
import { refund } from '../../../shared/wallet/refunds.js';
import { sendData } from '../../http/envelope.js';
import { pathParam, uuidParam } from '../../http/path-params.js';
import { body } from '../../http/validate.js';
import { auditActorOf } from '../../middleware/audit-actor.js';
import { authenticate, principalOf, requireRole } from '../../middleware/auth.js';
import { defineRoutes } from '../route.js';
import { presentRecord } from './wallet.presenters.js';
import { walletRecord } from './wallet.responses.js';
import { rechargeBody, refundBody } from './wallet.schemas.js';

/** The wallet a platform Admin recharges: `X-Organization-Id`, else the Admin's only organization. */
async function rechargedOrganization(ctx: AppContext, req: Request, accountId: string): Promise<string> {
  const requested = req.header('x-organization-id');
  if (requested) {
    if (!isUuid(requested)) throw organizationNotFound();
    return requested;
  }
  return (await resolveCurrentOrganization(ctx.db, accountId, undefined)).organizationId;
}

const rechargeAdmin: RequestHandler = (_req, res, next) => {
  if (!principalOf(res).roles.includes('Admin')) {
    throw forbidden(
      'Recharging creates money: only a platform Admin may. Organization Admins redeem a top-up code at ' +
        'POST /api/organization/wallet/redeem.',
    );
  }
  next();
};

export const walletAdminRoutes = defineRoutes([
  {
    method: 'post',
    path: '/recharge',
    audited: true,
    summary:
      'Recharge a wallet (platform Admin only: organization Owners and Admins get 403 and redeem top-up codes; ' +
      'X-Organization-Id names the wallet; Idempotency-Key honoured)',
    access: 'bearer',
    dailyQuota: 'shown',
    organization: true,
    body: rechargeBody,
    response: walletRecord,
    status: 201,
    alsoSucceeds: { status: 200, when: 'A repeat of a request with this Idempotency-Key: its Recharge record again.' },
    idempotencyKey: true,
    before: (ctx, route) => [authenticate(ctx, route), rechargeAdmin],
    handler: (ctx) => async (req, res) => {
      const input = body(req, rechargeBody, 'Wallet.Invalid');
      const { accountId } = principalOf(res);
      const organizationId = await rechargedOrganization(ctx, req, accountId);
      const idempotencyKey = parseOrThrow(idempotencyKeyHeader, req.header('idempotency-key'), 'Wallet.Invalid');
      const { record, replayed } = await rechargeWithIdempotencyKey(ctx, organizationId, {
        amount: input.amount,
        ...(input.description ? { description: input.description } : {}),
        ...(idempotencyKey ? { idempotencyKey } : {}),
        createdBy: accountId,
        audit: auditActorOf(req, res),
      });
      sendData(res, presentRecord(record), replayed ? 200 : 201);
    },
  },
  {
    // `X-Organization-Id`, when sent, must be the record's organization.
    method: 'post',
    path: '/records/:recordId/refund',
    audited: true,
    summary: 'Refund a consumption record (platform Admin)',
    access: 'bearer',
    dailyQuota: 'shown',
    params: { recordId: uuidParam({ notFound: () => notFound('Wallet.RecordNotFound', 'No such wallet record.') }) },
    body: refundBody,
    response: walletRecord,
    conflicts: 'Wallet.AlreadyRefunded: the consumption was refunded before, with another amount or reason.',
    status: 201,
    alsoSucceeds: { status: 200, when: 'The same refund was made before: its Refund record again.' },
    before: (ctx, route) => [authenticate(ctx, route), requireRole('Admin')],
    handler: (ctx) => async (req, res) => {
      const input = body(req, refundBody, 'Wallet.InvalidRefund');
      const { record, replayed } = await refund(ctx, pathParam(req, 'recordId'), {
        reason: input.reason,
        ...(input.amount !== undefined ? { amount: input.amount } : {}),
        createdBy: principalOf(res).accountId,
        organizationId: req.header('x-organization-id') || undefined,
        audit: auditActorOf(req, res),
      });
      sendData(res, presentRecord(record), replayed ? 200 : 201);
    },
  },
]);
