// Delivers one balance alert (the `alerts` job): e-mail to the organization's Admins within the daily cap, and
// the signed webhook, one attempt per run of the job (a failed attempt with attempts left answers when the next is
// due, and the job waits for it in the delayed set, holding no worker slot). Idempotent per channel: a channel that
// reached a final state is never sent again. One organization's alerts are delivered ALERTS_PER_ORGANIZATION at a
// time over every worker (its others wait), so its slow or silent webhook holds at most that many of the alerts
// worker's slots, each for one attempt at a time; and the alerts of every organization whose webhook one account set
// ALERTS_PER_ACCOUNT at a time, so neither do that account's many organizations (review findings, docs/wallet.md).
import { and, count, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import type { DbExecutor } from '../db/client.js';
import {
  organizations,
  type WalletAlertChannelStatus,
  walletAlertDeliveries,
  walletAlertSettings,
  walletBalanceAlerts,
} from '../db/schema/index.js';
import type { Mailer } from '../mail/mailer.js';
import { type SharePlace, type TenantShare, withinTenantShares } from '../queues/tenant-share.js';
import { utcDay } from '../time/utc-day.js';
import { alertRecipients } from './alert-recipients.js';
import { type AlertSettings, getAlertSettings, renderAlertMessage, signingSecrets } from './alert-settings.js';
import { sendWebhookAttempt, WEBHOOK_TIMEOUT_MS, type WebhookTransport, webhookRetryPauseMs } from './alert-webhook.js';
import { formatMicros, microsToNumber } from './money.js';

type Alert = typeof walletBalanceAlerts.$inferSelect;
type Ctx = Pick<AppContext, 'db' | 'config' | 'logger' | 'redis'>;
export type DeliveryDeps = { mailer: Mailer | undefined; webhook: WebhookTransport };
export type DeliveryResult = {
  email: WalletAlertChannelStatus;
  webhook: WalletAlertChannelStatus;
  /** The webhook's attempt failed and another is due after this pause: the job waits for it in the delayed set. */
  retryWebhookInMs?: number;
};
type WebhookStep = { status: WalletAlertChannelStatus; retryInMs?: number };

const open = new Set<WalletAlertChannelStatus>(['pending', 'sending']);

/**
 * The longest one run of a delivery may take: one webhook attempt timing out, and the e-mail. A run holds its place
 * only while it runs: the pause before the webhook's next attempt is spent in the delayed set, outside the share.
 */
const alertShare = (config: Ctx['config']): TenantShare => ({
  name: 'alerts',
  limit: config.ALERTS_PER_ORGANIZATION,
  lifetimeMs: WEBHOOK_TIMEOUT_MS + 60_000,
});

/**
 * The share of the account that set the webhook URL, over all the organizations whose webhook it set: the endpoint is
 * what makes a delivery slow, and that account chose it (an organization's creator may have left it, and others may
 * have made the choice since). Without a webhook (or once that account is deleted) the organization's share alone.
 */
const accountShare = (config: Ctx['config']): TenantShare => ({
  name: 'alerts-account',
  limit: config.ALERTS_PER_ACCOUNT,
  lifetimeMs: WEBHOOK_TIMEOUT_MS + 60_000,
});

const sharesOf = (config: Ctx['config'], settings: AlertSettings): SharePlace[] => [
  { share: alertShare(config), tenantId: settings.organizationId },
  ...(settings.webhookSetBy ? [{ share: accountShare(config), tenantId: settings.webhookSetBy }] : []),
];

/**
 * Runs both channels, the webhook for one attempt; an e-mail failure is thrown after the webhook's attempt (so the
 * job is retried with its backoff, for the e-mail and the webhook's next attempt if it has one), except on the job's
 * last attempt, where the e-mail is marked `failed`. `{ deferred: true }`, nothing done, while the organization has
 * its share of deliveries running.
 */
export async function deliverAlert(
  ctx: Ctx,
  alertId: string,
  deps: DeliveryDeps,
  options: { lastAttempt: boolean },
): Promise<DeliveryResult | { missing: true } | { deferred: true }> {
  const [alert] = await ctx.db.select().from(walletBalanceAlerts).where(eq(walletBalanceAlerts.id, alertId));
  if (!alert) return { missing: true };
  const settings = await getAlertSettings(ctx.db, alert.organizationId);
  return withinTenantShares(ctx, sharesOf(ctx.config, settings), alert.id, () =>
    deliverChannels(ctx, alert, settings, deps, options),
  );
}

async function deliverChannels(
  ctx: Ctx,
  alert: Alert,
  settings: AlertSettings,
  deps: DeliveryDeps,
  options: { lastAttempt: boolean },
): Promise<DeliveryResult> {
  const message = renderAlertMessage(settings.messageTemplate, alert);
  let emailError: unknown;
  const email = await deliverEmail(ctx, alert, settings, deps.mailer).catch((err: unknown) => {
    emailError = err;
    return 'sending' as const;
  });
  const webhook = await deliverWebhook(ctx, alert, settings, message, deps.webhook);
  const retry = webhook.retryInMs === undefined ? {} : { retryWebhookInMs: webhook.retryInMs };
  if (emailError !== undefined) {
    if (!options.lastAttempt) throw emailError;
    await setStatus(ctx.db, alert.id, { emailStatus: 'failed' });
    return { email: 'failed', webhook: webhook.status, ...retry };
  }
  return { email, webhook: webhook.status, ...retry };
}

/**
 * The e-mail is our fixed text with the figures and the organization's name, never the Admin-written
 * `messageTemplate` (seed 03 gives it to the webhook): no recipient address is verified, so an Admin could name any
 * address as an Admin of their organization and have the operator's mail server send it their own words (review of
 * 2026-11-27, second round).
 */
function alertEmail(alert: Alert, organizationName: string): { subject: string; text: string } {
  const threshold = `${formatMicros(alert.threshold)} ${alert.currency}`;
  const subject = alert.kind === 'test' ? '[ockhub] Test balance alert' : `[ockhub] Wallet balance below ${threshold}`;
  const text = [
    alert.kind === 'test'
      ? 'This is a test of the balance alerts of your ockhub organization.'
      : `The wallet balance of your ockhub organization has fallen below ${threshold}.`,
    '',
    `Organization: ${organizationName} (${alert.organizationId})`,
    `Balance: ${formatMicros(alert.balance)} ${alert.currency}`,
    `Threshold: ${threshold}`,
    `Time: ${alert.occurredAt.toISOString()}`,
  ].join('\n');
  return { subject, text };
}

async function deliverEmail(
  ctx: Ctx,
  alert: Alert,
  settings: AlertSettings,
  mailer: Mailer | undefined,
): Promise<WalletAlertChannelStatus> {
  if (!open.has(alert.emailStatus)) return alert.emailStatus;
  const finish = async (status: WalletAlertChannelStatus) => {
    await setStatus(ctx.db, alert.id, { emailStatus: status });
    return status;
  };
  if (!settings.emailAlertEnabled) return finish('disabled');
  const to = await alertRecipients(ctx.db, alert.organizationId);
  if (to.length === 0) return finish('no_recipients');
  const attempt = (await attemptsSoFar(ctx.db, alert.id, 'email')) + 1;
  if (!mailer) {
    ctx.logger.warn(
      { alertId: alert.id },
      'balance alert e-mail not sent: e-mail is not configured (SMTP_URL is unset)',
    );
    await recordAttempt(ctx.db, alert.id, 'email', {
      attempt,
      succeeded: false,
      error: 'e-mail is not configured (SMTP_URL is unset)',
      target: to.join(', '),
    });
    return finish('not_configured');
  }
  if (alert.kind === 'balance' && alert.emailStatus === 'pending' && !(await claimDailySlot(ctx.db, alert))) {
    return finish('capped');
  }
  const [organization] = await ctx.db
    .select({ name: organizations.name })
    .from(organizations)
    .where(eq(organizations.id, alert.organizationId));
  const { subject, text } = alertEmail(alert, organization?.name ?? 'unknown');
  try {
    await mailer.send({ to, subject, text });
  } catch (err) {
    const error = (err as Error).message.slice(0, 500);
    await recordAttempt(ctx.db, alert.id, 'email', { attempt, succeeded: false, error, target: to.join(', ') });
    throw err;
  }
  await recordAttempt(ctx.db, alert.id, 'email', { attempt, succeeded: true, target: to.join(', ') });
  await setStatus(ctx.db, alert.id, { emailStatus: 'sent', emailSentAt: new Date() });
  if (alert.kind === 'balance') await touchLastAlertTime(ctx.db, alert.organizationId);
  return 'sent';
}

/**
 * One attempt of the webhook: its number follows the attempts recorded by earlier runs (an attempt cut short by a
 * dead worker was never recorded, so it is made again under its number, with the same webhook-id). The attempt's row
 * and a final status are written in one transaction, so a 2xx once recorded is never sent again.
 */
async function deliverWebhook(
  ctx: Ctx,
  alert: Alert,
  settings: AlertSettings,
  message: string,
  transport: WebhookTransport,
): Promise<WebhookStep> {
  if (!open.has(alert.webhookStatus)) return { status: alert.webhookStatus };
  if (!settings.webhookUrl) {
    await setStatus(ctx.db, alert.id, { webhookStatus: 'disabled' });
    return { status: 'disabled' };
  }
  const url = settings.webhookUrl;
  const attempts = ctx.config.ALERT_WEBHOOK_ATTEMPTS;
  const number = (await attemptsSoFar(ctx.db, alert.id, 'webhook')) + 1;
  if (number > attempts) {
    // Every attempt was made and recorded by earlier runs (or the setting was lowered since): it has failed.
    await setStatus(ctx.db, alert.id, { webhookStatus: 'failed' });
    return { status: 'failed' };
  }
  if (alert.webhookStatus === 'pending') await setStatus(ctx.db, alert.id, { webhookStatus: 'sending' });
  const payload = {
    type: 'wallet.balance_low',
    organizationId: alert.organizationId,
    balance: microsToNumber(alert.balance),
    currency: alert.currency,
    threshold: microsToNumber(alert.threshold),
    message,
    occurredAt: alert.occurredAt.toISOString(),
    ...(alert.kind === 'test' ? { test: true } : {}),
  };
  const { final, ...attempt } = await sendWebhookAttempt(
    transport,
    {
      url,
      customHeaders: settings.customHeaders,
      secrets: signingSecrets(settings),
      messageId: `msg_${alert.id}`,
      payload,
    },
    number,
  );
  const step: WebhookStep = attempt.succeeded
    ? { status: 'sent' }
    : final || number >= attempts
      ? { status: 'failed' }
      : { status: 'sending', retryInMs: webhookRetryPauseMs(number, ctx.config.ALERT_WEBHOOK_RETRY_MS) };
  await ctx.db.transaction(async (tx) => {
    await recordAttempt(tx, alert.id, 'webhook', { ...attempt, target: url });
    if (step.status === 'sent') {
      await setStatus(tx, alert.id, { webhookStatus: 'sent', webhookDeliveredAt: new Date() });
    } else if (step.status === 'failed') {
      await setStatus(tx, alert.id, { webhookStatus: 'failed' });
    }
  });
  if (step.status === 'failed') ctx.logger.warn({ alertId: alert.id, last: attempt }, 'balance alert webhook failed');
  if (step.status === 'sent' && alert.kind === 'balance') await touchLastAlertTime(ctx.db, alert.organizationId);
  return step;
}

/** Takes one of today's (UTC) `maxDailyAlerts` e-mail slots of the organization, under the settings row lock. */
async function claimDailySlot(db: AppContext['db'], alert: Alert): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [settings] = await tx
      .select()
      .from(walletAlertSettings)
      .where(eq(walletAlertSettings.organizationId, alert.organizationId))
      .for('update');
    if (!settings) return false;
    const today = utcDay(new Date());
    const used = settings.emailDay === today ? settings.emailCount : 0;
    if (used >= settings.maxDailyAlerts) return false;
    await tx
      .update(walletAlertSettings)
      .set({ emailDay: today, emailCount: used + 1 })
      .where(eq(walletAlertSettings.organizationId, alert.organizationId));
    await tx.update(walletBalanceAlerts).set({ emailStatus: 'sending' }).where(eq(walletBalanceAlerts.id, alert.id));
    return true;
  });
}

async function setStatus(db: DbExecutor, alertId: string, values: Partial<Alert>) {
  await db.update(walletBalanceAlerts).set(values).where(eq(walletBalanceAlerts.id, alertId));
}

async function touchLastAlertTime(db: DbExecutor, organizationId: string) {
  await db
    .update(walletAlertSettings)
    .set({ lastAlertTime: sql`now()` })
    .where(eq(walletAlertSettings.organizationId, organizationId));
}

async function attemptsSoFar(db: DbExecutor, alertId: string, channel: 'email' | 'webhook') {
  const [row] = await db
    .select({ n: count() })
    .from(walletAlertDeliveries)
    .where(and(eq(walletAlertDeliveries.alertId, alertId), eq(walletAlertDeliveries.channel, channel)));
  return row?.n ?? 0;
}

async function recordAttempt(
  db: DbExecutor,
  alertId: string,
  channel: 'email' | 'webhook',
  a: { attempt: number; succeeded: boolean; statusCode?: number; error?: string; target: string },
) {
  await db.insert(walletAlertDeliveries).values({
    alertId,
    channel,
    attempt: a.attempt,
    succeeded: a.succeeded,
    statusCode: a.statusCode ?? null,
    error: a.error ?? null,
    target: a.target,
  });
}
