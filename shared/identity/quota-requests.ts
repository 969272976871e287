// Requests for a larger daily quota: one pending request per account (a new one replaces it), decided by an Admin.
import { and, desc, eq } from 'drizzle-orm';
import { type AuditActor, recordAudit } from '../audit/audit-log.js';
import type { AppContext } from '../context.js';
import { accounts, quotaRequests } from '../db/schema/index.js';
import { conflict, notFound } from '../errors/app-error.js';
import { CredentialCache } from './credential-cache.js';

export type QuotaRequest = typeof quotaRequests.$inferSelect;

/**
 * A new request supersedes the pending one under a NEW id: the old row is deleted in the same transaction, so an
 * Admin's approval of the id they were shown can never grant a value they were not shown (it finds no such request,
 * 404). The account row is locked first, so concurrent requests of one account queue behind each other and the last
 * one wins, with exactly one pending request left (the partial unique index would refuse a second anyway).
 */
export async function submitQuotaRequest(
  ctx: AppContext,
  accountId: string,
  input: { requestedQuota: number; reason?: string },
): Promise<QuotaRequest> {
  return ctx.db.transaction(async (tx) => {
    await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for('update');
    await tx
      .delete(quotaRequests)
      .where(and(eq(quotaRequests.accountId, accountId), eq(quotaRequests.status, 'pending')));
    const [row] = await tx
      .insert(quotaRequests)
      .values({ accountId, requestedQuota: input.requestedQuota, reason: input.reason ?? null })
      .returning();
    return row as QuotaRequest;
  });
}

export function listOwnQuotaRequests(ctx: AppContext, accountId: string): Promise<QuotaRequest[]> {
  return ctx.db
    .select()
    .from(quotaRequests)
    .where(eq(quotaRequests.accountId, accountId))
    .orderBy(desc(quotaRequests.createdAt), desc(quotaRequests.id))
    .limit(20);
}

/** With each request its account and that account's daily quota now (what an approval would replace). */
export function listQuotaRequests(ctx: AppContext, status?: QuotaRequest['status']) {
  return ctx.db
    .select({
      request: quotaRequests,
      account: { id: accounts.id, email: accounts.email, name: accounts.name, dailyQuota: accounts.dailyQuota },
    })
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
    const [target] = await tx
      .select({ accountId: quotaRequests.accountId })
      .from(quotaRequests)
      .where(eq(quotaRequests.id, requestId));
    if (!target) throw notFound('QuotaRequest.NotFound', 'No such quota request.');
    // The account first, as submitQuotaRequest locks it: a decision and a superseding request queue behind each other
    // (never a deadlock), and a request superseded meanwhile is gone when the update below looks for it.
    const [account] = await tx
      .select({ dailyQuota: accounts.dailyQuota })
      .from(accounts)
      .where(eq(accounts.id, target.accountId))
      .for('update');
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
      if (!existing) throw notFound('QuotaRequest.NotFound', 'No such quota request (a newer request replaced it).');
      throw conflict('QuotaRequest.AlreadyDecided', 'This quota request has already been decided.');
    }
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
