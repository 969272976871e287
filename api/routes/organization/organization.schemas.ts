// Request bodies and queries of the organization routes (`/api/organizations`, `/api/organization/**`).
import { z } from 'zod';
import { normalizeEmail } from '../../../shared/identity/accounts.js';
import { inCalendar, outsideCalendar } from '../../../shared/validation/calendar.js';
import { displayName } from '../../../shared/validation/display-name.js';

export const organizationRoleSchema = z.enum(['Admin', 'Member']);

export const createOrganizationBody = z.object({ name: displayName() });

export const inviteTokenBody = z.object({
  description: z.string().trim().max(500).optional(),
  expiresAt: z.iso
    .datetime({ offset: true })
    .transform((v) => new Date(v))
    .refine(inCalendar, { message: outsideCalendar })
    .optional(),
  maxUsageCount: z.number().int().min(1).max(10_000).default(1),
  role: organizationRoleSchema.default('Member'),
  /** Binds the invite to one address (stored as acceptance compares it): only that account may accept it. */
  email: z.email().max(254).transform(normalizeEmail).optional(),
});

/** Without a signed-in caller the invitee registers; with one, the body may be empty. */
export const acceptInviteBody = z.object({
  email: z.email().max(254),
  name: displayName(),
  password: z.string().max(200),
});

export const membersQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
});

export const memberRoleBody = z.object({ role: organizationRoleSchema });
