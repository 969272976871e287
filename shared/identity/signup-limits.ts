// Accounts a client address may make through invites: any account can create an organization and issue itself an
// invite link of many uses, so without a limit one account and a script make accounts without end, each with its own
// daily API quota, its own rating of every item and its own reports. Only acceptances that made an account count.
import type { AppContext } from '../context.js';
import { addressBucket } from '../rate-limit/address-bucket.js';
import { allowance } from '../rate-limit/within-allowance.js';

const SIGNUP_WINDOW_MS = 3_600_000;
const PRODUCTION_SIGNUPS_PER_HOUR = 20;

/** The allowance per address and hour: the setting, else 20 in production and none elsewhere (0 is off). */
export const signupsPerHour = (config: AppContext['config']) =>
  config.ACCOUNT_SIGNUPS_PER_ADDRESS_PER_HOUR ?? (config.NODE_ENV === 'production' ? PRODUCTION_SIGNUPS_PER_HOUR : 0);

const signupAllowance = allowance({
  name: 'signup:addr',
  windowMs: SIGNUP_WINDOW_MS,
  limit: signupsPerHour,
  code: 'Auth.TooManySignups',
  message: 'Too many accounts were made from this address: wait (see Retry-After).',
});

/** Runs `signup` (which makes an account) within the address's allowance; a signup that fails gives its place back. */
export const limitedSignup = <T>(
  ctx: Pick<AppContext, 'config' | 'redis'>,
  address: string,
  signup: () => Promise<T>,
) => signupAllowance(ctx, addressBucket(address), signup);
