// The audit log: `GET /api/organization/audit-log` for an organization's Admins (its own entries, envelope) and
// `GET /api/v1/admin/audit-log` for platform Admins (every entry, problem+json family). Each is listed by the
// area it is mounted in (organization, admin), behind that area's guards.

import { z } from 'zod';
import { listAuditEntries } from '../../../shared/audit/audit-reads.js';
import { requireOrganizationAdmin } from '../../../shared/organizations/access.js';
import { sendData } from '../../http/envelope.js';
import { query } from '../../http/validate.js';
import { organizationOf } from '../../middleware/organization-access.js';
import { itemsPage, pageFields } from '../../openapi/response-parts.js';
import type { Route } from '../route.js';
import { presentAuditEntry, presentOrganizationAuditEntry } from './audit-log.presenters.js';
import { auditEntry } from './audit-log.responses.js';
import { adminAuditQuery, organizationAuditQuery } from './audit-log.schemas.js';

/** Beside `total`: whether it counts every matching entry (listAuditEntries counts up to 10,000 past the page). */
const totalExact = z.boolean().meta({
  description:
    '`false` when more than 10,000 entries follow the page: `total` then counts those up to 10,000 past the page ' +
    '(a lower bound; there is a next page).',
});

const entry =
  'Entries newest first: {id, occurredAt, action, organizationId?, actor:{accountId?, credential:{kind, id?}, ' +
  'label?}, target:{type, id}, before?, after?, clientAddress?, correlationId?}.';

/** Under /api/organization, once the current organization is resolved. */
export const organizationAuditLogRoute: Route = {
  method: 'get',
  path: '/audit-log',
  tag: 'Audit log',
  summary: "The organization's audit log (organization Admins)",
  access: 'bearer',
  dailyQuota: 'shown',
  organization: true,
  query: organizationAuditQuery,
  returns:
    `${entry} Paged: total, page, size, totalExact. An actor who is not a member of the organization (a platform Admin's ` +
    'recharge or refund) has a label and no clientAddress or credential id.',
  response: z.array(auditEntry),
  envelopeFields: { ...pageFields, totalExact },
  handler: (ctx) => async (req, res) => {
    const access = organizationOf(res);
    requireOrganizationAdmin(access, 'read the audit log');
    const q = query(req, organizationAuditQuery, 'AuditLog.InvalidQuery');
    const { rows, total, totalExact } = await listAuditEntries(ctx.db, { ...q, organizationId: access.organizationId });
    sendData(res, rows.map(presentOrganizationAuditEntry), 200, { total, page: q.page, size: q.size, totalExact });
  },
};

/** Under /api/v1/admin, behind the Admin role. */
export const adminAuditLogRoute: Route = {
  method: 'get',
  path: '/audit-log',
  tag: 'Audit log',
  summary: 'The whole audit log (platform Admins)',
  access: 'bearer',
  dailyQuota: 'counted',
  query: adminAuditQuery,
  returns: `{items, page, pageSize, total, hasNext, totalExact}. ${entry}`,
  response: itemsPage(auditEntry).extend({ totalExact }),
  handler: (ctx) => async (req, res) => {
    const { pageSize, ...q } = query(req, adminAuditQuery, 'AuditLog.InvalidQuery');
    const { rows, total, totalExact } = await listAuditEntries(ctx.db, { ...q, size: pageSize });
    res.json({
      items: rows.map(presentAuditEntry),
      page: q.page,
      pageSize,
      total,
      hasNext: q.page * pageSize < total,
      totalExact,
    });
  },
};
