// Balance-alert settings of an organization (seed 03): e-mail (enabled, daily cap) and webhook (URL, custom
// headers, message template, thresholds) with the organization's Standard Webhooks signing secret.
import { eq, sql } from 'drizzle-orm';
import { type AuditActor, recordAudit } from '../audit/audit-log.js';
import type { Database, DbExecutor } from '../db/client.js';
import { walletAlertSettings } from '../db/schema/index.js';
import { badRequest } from '../errors/app-error.js';
import { isOutboundRequestError, type OutboundClient } from '../http/index.js';
import { formatMicros } from './money.js';
import { newWebhookSecret, walletNotFound } from './wallets.js';

export type AlertSettings = typeof walletAlertSettings.$inferSelect;

/** How long a rotated webhook secret goes on signing deliveries beside the new one (as Svix and Stripe do). */
export const PREVIOUS_SECRET_SIGNS_MS = 24 * 60 * 60 * 1000;

/** The secrets a delivery is signed with now: the current one, and the one a rotation replaced while it still signs. */
export function signingSecrets(settings: AlertSettings, now = new Date()): string[] {
  const previous = settings.previousWebhookSecret;
  const until = settings.previousWebhookSecretUntil;
  return previous && until && until > now ? [settings.webhookSecret, previous] : [settings.webhookSecret];
}

export type AlertSettingsChange = {
  emailAlertEnabled?: boolean;
  maxDailyAlerts?: number;
  webhookUrl?: string | null;
  customHeaders?: Record<string, string>;
  messageTemplate?: string;
  /** Micro-units. */
  thresholds?: bigint[];
  rotateWebhookSecret?: boolean;
};

export async function getAlertSettings(db: DbExecutor, organizationId: string): Promise<AlertSettings> {
  const [settings] = await db
    .select()
    .from(walletAlertSettings)
    .where(eq(walletAlertSettings.organizationId, organizationId));
  if (!settings) throw walletNotFound();
  return settings;
}

/**
 * Applies the fields present in `change` (absent fields keep their value; `webhookUrl: null` removes the webhook).
 * A webhook URL must be http(s) and resolve only to public addresses (hosts in OUTBOUND_ALLOWED_HOSTS excepted),
 * checked with the outbound client's own rules: 400 Wallet.InvalidWebhookUrl otherwise, nothing changed. The account
 * `by` that sets a webhook URL is recorded with it: its deliveries count against that account's share of the alerts
 * worker (alert-delivery.ts), whoever made the organization. With an `actor`, the change and its audit row
 * (`alert_settings.update`: what changed, without the URL's path, header values or the secret) are one transaction.
 */
export async function updateAlertSettings(
  ctx: { db: Database; outbound: Pick<OutboundClient, 'checkUrl'> },
  organizationId: string,
  change: AlertSettingsChange,
  by?: string,
  actor?: AuditActor,
): Promise<AlertSettings> {
  let webhookUrl = change.webhookUrl;
  if (typeof webhookUrl === 'string') {
    try {
      webhookUrl = (await ctx.outbound.checkUrl(webhookUrl)).href;
    } catch (err) {
      if (!isOutboundRequestError(err)) throw err;
      throw badRequest('Wallet.InvalidWebhookUrl', `webhookUrl: ${err.message}`);
    }
  }
  const thresholds = change.thresholds && [...new Set(change.thresholds)].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
  if (!actor) return applyChange(ctx.db, organizationId, change, webhookUrl, thresholds, by);
  return ctx.db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(walletAlertSettings)
      .where(eq(walletAlertSettings.organizationId, organizationId))
      .for('update');
    if (!before) throw walletNotFound();
    const updated = await applyChange(tx, organizationId, change, webhookUrl, thresholds, by);
    await recordAudit(tx, actor, {
      action: 'alert_settings.update',
      organizationId,
      target: { type: 'wallet_alert_settings', id: organizationId },
      before: auditedFields(before, change),
      after: { ...auditedFields(updated, change), ...(change.rotateWebhookSecret && { webhookSecretRotated: true }) },
    });
    return updated;
  });
}

/**
 * The audited view of the fields a change names: the webhook's origin only (a path or query may hold the receiver's
 * own secret, as Slack's do), header names without their values, thresholds as amounts; never the signing secret.
 */
function auditedFields(settings: AlertSettings, change: AlertSettingsChange): Record<string, unknown> {
  return {
    ...(change.emailAlertEnabled !== undefined && { emailAlertEnabled: settings.emailAlertEnabled }),
    ...(change.maxDailyAlerts !== undefined && { maxDailyAlerts: settings.maxDailyAlerts }),
    ...(change.webhookUrl !== undefined && {
      webhookOrigin: settings.webhookUrl ? new URL(settings.webhookUrl).origin : null,
    }),
    ...(change.customHeaders !== undefined && { customHeaderNames: Object.keys(settings.customHeaders) }),
    ...(change.messageTemplate !== undefined && { messageTemplate: settings.messageTemplate }),
    ...(change.thresholds !== undefined && { thresholds: settings.thresholds.map((t) => formatMicros(BigInt(t))) }),
  };
}

async function applyChange(
  db: DbExecutor,
  organizationId: string,
  change: AlertSettingsChange,
  webhookUrl: string | null | undefined,
  thresholds: bigint[] | undefined,
  by: string | undefined,
): Promise<AlertSettings> {
  const [updated] = await db
    .update(walletAlertSettings)
    .set({
      ...(change.emailAlertEnabled !== undefined && { emailAlertEnabled: change.emailAlertEnabled }),
      ...(change.maxDailyAlerts !== undefined && { maxDailyAlerts: change.maxDailyAlerts }),
      ...(webhookUrl !== undefined && { webhookUrl, webhookSetBy: webhookUrl === null ? null : (by ?? null) }),
      ...(change.customHeaders !== undefined && { customHeaders: change.customHeaders }),
      ...(change.messageTemplate !== undefined && { messageTemplate: change.messageTemplate }),
      ...(thresholds !== undefined && { thresholds: thresholds.map(Number) }),
      ...(change.rotateWebhookSecret && {
        webhookSecret: newWebhookSecret(),
        // The column's value before this update: the secret being replaced keeps signing for a while.
        previousWebhookSecret: sql`${walletAlertSettings.webhookSecret}`,
        previousWebhookSecretUntil: sql`now() + make_interval(secs => ${PREVIOUS_SECRET_SIGNS_MS / 1000})`,
      }),
      updatedAt: sql`now()`,
    })
    .where(eq(walletAlertSettings.organizationId, organizationId))
    .returning();
  if (!updated) throw walletNotFound();
  return updated;
}

/** The alert text: `messageTemplate` with {threshold}, {balance} and {currency} filled in. */
export function renderAlertMessage(template: string, values: { threshold: bigint; balance: bigint; currency: string }) {
  return template
    .replaceAll('{threshold}', formatMicros(values.threshold))
    .replaceAll('{balance}', formatMicros(values.balance))
    .replaceAll('{currency}', values.currency);
}
