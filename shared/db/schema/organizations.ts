// Organizations, memberships, invite tokens, bulk imports, projects, project members, templates, quotas and
// the persisted project usage history (seed 03, SPEC section 4).
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { at, createdAt, id, updatedAt } from './columns.js';
import { accounts } from './identity.js';

export const organizationRole = pgEnum('organization_role', ['Admin', 'Member']);
export const membershipStatus = pgEnum('membership_status', ['Active']);
export const projectStatus = pgEnum('project_status', ['Active']);
export const projectRole = pgEnum('project_role', ['Owner', 'Member']);
export const templateCategory = pgEnum('template_category', ['Starter', 'Professional', 'Enterprise', 'Custom']);
export const bulkImportStatus = pgEnum('bulk_import_status', ['Completed']);
export const usagePeriod = pgEnum('usage_period', ['day', 'month']);

export type OrganizationRole = (typeof organizationRole.enumValues)[number];
export type ProjectRole = (typeof projectRole.enumValues)[number];
export type TemplateCategory = (typeof templateCategory.enumValues)[number];
export type UsagePeriod = (typeof usagePeriod.enumValues)[number];

/** A template's pre-configuration; an absent limit means "no limit". */
export type TemplateConfig = {
  quota: {
    dailyRequestLimit?: number;
    monthlyRequestLimit?: number;
    dailyTokenLimit?: number;
    monthlyTokenLimit?: number;
  };
  rateLimit: { requestsPerMinuteLimit?: number };
};

/** One row of a bulk import report as stored (the invite URL is never stored: it holds the token). */
export type BulkImportRecord = {
  row: number;
  email: string;
  name: string;
  role: string;
  status: 'Success' | 'Failed' | 'Duplicate';
  error?: string;
  inviteTokenId?: string;
};

const accountRef = (name: string) => uuid(name).references(() => accounts.id, { onDelete: 'set null' });
const count = (name: string) => bigint(name, { mode: 'number' });

export const organizations = pgTable('organizations', {
  id: id(),
  name: text('name').notNull(),
  createdBy: accountRef('created_by'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const organizationMemberships = pgTable(
  'organization_memberships',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    role: organizationRole('role').notNull().default('Member'),
    status: membershipStatus('status').notNull().default('Active'),
    joinedAt: at('joined_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.accountId] }),
    index('organization_memberships_account_idx').on(t.accountId),
  ],
);

export const organizationBulkImports = pgTable(
  'organization_bulk_imports',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    createdBy: accountRef('created_by'),
    status: bulkImportStatus('status').notNull().default('Completed'),
    totalCount: integer('total_count').notNull(),
    successCount: integer('success_count').notNull(),
    failureCount: integer('failure_count').notNull(),
    records: jsonb('records').$type<BulkImportRecord[]>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('organization_bulk_imports_org_idx').on(t.organizationId, t.createdAt)],
);

export const inviteTokens = pgTable(
  'invite_tokens',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    description: text('description'),
    /** The organization role an accepted invite grants. */
    role: organizationRole('role').notNull().default('Member'),
    /** Set for bulk invites: only this e-mail may accept. */
    email: text('email'),
    maxUsageCount: integer('max_usage_count').notNull().default(1),
    usageCount: integer('usage_count').notNull().default(0),
    expiresAt: at('expires_at').notNull(),
    revokedAt: at('revoked_at'),
    bulkImportId: uuid('bulk_import_id').references(() => organizationBulkImports.id, { onDelete: 'set null' }),
    createdBy: accountRef('created_by'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('invite_tokens_token_hash_key').on(t.tokenHash),
    index('invite_tokens_org_idx').on(t.organizationId, t.createdAt),
    check('invite_tokens_usage_check', sql`${t.usageCount} >= 0 and ${t.usageCount} <= ${t.maxUsageCount}`),
    check('invite_tokens_max_usage_check', sql`${t.maxUsageCount} >= 1`),
  ],
);

export const projects = pgTable(
  'projects',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    status: projectStatus('status').notNull().default('Active'),
    templateId: uuid('template_id'),
    createdBy: accountRef('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('projects_org_idx').on(t.organizationId, t.createdAt)],
);

export const projectMembers = pgTable(
  'project_members',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    role: projectRole('role').notNull().default('Member'),
    addedAt: at('added_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.accountId] }), index('project_members_account_idx').on(t.accountId)],
);

export const projectTemplates = pgTable(
  'project_templates',
  {
    id: id(),
    /** The organization owning a custom template; null for the built-in (system) templates. */
    organizationId: uuid('organization_id').references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    category: templateCategory('category').notNull(),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    isSystem: boolean('is_system').notNull().default(false),
    isPublic: boolean('is_public').notNull().default(false),
    usageCount: integer('usage_count').notNull().default(0),
    icon: text('icon'),
    config: jsonb('config').$type<TemplateConfig>().notNull(),
    createdBy: accountRef('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('project_templates_system_name_key').on(t.name).where(sql`${t.isSystem}`),
    index('project_templates_org_idx').on(t.organizationId),
    check('project_templates_owner_check', sql`${t.isSystem} or ${t.organizationId} is not null`),
  ],
);

export const projectQuotas = pgTable(
  'project_quotas',
  {
    projectId: uuid('project_id')
      .primaryKey()
      .references(() => projects.id, { onDelete: 'cascade' }),
    dailyRequestLimit: count('daily_request_limit'),
    dailyTokenLimit: count('daily_token_limit'),
    monthlyRequestLimit: count('monthly_request_limit'),
    monthlyTokenLimit: count('monthly_token_limit'),
    requestsPerMinuteLimit: count('requests_per_minute_limit'),
    enforceQuota: boolean('enforce_quota').notNull().default(true),
    customResetDay: integer('custom_reset_day').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('project_quotas_reset_day_check', sql`${t.customResetDay} between 1 and 28`),
    check(
      'project_quotas_limits_check',
      sql`coalesce(${t.dailyRequestLimit}, 0) >= 0 and coalesce(${t.dailyTokenLimit}, 0) >= 0
        and coalesce(${t.monthlyRequestLimit}, 0) >= 0 and coalesce(${t.monthlyTokenLimit}, 0) >= 0
        and coalesce(${t.requestsPerMinuteLimit}, 0) >= 0`,
    ),
  ],
);

/** Closed quota windows copied from the live Redis counters by the `quota` queue (one row per window). */
export const projectUsageHistory = pgTable(
  'project_usage_history',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    period: usagePeriod('period').notNull(),
    /** The window's first UTC day: the day itself, or the month window's reset day. */
    periodStart: date('period_start', { mode: 'string' }).notNull(),
    requestCount: count('request_count').notNull(),
    tokenCount: count('token_count').notNull(),
    recordedAt: at('recorded_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.period, t.periodStart] })],
);
