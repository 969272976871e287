// Accounts, console sessions, API keys, quota requests and the persisted daily usage history.
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  date,
  index,
  integer,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { at, createdAt, id, updatedAt } from './columns.js';
import { projects } from './organizations.js';

export const apiKeyStatus = pgEnum('api_key_status', ['enabled', 'disabled']);
export const quotaRequestStatus = pgEnum('quota_request_status', ['pending', 'approved', 'rejected']);

export const accounts = pgTable(
  'accounts',
  {
    id: id(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    passwordHash: text('password_hash').notNull(),
    roles: text('roles').array().notNull().default(sql`'{}'::text[]`),
    dailyQuota: integer('daily_quota').notNull().default(1000),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('accounts_email_lower_key').on(sql`lower(${t.email})`)],
);

export const consoleSessions = pgTable(
  'console_sessions',
  {
    id: id(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: at('expires_at').notNull(),
    revokedAt: at('revoked_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('console_sessions_token_hash_key').on(t.tokenHash),
    index('console_sessions_expires_idx').on(t.expiresAt),
  ],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: id(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    tokenHash: text('token_hash').notNull(),
    status: apiKeyStatus('status').notNull().default('enabled'),
    projectId: uuid('project_id').references((): AnyPgColumn => projects.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastUsedAt: at('last_used_at'),
  },
  (t) => [
    uniqueIndex('api_keys_token_hash_key').on(t.tokenHash),
    index('api_keys_account_idx').on(t.accountId),
    // A project's keys, newest first (its page in the console), and the keys a project's deletion or a member's
    // removal takes with them.
    index('api_keys_project_idx').on(t.projectId, t.createdAt.desc(), t.id.desc()),
  ],
);

export const quotaRequests = pgTable(
  'quota_requests',
  {
    id: id(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    requestedQuota: integer('requested_quota').notNull(),
    reason: text('reason'),
    status: quotaRequestStatus('status').notNull().default('pending'),
    createdAt: createdAt(),
    decidedAt: at('decided_at'),
    decidedBy: uuid('decided_by').references(() => accounts.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('quota_requests_account_idx').on(t.accountId, t.createdAt),
    uniqueIndex('quota_requests_one_pending_key').on(t.accountId).where(sql`${t.status} = 'pending'`),
  ],
);

export const accountDailyUsage = pgTable(
  'account_daily_usage',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    requestCount: integer('request_count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.day] })],
);

export const apiKeyDailyUsage = pgTable(
  'api_key_daily_usage',
  {
    keyId: uuid('key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    requestCount: integer('request_count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.day] })],
);

/**
 * A project key's gateway (`/v1/**`) requests per UTC day of their start (the request log's `created_at`), added by
 * the ledger writer in the transaction that inserts the request logs, for the rows it actually inserted
 * (shared/wallet/ledger-rows.ts): the key lists read these rows instead of counting the key's request logs.
 */
export const apiKeyDailyGatewayUsage = pgTable(
  'api_key_daily_gateway_usage',
  {
    keyId: uuid('key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    requestCount: integer('request_count').notNull(),
    /** What those requests' Consume records took from the wallet, in micro-units. */
    spent: bigint('spent', { mode: 'bigint' }).notNull().default(sql`0`),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.day] })],
);
