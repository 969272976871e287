// Reading a wallet's past for people: the settled balance over time (a chart), what was spent today and this month
// (the console's Overview) and the records as a CSV download. Any member of the current organization, as for the
// record list.

import { balanceHistory } from '../../../shared/wallet/balance-history.js';
import { recordCsvLines } from '../../../shared/wallet/record-export.js';
import { walletSpending } from '../../../shared/wallet/spending.js';
import { getWallet } from '../../../shared/wallet/wallets.js';
import { sendData } from '../../http/envelope.js';
import { sendLines } from '../../http/send-lines.js';
import { query } from '../../http/validate.js';
import { inCurrentOrganization, organizationOf } from '../../middleware/organization-access.js';
import { defineRoutes } from '../route.js';
import { balanceHistory as balanceHistorySchema, walletSpending as walletSpendingSchema } from './wallet.responses.js';
import { balanceHistoryQuery, recordExportQuery } from './wallet.schemas.js';

const org = { access: 'bearer', dailyQuota: 'shown', organization: true, before: inCurrentOrganization } as const;

export const walletHistoryRoutes = defineRoutes([
  {
    method: 'get',
    path: '/balance-history',
    summary: 'Settled balance over time: the opening balance and the closing balance of each hour or day',
    ...org,
    query: balanceHistoryQuery,
    response: balanceHistorySchema,
    handler: (ctx) => async (req, res) => {
      const options = query(req, balanceHistoryQuery, 'Wallet.InvalidQuery');
      const { organizationId } = organizationOf(res);
      const [wallet, history] = await Promise.all([
        getWallet(ctx.db, organizationId),
        balanceHistory(ctx.db, organizationId, options),
      ]);
      sendData(res, { currency: wallet.currency, ...history });
    },
  },

  {
    method: 'get',
    path: '/spending',
    summary: "What the organization's gateway requests took from the wallet today and this month (UTC), and refunds",
    ...org,
    response: walletSpendingSchema,
    handler: (ctx) => async (_req, res) => {
      const { organizationId } = organizationOf(res);
      const [wallet, spending] = await Promise.all([
        getWallet(ctx.db, organizationId),
        walletSpending(ctx.db, organizationId),
      ]);
      sendData(res, { currency: wallet.currency, ...spending });
    },
  },

  {
    method: 'get',
    path: '/records/export',
    summary: 'Wallet records as a CSV download, with the same filters',
    ...org,
    query: recordExportQuery,
    content: 'csv',
    handler: (ctx) => async (req, res) => {
      const filter = query(req, recordExportQuery, 'Wallet.InvalidQuery');
      const { organizationId, accountId, role } = organizationOf(res);
      const lines = recordCsvLines(ctx.db, organizationId, filter, { accountId, role });
      // The first line is the header: read it before answering, so a database failure is still a clean error.
      const first = await lines.next();
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.setHeader(
        'Content-Disposition',
        `attachment; filename="wallet-records-${new Date().toISOString().slice(0, 10)}.csv"`,
      );
      res.setHeader('Cache-Control', 'no-store');
      if (!first.done) res.write(first.value);
      await sendLines(res, lines);
    },
  },
]);
