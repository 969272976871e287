// Threshold crossings: a settlement that moves the settled balance from ≥ a threshold to < it raises one alert
// row per crossed threshold in the same transaction (the ledger writer, ledger-writer.ts); the row's id is the
// `alerts` job's payload.
import { and, asc, eq, isNull, lt } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import type { DbExecutor } from '../db/client.js';
import { walletAlertSettings, walletBalanceAlerts } from '../db/schema/index.js';
import { allowance } from '../rate-limit/within-allowance.js';
import { getWallet } from './wallets.js';

export type Crossing = { previous: bigint; current: bigint };

/** The thresholds (micro-units) that `previous → current` crosses downwards. */
export function crossedThresholds(thresholds: readonly bigint[], { previous, current }: Crossing): bigint[] {
  return thresholds.filter((t) => previous >= t && current < t);
}

/** The organization's alert thresholds in micro-units; read before the wallet row is locked. */
export async function alertThresholds(db: DbExecutor, organizationId: string): Promise<bigint[]> {
  const [settings] = await db
    .select({ thresholds: walletAlertSettings.thresholds })
    .from(walletAlertSettings)
    .where(eq(walletAlertSettings.organizationId, organizationId));
  return (settings?.thresholds ?? []).map(BigInt);
}

/**
 * After the commit: one `alerts` job per alert (job id derived from the alert, so a repeat is ignored while the
 * job exists). A failure here is logged, not thrown: the maintenance sweep enqueues alerts left unqueued.
 */
export async function enqueueAlerts(
  ctx: Pick<AppContext, 'db' | 'queues' | 'logger'>,
  alertIds: readonly string[],
  job: 'balance-alert' | 'test-alert' = 'balance-alert',
): Promise<void> {
  for (const alertId of alertIds) {
    try {
      await ctx.queues.add('alerts', job, { alertId }, { jobId: `${job}-${alertId}` });
      await ctx.db
        .update(walletBalanceAlerts)
        .set({ enqueuedAt: new Date() })
        .where(eq(walletBalanceAlerts.id, alertId));
    } catch (err) {
      ctx.logger.warn({ alertId, err: (err as Error).message }, 'balance alert not enqueued; the sweep will retry');
    }
  }
}

/** Maintenance: alerts whose enqueue failed after their commit (older than `graceMs`) are enqueued now. */
export async function enqueueStrandedAlerts(
  ctx: Pick<AppContext, 'db' | 'queues' | 'logger'>,
  graceMs = 60_000,
  now = new Date(),
): Promise<number> {
  const rows = await ctx.db
    .select({ id: walletBalanceAlerts.id, kind: walletBalanceAlerts.kind })
    .from(walletBalanceAlerts)
    .where(
      and(
        isNull(walletBalanceAlerts.enqueuedAt),
        lt(walletBalanceAlerts.occurredAt, new Date(now.getTime() - graceMs)),
      ),
    )
    .orderBy(asc(walletBalanceAlerts.occurredAt))
    .limit(500);
  for (const row of rows) {
    await enqueueAlerts(ctx, [row.id], row.kind === 'test' ? 'test-alert' : 'balance-alert');
  }
  return rows.length;
}

/**
 * Test alerts one organization may ask for per hour. Each e-mails every Admin and calls the webhook an Admin chose
 * (with headers they chose, retried on failure): unlimited, they would make the service a mailer and a reflector.
 */
export const TEST_ALERTS_PER_HOUR = 5;
const limitedTestAlert = allowance({
  name: 'test-alert',
  windowMs: 3_600_000,
  limit: () => TEST_ALERTS_PER_HOUR,
  code: 'Alert.TooManyTests',
  message: `At most ${TEST_ALERTS_PER_HOUR} test alerts per organization and hour: try again later (see Retry-After).`,
});

/**
 * `POST …/wallet/alerts/test`: an alert of kind `test` at the highest threshold with the current settled balance,
 * sent through every configured channel; it neither counts towards nor is limited by the daily e-mail cap, but by
 * TEST_ALERTS_PER_HOUR (a sliding hour in Redis).
 */
export async function requestTestAlert(
  ctx: Pick<AppContext, 'db' | 'queues' | 'logger' | 'redis' | 'config'>,
  organizationId: string,
  requestedBy: string,
): Promise<{ alertId: string }> {
  return limitedTestAlert(ctx, organizationId, () => sendTestAlert(ctx, organizationId, requestedBy));
}

async function sendTestAlert(
  ctx: Pick<AppContext, 'db' | 'queues'>,
  organizationId: string,
  requestedBy: string,
): Promise<{ alertId: string }> {
  const wallet = await getWallet(ctx.db, organizationId);
  const [settings] = await ctx.db
    .select({ thresholds: walletAlertSettings.thresholds })
    .from(walletAlertSettings)
    .where(eq(walletAlertSettings.organizationId, organizationId));
  const highest = BigInt(Math.max(0, ...(settings?.thresholds ?? [])));
  const [alert] = await ctx.db
    .insert(walletBalanceAlerts)
    .values({
      organizationId,
      kind: 'test',
      threshold: highest,
      balance: wallet.balance,
      currency: wallet.currency,
      requestedBy,
    })
    .returning({ id: walletBalanceAlerts.id });
  if (!alert) throw new Error('alert insert returned nothing');
  await ctx.queues.add('alerts', 'test-alert', { alertId: alert.id }, { jobId: `test-alert-${alert.id}` });
  await ctx.db.update(walletBalanceAlerts).set({ enqueuedAt: new Date() }).where(eq(walletBalanceAlerts.id, alert.id));
  return { alertId: alert.id };
}
