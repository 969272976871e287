// `/api/organization/wallet/**` of the current organization: any member reads the balance and records; an
// organization Admin recharges and manages alerts. Refunds (platform Admin) are in walletRefundRoutes.
import { Router } from 'express';
import type { AppContext } from '../../../shared/context.js';
import { badRequest } from '../../../shared/errors/app-error.js';
import { requireOrganizationAdmin } from '../../../shared/organizations/access.js';
import { listAlerts } from '../../../shared/wallet/alert-history.js';
import { getAlertSettings, updateAlertSettings } from '../../../shared/wallet/alert-settings.js';
import { webhookClient } from '../../../shared/wallet/alert-webhook.js';
import { requestTestAlert } from '../../../shared/wallet/balance-alerts.js';
import { listRecords, recharge } from '../../../shared/wallet/ledger.js';
import { getWallet } from '../../../shared/wallet/wallets.js';
import { sendData, sendPage } from '../../http/envelope.js';
import { body, query } from '../../http/validate.js';
import { organizationOf } from '../../middleware/organization-access.js';
import { presentAlert, presentAlertSettings, presentRecord, presentWallet } from './wallet.presenters.js';
import { alertSettingsBody, historyQuery, rechargeBody, recordsQuery } from './wallet.schemas.js';

export function walletRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/wallet', async (_req, res) => {
    sendData(res, presentWallet(await getWallet(ctx.db, organizationOf(res).organizationId)));
  });

  router.post('/wallet/recharge', async (req, res) => {
    const access = organizationOf(res);
    requireOrganizationAdmin(access, 'recharge the wallet');
    const input = body(req, rechargeBody, 'Wallet.Invalid');
    const idempotencyKey = req.header('idempotency-key')?.trim();
    if (idempotencyKey !== undefined && (idempotencyKey.length === 0 || idempotencyKey.length > 200)) {
      throw badRequest('Wallet.Invalid', 'Idempotency-Key: must be 1 to 200 characters.');
    }
    const { record, replayed } = await recharge(ctx, access.organizationId, {
      amount: input.amount,
      ...(input.description ? { description: input.description } : {}),
      ...(idempotencyKey ? { idempotencyKey } : {}),
      createdBy: access.accountId,
    });
    sendData(res, presentRecord(record), replayed ? 200 : 201);
  });

  router.get('/wallet/records', async (req, res) => {
    const paging = query(req, recordsQuery, 'Wallet.InvalidQuery');
    const page = await listRecords(ctx.db, organizationOf(res).organizationId, paging);
    sendPage(res, page.records.map(presentRecord), page);
  });

  router.get('/wallet/alerts', async (_req, res) => {
    const access = organizationOf(res);
    requireOrganizationAdmin(access, 'read the alert settings');
    sendData(res, presentAlertSettings(await getAlertSettings(ctx.db, access.organizationId)));
  });

  router.put('/wallet/alerts', async (req, res) => {
    const access = organizationOf(res);
    requireOrganizationAdmin(access, 'change the alert settings');
    const change = body(req, alertSettingsBody, 'Wallet.InvalidAlertSettings');
    const updated = await updateAlertSettings(
      { db: ctx.db, outbound: webhookClient(ctx.config) },
      access.organizationId,
      change,
    );
    sendData(res, presentAlertSettings(updated));
  });

  router.post('/wallet/alerts/test', async (_req, res) => {
    const access = organizationOf(res);
    requireOrganizationAdmin(access, 'send a test alert');
    sendData(res, await requestTestAlert(ctx, access.organizationId, access.accountId), 202);
  });

  router.get('/wallet/alerts/history', async (req, res) => {
    const access = organizationOf(res);
    requireOrganizationAdmin(access, 'read the alert history');
    const paging = query(req, historyQuery, 'Wallet.InvalidQuery');
    const { alerts, total } = await listAlerts(ctx.db, access.organizationId, paging);
    sendPage(res, alerts.map(presentAlert), { total, ...paging });
  });

  return router;
}
