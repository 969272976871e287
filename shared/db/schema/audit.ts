// The audit log: one append-only row per privileged change, written in the transaction of the change itself.
// No foreign keys on purpose: a row outlives the account, organization or key it names, and nothing may ever update
// or delete it (a trigger refuses both; see migration 0009).
import { sql } from 'drizzle-orm';
import { index, jsonb, pgEnum, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { at, id } from './columns.js';

export const auditCredentialKind = pgEnum('audit_credential_kind', ['session', 'api-key', 'system', 'invite']);

export const auditLog = pgTable(
  'audit_log',
  {
    id: id(),
    occurredAt: at('occurred_at').notNull().defaultNow(),
    actorAccountId: uuid('actor_account_id'),
    actorCredentialKind: auditCredentialKind('actor_credential_kind').notNull(),
    actorCredentialId: uuid('actor_credential_id'),
    organizationId: uuid('organization_id'),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    clientAddress: text('client_address'),
    correlationId: text('correlation_id'),
  },
  (t) => [
    index('audit_log_organization_idx')
      .on(t.organizationId, t.occurredAt.desc(), t.id.desc())
      .where(sql`${t.organizationId} is not null`),
    index('audit_log_occurred_idx').on(t.occurredAt.desc(), t.id.desc()),
  ],
);
