// Limits on guessing credentials (login, invite acceptance, password change): failures are counted per account
// (the e-mail asked for, or the signed-in account) and per client address in a sliding window, and once either is
// full every attempt answers 429 Auth.TooManyAttempts with Retry-After, before any password is checked. An attempt
// is counted when it starts (one Redis step), so concurrent guesses cannot overshoot; a success takes its count
// back and clears the account's failures. An unknown e-mail is counted exactly like a known one.
import { createHash } from 'node:crypto';
import type { AppContext } from '../context.js';
import { isAppError } from '../errors/app-error.js';
import { addressBucket } from '../rate-limit/address-bucket.js';
import { SlidingWindowLimiter, tooManyRequests, windowKey } from '../rate-limit/sliding-window.js';

export type AttemptKind = 'login' | 'invite' | 'password';
export type Attempter = { account: string; address: string };

export const tooManyAttempts = (retryAfterMs: number) =>
  tooManyRequests(
    'Auth.TooManyAttempts',
    'Too many failed attempts: wait before trying again (see Retry-After).',
    retryAfterMs,
  );

/** A failure is the caller's (a 4xx: wrong password, unknown or used-up invite…); a 5xx is ours and is not held
 * against them. */
const isFailure = (err: unknown) => isAppError(err) && err.status >= 400 && err.status < 500;

/** The part of a key that names an account: a hash of the e-mail (or account id), so keys hold no address. */
export const accountBucket = (account: string) =>
  createHash('sha256').update(account.trim().toLowerCase()).digest('hex').slice(0, 32);

export function attemptKeys(ctx: Pick<AppContext, 'config'>, kind: AttemptKind, who: Attempter) {
  const prefix = ctx.config.REDIS_PREFIX;
  return {
    account: windowKey(prefix, kind, 'acct', accountBucket(who.account)),
    address: windowKey(prefix, kind, 'addr', addressBucket(who.address)),
  };
}

/** Runs `attempt` unless the account or the address has too many recent failures; counts it if it fails. */
export async function limitedAttempt<T>(
  ctx: Pick<AppContext, 'config' | 'redis' | 'logger'>,
  kind: AttemptKind,
  who: Attempter,
  attempt: () => Promise<T>,
): Promise<T> {
  const { config } = ctx;
  const keys = attemptKeys(ctx, kind, who);
  const limiter = new SlidingWindowLimiter(ctx.redis);
  const admission = await limiter.hit([
    { key: keys.account, limit: config.AUTH_FAILURES_PER_ACCOUNT, windowMs: config.AUTH_FAILURE_WINDOW_MS },
    { key: keys.address, limit: config.AUTH_FAILURES_PER_ADDRESS, windowMs: config.AUTH_FAILURE_WINDOW_MS },
  ]);
  if (!admission.allowed) throw tooManyAttempts(admission.retryAfterMs);
  let result: T;
  try {
    result = await attempt();
  } catch (err) {
    if (!isFailure(err)) await limiter.forget(admission.ticket).catch(() => undefined);
    throw err;
  }
  // Bookkeeping only: if Redis fails here the attempt still succeeded, and one failure too many stays counted.
  await limiter.forget(admission.ticket, [keys.account]).catch((err: unknown) => {
    ctx.logger.warn({ err, kind }, 'could not clear the failures of a successful attempt');
  });
  return result;
}
