// The alerts an organization raised, newest first, each with its delivery attempts (for the Admin's alert history).
import { asc, count, desc, eq, inArray } from 'drizzle-orm';
import type { DbExecutor } from '../db/client.js';
import { walletAlertDeliveries, walletBalanceAlerts } from '../db/schema/index.js';

export type AlertWithAttempts = {
  alert: typeof walletBalanceAlerts.$inferSelect;
  attempts: (typeof walletAlertDeliveries.$inferSelect)[];
};

export async function listAlerts(
  db: DbExecutor,
  organizationId: string,
  paging: { page: number; size: number },
): Promise<{ alerts: AlertWithAttempts[]; total: number }> {
  const where = eq(walletBalanceAlerts.organizationId, organizationId);
  const [alerts, [totals]] = await Promise.all([
    db
      .select()
      .from(walletBalanceAlerts)
      .where(where)
      .orderBy(desc(walletBalanceAlerts.occurredAt), desc(walletBalanceAlerts.id))
      .limit(paging.size)
      .offset((paging.page - 1) * paging.size),
    db.select({ total: count() }).from(walletBalanceAlerts).where(where),
  ]);
  const attempts =
    alerts.length === 0
      ? []
      : await db
          .select()
          .from(walletAlertDeliveries)
          .where(
            inArray(
              walletAlertDeliveries.alertId,
              alerts.map((a) => a.id),
            ),
          )
          .orderBy(asc(walletAlertDeliveries.attemptedAt), asc(walletAlertDeliveries.attempt));
  return {
    alerts: alerts.map((alert) => ({ alert, attempts: attempts.filter((a) => a.alertId === alert.id) })),
    total: totals?.total ?? 0,
  };
}
