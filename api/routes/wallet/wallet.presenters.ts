// What leaves the process for wallets, records, alert settings and alerts: money as decimal numbers, nulls omitted.

import type { AlertWithAttempts } from '../../../shared/wallet/alert-history.js';
import { type AlertSettings, signingSecrets } from '../../../shared/wallet/alert-settings.js';
import type { WalletRecord } from '../../../shared/wallet/ledger.js';
import { microsToNumber } from '../../../shared/wallet/money.js';
import type { RecordOrigin } from '../../../shared/wallet/record-origins.js';
import type { LiveWallet } from '../../../shared/wallet/wallet-mirror.js';
import { withoutNulls } from '../../http/json.js';

export function presentWallet(wallet: LiveWallet) {
  return {
    organizationId: wallet.organizationId,
    balance: microsToNumber(wallet.balance),
    frozenAmount: microsToNumber(wallet.frozenAmount),
    currency: wallet.currency,
    isActive: wallet.isActive,
  };
}

/** A record; with `origin`, the project and key of its gateway request (the record list). */
export function presentRecord(record: WalletRecord, origin?: RecordOrigin) {
  return withoutNulls({
    id: record.id,
    type: record.type,
    amount: microsToNumber(record.amount),
    previousBalance: microsToNumber(record.previousBalance),
    currentBalance: microsToNumber(record.currentBalance),
    description: record.description,
    requestLogId: record.requestLogId,
    refundOf: record.refundOf,
    topUpCodeId: record.topUpCodeId,
    projectId: origin?.projectId,
    projectName: origin?.projectName,
    apiKeyId: origin?.apiKeyId,
    apiKeyName: origin?.apiKeyName,
    createdAt: record.createdAt,
  });
}

/** The settings include the webhook signing secret: only organization Admins read them. */
export function presentAlertSettings(settings: AlertSettings) {
  return withoutNulls({
    emailAlertEnabled: settings.emailAlertEnabled,
    maxDailyAlerts: settings.maxDailyAlerts,
    lastAlertTime: settings.lastAlertTime,
    webhookUrl: settings.webhookUrl,
    customHeaders: settings.customHeaders,
    messageTemplate: settings.messageTemplate,
    thresholds: settings.thresholds.map((t) => microsToNumber(BigInt(t))),
    webhookSecret: settings.webhookSecret,
    previousWebhookSecretUntil: signingSecrets(settings).length > 1 ? settings.previousWebhookSecretUntil : null,
  });
}

export function presentAlert({ alert, attempts }: AlertWithAttempts) {
  return withoutNulls({
    id: alert.id,
    kind: alert.kind,
    threshold: microsToNumber(alert.threshold),
    balance: microsToNumber(alert.balance),
    currency: alert.currency,
    occurredAt: alert.occurredAt,
    email: withoutNulls({ status: alert.emailStatus, sentAt: alert.emailSentAt }),
    webhook: withoutNulls({ status: alert.webhookStatus, deliveredAt: alert.webhookDeliveredAt }),
    attempts: attempts.map((a) =>
      withoutNulls({
        channel: a.channel,
        attempt: a.attempt,
        succeeded: a.succeeded,
        statusCode: a.statusCode,
        error: a.error,
        attemptedAt: a.attemptedAt,
      }),
    ),
  });
}
