// Request bodies and queries of `/api/project-templates`.
import { z } from 'zod';
import { MAX_TEMPLATES_PAGE_SIZE } from '../../../shared/organizations/project-templates.js';
import { displayName } from '../../../shared/validation/display-name.js';

const limit = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional();

export const templatesQuery = z.object({
  isPublic: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  size: z.coerce.number().int().min(1).max(MAX_TEMPLATES_PAGE_SIZE).default(MAX_TEMPLATES_PAGE_SIZE),
});

export const templateBody = z.object({
  name: displayName(),
  description: z.string().trim().max(1000).optional(),
  category: z.enum(['Starter', 'Professional', 'Enterprise', 'Custom']).default('Custom'),
  tags: z.array(z.string().trim().min(1).max(40)).max(20).default([]),
  isPublic: z.boolean().default(false),
  icon: z.string().trim().max(100).optional(),
  config: z
    .strictObject({
      quota: z
        .strictObject({
          dailyRequestLimit: limit,
          monthlyRequestLimit: limit,
          dailyTokenLimit: limit,
          monthlyTokenLimit: limit,
        })
        .default({}),
      rateLimit: z.strictObject({ requestsPerMinuteLimit: limit }).default({}),
    })
    .default({ quota: {}, rateLimit: {} }),
});
