// Writing the audit log: a privileged change passes the caller's AuditActor to its service, which appends ONE row
// with `recordAudit` inside the transaction of the change, so a change is never without its row and a failed change
// leaves none. There is no update or delete here, and the database refuses both (migration 0009).
import type { DbExecutor } from '../db/client.js';
import { auditLog } from '../db/schema/index.js';
import { currentCorrelationId } from '../logging/correlation.js';
import type { AuditAction } from './audit-actions.js';

export { type AuditAction, auditActions } from './audit-actions.js';

/** Who made a change, with which credential, from where. The seed and other internal steps act as `system`. */
export type AuditActor = {
  accountId: string | null;
  /** `invite`: an account made by accepting an invite link, which is its only credential then (the invite's id). */
  credential: { kind: 'session' | 'api-key' | 'invite'; id: string | null } | { kind: 'system'; id: null };
  clientAddress: string | null;
  correlationId: string | null;
};

export const systemActor = (): AuditActor => ({
  accountId: null,
  credential: { kind: 'system', id: null },
  clientAddress: null,
  correlationId: currentCorrelationId() ?? null,
});

export type AuditEntry = {
  action: AuditAction;
  organizationId?: string | null;
  target: { type: string; id: string };
  /** The state the change replaced and the state it made, where that matters (JSON; money as decimal strings). */
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
};

export async function recordAudit(tx: DbExecutor, actor: AuditActor, entry: AuditEntry): Promise<void> {
  await tx.insert(auditLog).values({
    actorAccountId: actor.accountId,
    actorCredentialKind: actor.credential.kind,
    actorCredentialId: actor.credential.id,
    organizationId: entry.organizationId ?? null,
    action: entry.action,
    targetType: entry.target.type,
    targetId: entry.target.id,
    before: entry.before ?? null,
    after: entry.after ?? null,
    clientAddress: actor.clientAddress,
    correlationId: actor.correlationId ?? currentCorrelationId() ?? null,
  });
}
