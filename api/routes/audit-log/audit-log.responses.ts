// What the audit log routes answer (audit-log.presenters.ts), as the OpenAPI document shows it: ids, never names.
import { z } from 'zod';
import { auditActions } from '../../../shared/audit/audit-actions.js';
import { auditCredentialKind } from '../../../shared/db/schema/index.js';
import { timestamp } from '../../openapi/response-parts.js';

const state = z.record(z.string(), z.unknown()).optional();

export const auditEntry = z
  .object({
    id: z.uuid(),
    occurredAt: timestamp,
    action: z.enum(auditActions),
    organizationId: z.uuid().optional(),
    actor: z.object({
      accountId: z.uuid().optional().meta({ description: 'Absent for the system.' }),
      credential: z.object({ kind: z.enum(auditCredentialKind.enumValues), id: z.uuid().optional() }),
      label: z
        .enum(['platform administrator', 'not a member'])
        .optional()
        .meta({
          description:
            "Only in an organization's log, for an actor who is not its member; such an entry has no clientAddress " +
            'and no credential id.',
        }),
    }),
    target: z.object({ type: z.string(), id: z.string() }),
    before: state.meta({ description: 'The state the change replaced (JSON; money as decimal strings).' }),
    after: state.meta({ description: 'The state the change made (JSON; money as decimal strings).' }),
    clientAddress: z.string().optional(),
    correlationId: z.string().optional(),
  })
  .meta({ id: 'AuditEntry' });
