// What leaves the process for an audit log entry: ids, never names or e-mails (an organization's Admins see
// platform Admins' refunds by id only).
import type { AuditRow } from '../../../shared/audit/audit-reads.js';
import { withoutNulls } from '../../http/json.js';

export const presentAuditEntry = (row: AuditRow) =>
  withoutNulls({
    id: row.id,
    occurredAt: row.occurredAt,
    action: row.action,
    organizationId: row.organizationId,
    actor: withoutNulls({
      accountId: row.actorAccountId,
      credential: withoutNulls({ kind: row.actorCredentialKind, id: row.actorCredentialId }),
    }),
    target: { type: row.targetType, id: row.targetId },
    before: row.before,
    after: row.after,
    clientAddress: row.clientAddress,
    correlationId: row.correlationId,
  });
