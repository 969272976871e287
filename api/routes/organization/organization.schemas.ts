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

/** The longest `q` a member search takes: longer than any name (100) or e-mail address (254) it could match. */
export const MEMBER_SEARCH_MAX = 254;

export const membersQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
  q: z
    .preprocess(
      (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
      z.string().trim().max(MEMBER_SEARCH_MAX).optional(),
    )
    .meta({
      description:
        'Only members whose name or e-mail address contains this text (case-insensitive; `%` and `_` are taken ' +
        `literally). Blank is no filter; at most ${MEMBER_SEARCH_MAX} characters.`,
    }),
});

export const memberRoleBody = z.object({ role: organizationRoleSchema });
