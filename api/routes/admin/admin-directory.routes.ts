// The platform Admin's directory: every account (to set roles), every organization with its wallet, and one
// organization's wallet records (to refund). Part of the admin area, behind its Admin guard.
import { listAccounts } from '../../../shared/admin/account-directory.js';
import { assertOrganizationExists, listAllOrganizations } from '../../../shared/admin/organization-directory.js';
import { notFound } from '../../../shared/errors/app-error.js';
import { listRecords } from '../../../shared/wallet/ledger.js';
import { pathParam, uuidParam } from '../../http/path-params.js';
import { query } from '../../http/validate.js';
import { presentAccount } from '../auth/auth.presenters.js';
import { defineRoutes } from '../route.js';
import { presentRecord } from '../wallet/wallet.presenters.js';
import { presentDirectoryOrganization } from './admin.presenters.js';
import { accountsPage, organizationsPage, walletRecordsPage } from './admin.responses.js';
import { directoryQuery, organizationRecordsQuery } from './admin.schemas.js';

const organizationNotFound = () => notFound('Organization.NotFound', 'No such organization.');
const admin = { access: 'bearer', dailyQuota: 'counted' } as const;

export const adminDirectoryRoutes = defineRoutes([
  {
    method: 'get',
    path: '/accounts',
    summary: 'Every account (search by e-mail or name), newest first',
    ...admin,
    query: directoryQuery,
    response: accountsPage,
    handler: (ctx) => async (req, res) => {
      const page = await listAccounts(ctx.db, query(req, directoryQuery, 'Admin.InvalidQuery'));
      res.json({ ...page, items: page.items.map(presentAccount) });
    },
  },
  {
    method: 'get',
    path: '/organizations',
    summary: 'Every organization with its member count and wallet',
    ...admin,
    query: directoryQuery,
    response: organizationsPage,
    handler: (ctx) => async (req, res) => {
      const page = await listAllOrganizations(ctx, query(req, directoryQuery, 'Admin.InvalidQuery'));
      res.json({ ...page, items: page.items.map(presentDirectoryOrganization) });
    },
  },
  {
    method: 'get',
    path: '/organizations/:id/wallet/records',
    summary: "One organization's wallet records (to refund a consumption)",
    ...admin,
    query: organizationRecordsQuery,
    response: walletRecordsPage,
    params: { id: uuidParam({ notFound: organizationNotFound }) },
    handler: (ctx) => async (req, res) => {
      const { pageSize, ...filter } = query(req, organizationRecordsQuery, 'Admin.InvalidQuery');
      const organizationId = pathParam(req, 'id');
      await assertOrganizationExists(ctx.db, organizationId);
      const page = await listRecords(ctx.db, organizationId, { ...filter, size: pageSize });
      res.json({
        items: page.records.map((r) => presentRecord(r)),
        page: page.page,
        pageSize,
        total: page.total,
        hasNext: page.page * pageSize < page.total,
      });
    },
  },
]);
