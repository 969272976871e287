// Request bodies and queries of `/api/projects/**`.
import { z } from 'zod';
import { displayName } from '../../../shared/validation/display-name.js';

const name = displayName();
const description = z.string().trim().max(1000).optional();
const limit = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable().optional();
const flag = z.enum(['true', 'false']).transform((v) => v === 'true');

export const createProjectBody = z.object({ name, description, organizationId: z.uuid().optional() });

export const fromTemplateBody = z.object({
  templateId: z.uuid(),
  name,
  description,
  organizationId: z.uuid().optional(),
});

export const projectsQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
  mine: flag.default(false),
});

export const projectKeysQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
});

export const projectMemberBody = z.object({ userId: z.uuid(), role: z.enum(['Owner', 'Member']).default('Member') });

/** Absent fields keep their value; `null` removes a limit. */
export const quotaBody = z.strictObject({
  dailyRequestLimit: limit,
  dailyTokenLimit: limit,
  monthlyRequestLimit: limit,
  monthlyTokenLimit: limit,
  requestsPerMinuteLimit: limit,
  enforceQuota: z.boolean().optional(),
  customResetDay: z.number().int().min(1).max(28).optional(),
});

export const quotaUsageQuery = z.object({ period: z.enum(['day', 'month']).default('month') });

export const projectRequestsQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
  operation: z
    .string()
    .regex(/^[a-z][a-z0-9._]{0,31}$/, 'must be an operation name such as messages')
    .optional(),
});

export const projectVideosQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  after: z
    .string()
    .regex(/^video_[A-Za-z0-9]{1,57}$/, 'must be a video id')
    .optional(),
});

export const projectUsageQuery = z.object({
  days: z.coerce.number().int().min(1).max(90).default(30),
});
