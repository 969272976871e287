// The organization wallet (SPEC section 4): the settled balance, the chained record ledger, balance-alert settings,
// the alerts raised by threshold crossings and every delivery attempt. Money columns are integer micro-units
// (1 USD = 1,000,000) read as bigint. Reservations of requests in flight live in the Redis mirror (docs/wallet.md).
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  json,
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
import { organizations } from './organizations.js';
import { walletTopUpCodes } from './top-up-codes.js';

export const walletRecordType = pgEnum('wallet_record_type', ['Recharge', 'Consume', 'Refund']);
export const walletAlertKind = pgEnum('wallet_alert_kind', ['balance', 'test']);
/** Per channel: pending → sent | failed, or a reason it was not sent (disabled, no recipients, capped, not configured). */
export const walletAlertChannelStatus = pgEnum('wallet_alert_channel_status', [
  'pending',
  'sending',
  'sent',
  'failed',
  'disabled',
  'no_recipients',
  'capped',
  'not_configured',
]);
export const walletAlertChannel = pgEnum('wallet_alert_channel', ['email', 'webhook']);

export type WalletRecordType = (typeof walletRecordType.enumValues)[number];
export type WalletAlertChannelStatus = (typeof walletAlertChannelStatus.enumValues)[number];

const money = (name: string) => bigint(name, { mode: 'bigint' });
const accountRef = (name: string) => uuid(name).references(() => accounts.id, { onDelete: 'set null' });

export const organizationWallets = pgTable(
  'organization_wallets',
  {
    organizationId: uuid('organization_id')
      .primaryKey()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** The settled balance: the last record's currentBalance (requests in flight hold money in the Redis mirror). */
    balance: money('balance').notNull().default(sql`0`),
    currency: text('currency').notNull().default('USD'),
    isActive: boolean('is_active').notNull().default(true),
    /** Sequence number of the last record written; records chain in this order. */
    recordSeq: bigint('record_seq', { mode: 'number' }).notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [check('organization_wallets_balance_not_negative', sql`${t.balance} >= 0`)],
);

/**
 * What an organization's gateway requests took from its wallet per UTC day of their start: kept by the ledger writer
 * in the statement that inserts the request logs (only rows it inserts, so a batch written again adds nothing), so the
 * console's Overview reads a month as at most 31 rows (`GET /api/organization/wallet/spending`, docs/wallet.md).
 */
export const organizationDailySpending = pgTable(
  'organization_daily_spending',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizationWallets.organizationId, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    requestCount: integer('request_count').notNull(),
    /** What the requests' Consume records took (their settlements' charges), micro-units. */
    spent: money('spent').notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.day] })],
);

export const walletRecords = pgTable(
  'wallet_records',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizationWallets.organizationId, { onDelete: 'cascade' }),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    type: walletRecordType('type').notNull(),
    /** Always positive; the type gives the sign (Recharge +, Consume −, Refund +). */
    amount: money('amount').notNull(),
    previousBalance: money('previous_balance').notNull(),
    currentBalance: money('current_balance').notNull(),
    description: text('description'),
    requestLogId: text('request_log_id'),
    refundOf: uuid('refund_of').references((): AnyPgColumn => walletRecords.id, { onDelete: 'restrict' }),
    /** The top-up code a Recharge redeemed (never the code itself). */
    topUpCodeId: uuid('top_up_code_id').references(() => walletTopUpCodes.id, { onDelete: 'restrict' }),
    idempotencyKey: text('idempotency_key').notNull(),
    createdBy: accountRef('created_by'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('wallet_records_org_seq_key').on(t.organizationId, t.seq),
    uniqueIndex('wallet_records_idempotency_key').on(t.idempotencyKey),
    uniqueIndex('wallet_records_refund_of_key').on(t.refundOf).where(sql`${t.refundOf} is not null`),
    uniqueIndex('wallet_records_top_up_code_key').on(t.topUpCodeId).where(sql`${t.topUpCodeId} is not null`),
    index('wallet_records_org_type_seq_idx').on(t.organizationId, t.type, t.seq),
    check('wallet_records_amount_positive', sql`${t.amount} > 0`),
  ],
);

/**
 * Settled gateway requests the ledger writer could not write (an entry PostgreSQL refuses alone: a data or constraint
 * error, or one it cannot read), kept here as they waited in the organization's Redis stream and taken off it, so
 * they stop failing every later batch (shared/wallet/ledger-writer.ts, docs/wallet.md "Entries PostgreSQL refuses").
 * Their charges were never written: the wallet keeps that money (an undercharge, logged). `entry` is the stream's text
 * as a JSON string literal (what could not be stored as it was, a NUL or a lone surrogate, escaped). No foreign key:
 * kept for the operator whatever happens to the organization.
 */
export const ledgerQuarantine = pgTable(
  'ledger_quarantine',
  {
    organizationId: uuid('organization_id').notNull(),
    streamId: text('stream_id').notNull(),
    entry: text('entry').notNull(),
    charged: money('charged').notNull(),
    error: text('error').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.streamId] })],
);

export const walletAlertSettings = pgTable(
  'wallet_alert_settings',
  {
    organizationId: uuid('organization_id')
      .primaryKey()
      .references(() => organizationWallets.organizationId, { onDelete: 'cascade' }),
    emailAlertEnabled: boolean('email_alert_enabled').notNull().default(true),
    maxDailyAlerts: integer('max_daily_alerts').notNull().default(3),
    lastAlertTime: at('last_alert_time'),
    webhookUrl: text('webhook_url'),
    /**
     * The account that chose the webhook URL (null without one, or once that account is deleted): the delivery
     * counts against that account's share of the alerts worker (ALERTS_PER_ACCOUNT, docs/wallet.md).
     */
    webhookSetBy: uuid('webhook_set_by').references(() => accounts.id, { onDelete: 'set null' }),
    /** `json`, not `jsonb`: the headers keep the order their Admin wrote them in (docs/wallet.md). */
    customHeaders: json('custom_headers').$type<Record<string, string>>().notNull().default({}),
    messageTemplate: text('message_template').notNull(),
    /** Micro-units, descending. */
    thresholds: jsonb('thresholds').$type<number[]>().notNull(),
    /** Standard Webhooks signing secret (`whsec_` + base64). */
    webhookSecret: text('webhook_secret').notNull(),
    /**
     * The secret a rotation replaced, and until when deliveries are signed with it too (Standard Webhooks' several
     * signatures), so a receiver verifies alerts while its secret is changed: 24 hours (docs/wallet.md).
     */
    previousWebhookSecret: text('previous_webhook_secret'),
    previousWebhookSecretUntil: at('previous_webhook_secret_until'),
    /** The daily e-mail cap: the UTC day counted and how many alert e-mails were claimed on it. */
    emailDay: date('email_day', { mode: 'string' }),
    emailCount: integer('email_count').notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [check('wallet_alert_settings_max_daily_not_negative', sql`${t.maxDailyAlerts} >= 0`)],
);

export const walletBalanceAlerts = pgTable(
  'wallet_balance_alerts',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizationWallets.organizationId, { onDelete: 'cascade' }),
    kind: walletAlertKind('kind').notNull().default('balance'),
    threshold: money('threshold').notNull(),
    /** The settled balance right after the crossing. */
    balance: money('balance').notNull(),
    currency: text('currency').notNull(),
    /** The record whose settlement crossed the threshold (null for test alerts). */
    recordId: uuid('record_id').references(() => walletRecords.id, { onDelete: 'cascade' }),
    requestedBy: accountRef('requested_by'),
    emailStatus: walletAlertChannelStatus('email_status').notNull().default('pending'),
    emailSentAt: at('email_sent_at'),
    webhookStatus: walletAlertChannelStatus('webhook_status').notNull().default('pending'),
    webhookDeliveredAt: at('webhook_delivered_at'),
    /** Set once the job is in the queue; the maintenance sweep re-enqueues alerts left without it. */
    enqueuedAt: at('enqueued_at'),
    occurredAt: at('occurred_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('wallet_balance_alerts_crossing_key').on(t.recordId, t.threshold),
    index('wallet_balance_alerts_org_idx').on(t.organizationId, t.occurredAt),
    index('wallet_balance_alerts_unqueued_idx').on(t.occurredAt).where(sql`${t.enqueuedAt} is null`),
  ],
);

export const walletAlertDeliveries = pgTable(
  'wallet_alert_deliveries',
  {
    id: id(),
    alertId: uuid('alert_id')
      .notNull()
      .references(() => walletBalanceAlerts.id, { onDelete: 'cascade' }),
    channel: walletAlertChannel('channel').notNull(),
    attempt: integer('attempt').notNull(),
    succeeded: boolean('succeeded').notNull(),
    /** HTTP status of a webhook attempt. */
    statusCode: integer('status_code'),
    error: text('error'),
    /** E-mail recipients or the webhook URL of this attempt. */
    target: text('target'),
    attemptedAt: at('attempted_at').notNull().defaultNow(),
  },
  (t) => [index('wallet_alert_deliveries_alert_idx').on(t.alertId, t.attemptedAt)],
);
