// Requests to routes that write the audit log, limited per account and sliding hour. The audit log can never be
// deleted from (migration 0009), so its rows are limited by rate, as organizations and invite tokens are
// (shared/organizations/organization-rates.ts): without a limit, one free account and a script creating and deleting
// API keys wrote two rows per cycle without end (round 20, #155: 174 rows, 92 KB a second from one session, about
// 8 GB a day that no one may purge), and an organization's Admins read those rows among their own.
// Platform Admins and Moderators are not limited: what they change is bounded by what others ask of them (submissions,
// reports) or is the platform's own trust.
import type { AppContext } from '../context.js';
import type { Role } from '../identity/principal.js';
import { SlidingWindowLimiter, tooManyRequests, windowKey } from '../rate-limit/sliding-window.js';

const HOUR_MS = 3_600_000;
const PRODUCTION_CHANGES_PER_HOUR = 300;

/** The allowance per account and hour: the setting, else 300 in production and none elsewhere (0 is off). */
export const auditedChangesPerHour = (config: AppContext['config']) =>
  config.AUDITED_CHANGES_PER_ACCOUNT_PER_HOUR ?? (config.NODE_ENV === 'production' ? PRODUCTION_CHANGES_PER_HOUR : 0);

export const AUDITED_CHANGES_REFUSAL =
  'Account.TooManyChanges: the account made AUDITED_CHANGES_PER_ACCOUNT_PER_HOUR requests that write the audit log ' +
  'within the last hour (platform Admins and Moderators are not limited).';

const staff: readonly Role[] = ['Admin', 'Moderator'];

/**
 * Counts one audited request of the account, or refuses it: 429 `Account.TooManyChanges` with Retry-After. Counted
 * before the change runs (concurrent requests cannot slip past), whatever its outcome.
 */
export async function admitAuditedChange(
  ctx: Pick<AppContext, 'config' | 'redis'>,
  caller: { accountId: string; roles: readonly Role[] },
): Promise<void> {
  if (caller.roles.some((r) => staff.includes(r))) return;
  const limit = auditedChangesPerHour(ctx.config);
  if (limit === 0) return;
  const key = windowKey(ctx.config.REDIS_PREFIX, 'audited:account', caller.accountId);
  const admission = await new SlidingWindowLimiter(ctx.redis).hit([{ key, limit, windowMs: HOUR_MS }]);
  if (!admission.allowed) {
    throw tooManyRequests(
      'Account.TooManyChanges',
      `This account made ${limit} changes that the audit log records within an hour: wait (see Retry-After).`,
      admission.retryAfterMs,
    );
  }
}
