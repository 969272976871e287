// What leaves the process for organizations, members, invite tokens and bulk imports; never a token hash.

import { csvFile } from '../../../shared/csv/csv-cells.js';
import type { BulkImportResult } from '../../../shared/organizations/bulk-invite.js';
import type { AcceptedInvite, InvitePreview } from '../../../shared/organizations/invite-acceptance.js';
import type { InviteToken, IssuedInviteToken } from '../../../shared/organizations/invite-tokens.js';
import type { MemberEntry } from '../../../shared/organizations/members.js';
import type { OrganizationWithRole } from '../../../shared/organizations/organizations.js';
import { withoutNulls } from '../../http/json.js';

export const presentOrganization = (o: OrganizationWithRole) =>
  withoutNulls({ id: o.id, name: o.name, role: o.role, createdAt: o.createdAt });

export const presentMember = (m: MemberEntry) =>
  withoutNulls({
    userId: m.userId,
    email: m.email,
    name: m.name,
    role: m.role,
    joinedAt: m.joinedAt,
    status: m.status,
  });

export const presentInviteToken = (t: InviteToken) =>
  withoutNulls({
    id: t.id,
    organizationId: t.organizationId,
    description: t.description,
    role: t.role,
    email: t.email,
    maxUsageCount: t.maxUsageCount,
    usageCount: t.usageCount,
    expiresAt: t.expiresAt,
    revokedAt: t.revokedAt,
    createdAt: t.createdAt,
  });

/** The only answer that carries the token itself, with the link built from PUBLIC_BASE_URL. */
export const presentIssuedInviteToken = (issued: IssuedInviteToken) => ({
  ...presentInviteToken(issued.record),
  token: issued.token,
  inviteUrl: issued.inviteUrl,
});

export const presentInvitePreview = (p: InvitePreview) =>
  withoutNulls({
    organizationId: p.organizationId,
    organizationName: p.organizationName,
    role: p.role,
    email: p.email,
    expiresAt: p.expiresAt,
    remainingUses: p.remainingUses,
  });

export const presentAcceptedInvite = (a: AcceptedInvite) => withoutNulls({ ...a });

/** The bulk-invite report as CSV (`Accept: text/csv`): one row per file row, the invite URL where one was issued. */
export const bulkImportCsv = (r: BulkImportResult) =>
  csvFile(['row', 'email', 'name', 'role', 'status', 'error', 'inviteUrl'], r.records);

export const presentBulkImport = (r: BulkImportResult) => ({
  ...withoutNulls({
    id: r.id,
    status: r.status,
    totalCount: r.totalCount,
    successCount: r.successCount,
    failureCount: r.failureCount,
    duplicateCount: r.duplicateCount,
    createdAt: r.createdAt,
  }),
  records: r.records.map((record) => withoutNulls({ ...record })),
});
