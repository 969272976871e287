// `/api/organization/wallet/**` of the current organization: any member reads the balance and records; an
// organization Admin redeems top-up codes and manages alerts. The history reads and the platform Admin's
// recharges and refunds are in the neighbouring files; this area mounts them all.
import { z } from 'zod';
import { requireOrganizationAdmin } from '../../../shared/organizations/access.js';
import { listAlerts } from '../../../shared/wallet/alert-history.js';
import { getAlertSettings, updateAlertSettings } from '../../../shared/wallet/alert-settings.js';
import { webhookClient } from '../../../shared/wallet/alert-webhook.js';
import { requestTestAlert, TEST_ALERTS_PER_HOUR } from '../../../shared/wallet/balance-alerts.js';
import { listRecords } from '../../../shared/wallet/ledger.js';
import { recordOrigins } from '../../../shared/wallet/record-origins.js';
import { redeemTopUpCode } from '../../../shared/wallet/top-up-redemption.js';
import { liveWallet } from '../../../shared/wallet/wallet-mirror.js';
import { sendData, sendPage } from '../../http/envelope.js';
import { body, query } from '../../http/validate.js';
import { auditActorOf } from '../../middleware/audit-actor.js';
import { inCurrentOrganization, organizationOf } from '../../middleware/organization-access.js';
import { pageFields } from '../../openapi/response-parts.js';
import type { Area } from '../route.js';
import { presentAlert, presentAlertSettings, presentRecord, presentWallet } from './wallet.presenters.js';
import { alertSettings, balanceAlert, testAlertQueued, wallet, walletRecord } from './wallet.responses.js';
import { alertSettingsBody, historyQuery, recordsQuery, redeemBody } from './wallet.schemas.js';
import { walletAdminRoutes } from './wallet-admin.routes.js';
import { walletHistoryRoutes } from './wallet-history.routes.js';

const org = { access: 'bearer', dailyQuota: 'shown', organization: true, before: inCurrentOrganization } as const;

export const walletArea: Area = {
  tag: 'Wallet',
  routes: [
    // Before the member routes: recharges and refunds are for platform Admins, who need not be members.
    ...walletAdminRoutes,
    {
      method: 'get',
      path: '/',
      summary: 'Wallet balance',
      ...org,
      response: wallet,
      handler: (ctx) => async (_req, res) => {
        sendData(res, presentWallet(await liveWallet(ctx, organizationOf(res).organizationId)));
      },
    },

    {
      method: 'post',
      path: '/redeem',
      audited: true,
      summary: 'Redeem a top-up code into the wallet (organization Admin): one Recharge record naming the code id',
      ...org,
      body: redeemBody,
      response: walletRecord,
      status: 201,
      alsoSucceeds: { status: 200, when: 'The organization redeemed this code before: its Recharge record again.' },
      notFound: 'TopUpCode.NotFound: no top-up code is this one.',
      conflicts: 'TopUpCode.Redeemed: the code was redeemed by another organization.',
      gone: 'TopUpCode.Expired, TopUpCode.Revoked: the code expired or was revoked.',
      handler: (ctx) => async (req, res) => {
        const access = organizationOf(res);
        requireOrganizationAdmin(access, 'redeem a top-up code');
        const { code } = body(req, redeemBody, 'TopUpCode.Invalid');
        const { record, replayed } = await redeemTopUpCode(ctx, { ...access, code, audit: auditActorOf(req, res) });
        sendData(res, presentRecord(record), replayed ? 200 : 201);
      },
    },

    {
      method: 'get',
      path: '/records',
      summary: 'Wallet records (filter by type and period: `from`/`to` as UTC days or instants)',
      ...org,
      query: recordsQuery,
      response: z.array(walletRecord),
      envelopeFields: pageFields,
      handler: (ctx) => async (req, res) => {
        const paging = query(req, recordsQuery, 'Wallet.InvalidQuery');
        const { organizationId, accountId, role } = organizationOf(res);
        const page = await listRecords(ctx.db, organizationId, paging);
        const origins = await recordOrigins(ctx.db, page.records, { accountId, role });
        const originOf = (requestLogId: string | null) => (requestLogId ? origins.get(requestLogId) : undefined);
        sendPage(
          res,
          page.records.map((r) => presentRecord(r, originOf(r.requestLogId))),
          page,
        );
      },
    },

    {
      method: 'get',
      path: '/alerts',
      summary: 'Balance alert settings',
      ...org,
      response: alertSettings,
      handler: (ctx) => async (_req, res) => {
        const access = organizationOf(res);
        requireOrganizationAdmin(access, 'read the alert settings');
        sendData(res, presentAlertSettings(await getAlertSettings(ctx.db, access.organizationId)));
      },
    },

    {
      method: 'put',
      path: '/alerts',
      audited: true,
      summary: 'Change balance alert settings',
      ...org,
      body: alertSettingsBody,
      response: alertSettings,
      handler: (ctx) => async (req, res) => {
        const access = organizationOf(res);
        requireOrganizationAdmin(access, 'change the alert settings');
        const change = body(req, alertSettingsBody, 'Wallet.InvalidAlertSettings');
        const updated = await updateAlertSettings(
          { db: ctx.db, outbound: webhookClient(ctx.config) },
          access.organizationId,
          change,
          access.accountId,
          auditActorOf(req, res),
        );
        sendData(res, presentAlertSettings(updated));
      },
    },

    {
      method: 'post',
      path: '/alerts/test',
      summary: 'Send a test alert',
      ...org,
      status: 202,
      response: testAlertQueued,
      rateLimited: `Alert.TooManyTests: more than ${TEST_ALERTS_PER_HOUR} test alerts by the organization in the last hour.`,
      handler: (ctx) => async (_req, res) => {
        const access = organizationOf(res);
        requireOrganizationAdmin(access, 'send a test alert');
        sendData(res, await requestTestAlert(ctx, access.organizationId, access.accountId), 202);
      },
    },

    {
      method: 'get',
      path: '/alerts/history',
      summary: 'Alert history',
      ...org,
      query: historyQuery,
      response: z.array(balanceAlert),
      envelopeFields: pageFields,
      handler: (ctx) => async (req, res) => {
        const access = organizationOf(res);
        requireOrganizationAdmin(access, 'read the alert history');
        const paging = query(req, historyQuery, 'Wallet.InvalidQuery');
        const { alerts, total } = await listAlerts(ctx.db, access.organizationId, paging);
        sendPage(res, alerts.map(presentAlert), { total, ...paging });
      },
    },

    ...walletHistoryRoutes,
  ],
};
