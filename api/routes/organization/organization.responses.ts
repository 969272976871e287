// What the organization routes answer inside the envelope's `data` (organization.presenters.ts), as the OpenAPI
// document shows it.
import { z } from 'zod';
import { organizationRole } from '../../../shared/db/schema/index.js';
import { timestamp } from '../../openapi/response-parts.js';

export const organization = z
  .object({
    id: z.uuid(),
    name: z.string(),
    role: z.enum(organizationRole.enumValues).meta({ description: "The caller's role in the organization." }),
    createdAt: timestamp,
  })
  .meta({ id: 'Organization' });

const count = z.number().int().nonnegative();
const role = z.enum(organizationRole.enumValues);

export const member = z
  .object({
    userId: z.uuid(),
    email: z.string(),
    name: z.string(),
    role,
    joinedAt: timestamp,
    status: z.literal('Active'),
  })
  .meta({ id: 'OrganizationMember' });

export const inviteToken = z
  .object({
    id: z.uuid(),
    organizationId: z.uuid(),
    description: z.string().optional(),
    role: role.meta({ description: 'The organization role an accepted invite grants.' }),
    email: z
      .string()
      .optional()
      .meta({ description: 'Only this e-mail may accept (issued with `email`, or in bulk).' }),
    maxUsageCount: z.number().int().min(1),
    usageCount: count,
    expiresAt: timestamp,
    revokedAt: timestamp.optional(),
    createdAt: timestamp,
  })
  .meta({ id: 'InviteToken' });

export const issuedInviteToken = inviteToken
  .extend({
    token: z.string().meta({ description: 'The invite token: shown this once, never again.' }),
    inviteUrl: z.string().meta({ description: 'The console link that accepts it (from PUBLIC_BASE_URL).' }),
  })
  .meta({ id: 'IssuedInviteToken' });

/** The organization an invite is for and the role it grants. */
const invitedTo = { organizationId: z.uuid(), organizationName: z.string(), role };

export const invitePreview = z
  .object({
    ...invitedTo,
    email: z.string().optional().meta({ description: 'Only this e-mail may accept (a bulk invite).' }),
    expiresAt: timestamp,
    remainingUses: count,
  })
  .meta({ id: 'InvitePreview' });

export const acceptedInvite = z
  .object({
    ...invitedTo,
    userId: z.uuid(),
    email: z.string(),
    accountCreated: z.boolean().meta({ description: 'The invite created the account (no caller signed in).' }),
  })
  .meta({ id: 'AcceptedInvite' });

export const memberRoleChanged = z.object({ userId: z.uuid(), role });

export const memberRemoved = z
  .object({ message: z.string(), userId: z.uuid() })
  .meta({ id: 'MemberRemoved', description: 'The member removed (from the organization or from a project).' });

export const bulkImport = z
  .object({
    id: z.uuid(),
    status: z.literal('Completed'),
    totalCount: count.meta({ description: 'Data rows in the file.' }),
    successCount: count.meta({ description: 'Rows that got an invite.' }),
    failureCount: count.meta({ description: 'Rows that did not: failed and duplicate ones.' }),
    duplicateCount: count,
    createdAt: timestamp,
    records: z.array(
      z.object({
        row: z.number().int().min(1).meta({ description: 'The data row of the file, from 1.' }),
        email: z.string(),
        name: z.string(),
        role: z.string().meta({ description: 'As written in the file (Admin or Member once valid).' }),
        status: z.enum(['Success', 'Failed', 'Duplicate']),
        error: z.string().optional().meta({ description: 'Why the row is not `Success`.' }),
        inviteUrl: z
          .string()
          .optional()
          .meta({ description: 'A `Success` row, in the upload answer only: its single-use invite link.' }),
      }),
    ),
  })
  .meta({ id: 'BulkImport' });
