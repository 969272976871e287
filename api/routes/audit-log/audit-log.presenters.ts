// What leaves the process for an audit log entry: ids, never names or e-mails (an organization's Admins see
// platform Admins' refunds by id only).
import type { AuditRow } from '../../../shared/audit/audit-reads.js';
import { withoutNulls } from '../../http/json.js';

/** How an organization's copy names an actor who is not its member (review of 2026-11-27, second round). */
export const outsiderLabel = (row: AuditRow) => (row.actorIsPlatformAdmin ? 'platform administrator' : 'not a member');

/**
 * An entry; `outsider` leaves out what says where and with which session or key an actor acted (the organization's
 * copy, for an actor who is not its member).
 */
const presentEntry = (row: AuditRow, outsider: boolean) =>
  withoutNulls({
    id: row.id,
    occurredAt: row.occurredAt,
    action: row.action,
    organizationId: row.organizationId,
    actor: withoutNulls({
      accountId: row.actorAccountId,
      credential: withoutNulls({ kind: row.actorCredentialKind, id: outsider ? null : row.actorCredentialId }),
      label: outsider ? outsiderLabel(row) : null,
    }),
    target: { type: row.targetType, id: row.targetId },
    before: row.before,
    after: row.after,
    clientAddress: outsider ? null : row.clientAddress,
    correlationId: row.correlationId,
  });

/** The platform Admins' copy: every field. */
export const presentAuditEntry = (row: AuditRow) => presentEntry(row, false);

/**
 * An organization's copy: an actor who is not a member of the organization now (a platform Admin who recharged or
 * refunded its wallet, an account since removed or deleted) keeps its account id, credential kind and a label, but
 * not its client address or credential id. The system actor (the seed) has neither to hide.
 */
export const presentOrganizationAuditEntry = (row: AuditRow) =>
  presentEntry(row, row.actorCredentialKind !== 'system' && !row.actorIsMember);
