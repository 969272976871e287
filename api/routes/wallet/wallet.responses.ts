// What the wallet routes answer inside the envelope's `data` (wallet.presenters.ts), as the OpenAPI document shows
// it: money as decimal numbers in the wallet's currency, nulls omitted.
import { z } from 'zod';
import {
  walletAlertChannel,
  walletAlertChannelStatus,
  walletAlertKind,
  walletRecordType,
} from '../../../shared/db/schema/index.js';
import { timestamp } from '../../openapi/response-parts.js';

export const money = z.number().meta({ description: 'An amount in the wallet currency (up to six decimals).' });

export const wallet = z
  .object({
    organizationId: z.uuid(),
    balance: money.meta({ description: 'Available: what new requests may hold.' }),
    frozenAmount: money.meta({ description: 'Held by requests in flight.' }),
    currency: z.string(),
    isActive: z.boolean(),
  })
  .meta({ id: 'Wallet' });

export const walletRecord = z
  .object({
    id: z.uuid(),
    type: z.enum(walletRecordType.enumValues),
    amount: money,
    previousBalance: money,
    currentBalance: money,
    description: z.string().optional(),
    requestLogId: z.string().optional().meta({ description: 'The gateway request a Consume record charged.' }),
    refundOf: z.uuid().optional().meta({ description: 'The Consume record a Refund gives back.' }),
    topUpCodeId: z.uuid().optional().meta({ description: 'The top-up code a Recharge redeemed.' }),
    projectId: z.uuid().optional().meta({ description: 'The project of the gateway request (record list only).' }),
    projectName: z.string().optional().meta({ description: 'Its current name; absent once the project is deleted.' }),
    apiKeyId: z
      .uuid()
      .optional()
      .meta({ description: 'The API key that sent the gateway request (record list only).' }),
    apiKeyName: z.string().optional().meta({
      description:
        'Its current name, only to an organization Admin, the key’s holder and its project’s Owner; absent once the key is deleted.',
    }),
    createdAt: timestamp,
  })
  .meta({ id: 'WalletRecord' });

/** Only organization Admins read them: they carry the webhook signing secret. */
export const alertSettings = z
  .object({
    emailAlertEnabled: z.boolean(),
    maxDailyAlerts: z.number().int().nonnegative().meta({ description: 'Alert e-mails per UTC day at most.' }),
    lastAlertTime: timestamp.optional(),
    webhookUrl: z.string().optional().meta({ description: 'Absent: no webhook.' }),
    customHeaders: z.record(z.string(), z.string()).meta({ description: 'Sent with every webhook.' }),
    messageTemplate: z.string(),
    thresholds: z.array(money).meta({ description: 'Balances that raise an alert when crossed, highest first.' }),
    webhookSecret: z.string().meta({ description: 'The Standard Webhooks signing secret (`whsec_` + base64).' }),
    previousWebhookSecretUntil: timestamp.optional().meta({
      description:
        'After a rotation: until when deliveries are signed with the replaced secret too (24 hours; a second signature in `webhook-signature`). Absent once that time is past.',
    }),
  })
  .meta({ id: 'AlertSettings' });

export const testAlertQueued = z.object({
  alertId: z.uuid().meta({ description: 'The test alert, in the history once it is sent.' }),
});

const channelStatus = z.enum(walletAlertChannelStatus.enumValues);

export const balanceAlert = z
  .object({
    id: z.uuid(),
    kind: z.enum(walletAlertKind.enumValues),
    threshold: money,
    balance: money.meta({ description: 'The settled balance right after the crossing.' }),
    currency: z.string(),
    occurredAt: timestamp,
    email: z.object({ status: channelStatus, sentAt: timestamp.optional() }),
    webhook: z.object({ status: channelStatus, deliveredAt: timestamp.optional() }),
    attempts: z.array(
      z.object({
        channel: z.enum(walletAlertChannel.enumValues),
        attempt: z.number().int().min(1),
        succeeded: z.boolean(),
        statusCode: z.number().int().optional().meta({ description: "A webhook attempt's HTTP status." }),
        error: z.string().optional(),
        attemptedAt: timestamp,
      }),
    ),
  })
  .meta({ id: 'BalanceAlert' });

export const balanceHistory = z.object({
  currency: z.string(),
  interval: z.enum(['hour', 'day']),
  from: timestamp.meta({ description: "The window's start, on an hour or day boundary (UTC)." }),
  to: timestamp,
  openingBalance: money.meta({ description: 'The settled balance before `from`.' }),
  points: z
    .array(z.object({ at: timestamp, balance: money }))
    .meta({ description: 'The closing balance of each hour or day in which a record was written, oldest first.' }),
});

const periodSpend = (period: string) =>
  z
    .object({
      from: timestamp.meta({ description: `The start of the ${period} (UTC).` }),
      spent: money.meta({
        description: "What the period's gateway requests took from the wallet (their Consume records).",
      }),
      refunded: money.meta({ description: 'What Refund records of the period gave back.' }),
      requests: z.number().int().nonnegative().meta({ description: 'Gateway requests started in the period.' }),
    })
    .meta({ description: `Since the start of the ${period}, as the ledger worker has written it.` });

export const walletSpending = z
  .object({ currency: z.string(), today: periodSpend('UTC day'), month: periodSpend('UTC month') })
  .meta({ id: 'WalletSpending' });
