// `POST /api/organization/wallet/records/{id}/refund`: a platform Admin (account role `Admin`) refunds a Consume
// record of any organization, member or not; `X-Organization-Id`, when sent, must be the record's organization.
import { Router } from 'express';
import type { AppContext } from '../../../shared/context.js';
import { notFound } from '../../../shared/errors/app-error.js';
import { isUuid } from '../../../shared/organizations/organizations.js';
import { refund } from '../../../shared/wallet/refunds.js';
import { sendData } from '../../http/envelope.js';
import { body } from '../../http/validate.js';
import { authenticate, principalOf, requireRole } from '../../middleware/auth.js';
import { presentRecord } from './wallet.presenters.js';
import { refundBody } from './wallet.schemas.js';

export function walletRefundRoutes(ctx: AppContext): Router {
  const router = Router();
  router.post('/wallet/records/:recordId/refund', authenticate(ctx), requireRole('Admin'), async (req, res) => {
    const recordId = req.params.recordId;
    if (!isUuid(recordId)) throw notFound('Wallet.RecordNotFound', 'No such wallet record.');
    const input = body(req, refundBody, 'Wallet.InvalidRefund');
    const { record, replayed } = await refund(ctx, recordId, {
      reason: input.reason,
      ...(input.amount !== undefined ? { amount: input.amount } : {}),
      createdBy: principalOf(res).accountId,
      organizationId: req.header('x-organization-id') || undefined,
    });
    sendData(res, presentRecord(record), replayed ? 200 : 201);
  });
  return router;
}
