// Requests for a larger daily quota: one pending request per account (a new one replaces it), decided by an Admin.
import { and, desc, eq, sql } from 'drizzle-orm';
import { type AuditActor, recordAudit } from '../audit/audit-log.js';
import type { AppContext } from '../context.js';
import { accounts, quotaRequests } from '../db/schema/index.js';
import { conflict, notFound } from '../errors/app-error.js';
import { CredentialCache } from './credential-cache.js';

export type QuotaRequest = typeof quotaRequests.$inferSelect;

export async function submitQuotaRequest(
  ctx: AppContext,
  accountId: string,
  input: { requestedQuota: number; reason?: string },
): Promise<QuotaRequest> {
  const [row] = await ctx.db
    .insert(quotaRequests)
    .values({ accountId, requestedQuota: input.requestedQuota, reason: input.reason ?? null })
    .onConflictDoUpdate({
      target: quotaRequests.accountId,
      targetWhere: sql`${quotaRequests.status} = 'pending'`,
      set: { requestedQuota: input.requestedQuota, reason: input.reason ?? null, createdAt: new Date() },
    })
    .returning();
  return row as QuotaRequest;
}

export function listOwnQuotaRequests(ctx: AppContext, accountId: string): Promise<QuotaRequest[]> {
  return ctx.db
    .select()
    .from(quotaRequests)
    .where(eq(quotaRequests.accountId, accountId))
    .orderBy(desc(quotaRequests.createdAt), desc(quotaRequests.id))
    .limit(20);
}

export function listQuotaRequests(ctx: AppContext, status?: QuotaRequest['status']) {
  return ctx.db
    .select({ request: quotaRequests, account: { id: accounts.id, email: accounts.email, name: accounts.name } })
    .from(quotaRequests)
    .innerJoin(accounts, eq(accounts.id, quotaRequests.accountId))
    .where(status ? eq(quotaRequests.status, status) : undefined)
    .orderBy(quotaRequests.createdAt, quotaRequests.id)
    .limit(500);
}

/** Approving sets the account's daily quota in the same transaction; a decided request cannot be decided again. */
export async function decideQuotaRequest(
  ctx: AppContext,
  requestId: string,
  decision: 'approved' | 'rejected',
  actor: AuditActor,
): Promise<QuotaRequest> {
  const decided = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(quotaRequests)
      .set({ status: decision, decidedAt: new Date(), decidedBy: actor.accountId })
      .where(and(eq(quotaRequests.id, requestId), eq(quotaRequests.status, 'pending')))
      .returning();
    if (!row) {
      const [existing] = await tx
        .select({ id: quotaRequests.id })
        .from(quotaRequests)
        .where(eq(quotaRequests.id, requestId));
      if (!existing) throw notFound('QuotaRequest.NotFound', 'No such quota request.');
      throw conflict('QuotaRequest.AlreadyDecided', 'This quota request has already been decided.');
    }
    const [account] = await tx
      .select({ dailyQuota: accounts.dailyQuota })
      .from(accounts)
      .where(eq(accounts.id, row.accountId))
      .for('update');
    if (decision === 'approved') {
      await tx
        .update(accounts)
        .set({ dailyQuota: row.requestedQuota, updatedAt: new Date() })
        .where(eq(accounts.id, row.accountId));
    }
    const dailyQuota = account?.dailyQuota ?? null;
    await recordAudit(tx, actor, {
      action: decision === 'approved' ? 'quota_request.approve' : 'quota_request.reject',
      target: { type: 'quota_request', id: row.id },
      before: { status: 'pending', accountId: row.accountId, requestedQuota: row.requestedQuota, dailyQuota },
      after: { status: decision, dailyQuota: decision === 'approved' ? row.requestedQuota : dailyQuota },
    });
    return row;
  });
  if (decision === 'approved')
    await new CredentialCache(ctx.redis, ctx.config.REDIS_PREFIX).invalidateAccount(decided.accountId);
  return decided;
}
