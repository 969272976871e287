// Sign-ins per account: failures are limited by attempt-limits.ts, and this limits the ones with the right password.
// Each is a password hash on the API's few hashing threads (once their queue is full every login answers 503) and a
// session row kept until a day after it expires; without a limit the owner of one account, or a script holding its
// password, signed in without end. Counted before the hash, so a burst cannot pass it; a failed sign-in gives its
// place back, so a guesser who knows only the e-mail cannot use up the owner's allowance.
import type { AppContext } from '../context.js';
import { allowance } from '../rate-limit/within-allowance.js';
import { accountBucket } from './attempt-limits.js';

const SIGN_IN_WINDOW_MS = 3_600_000;
const PRODUCTION_SIGN_INS_PER_HOUR = 30;

/** The allowance per account and hour: the setting, else 30 in production and none elsewhere (0 is off). */
export const signInsPerHour = (config: AppContext['config']) =>
  config.SIGN_INS_PER_ACCOUNT_PER_HOUR ?? (config.NODE_ENV === 'production' ? PRODUCTION_SIGN_INS_PER_HOUR : 0);

const signInAllowance = allowance({
  name: 'sign-in:acct',
  windowMs: SIGN_IN_WINDOW_MS,
  limit: signInsPerHour,
  code: 'Auth.TooManySignIns',
  message: 'This account signed in as often as it may within an hour: use a session it has, or wait (see Retry-After).',
});

/** Runs `signIn` for the account `email` names within its allowance; a sign-in that fails gives its place back. */
export const limitedSignIn = <T>(ctx: Pick<AppContext, 'config' | 'redis'>, email: string, signIn: () => Promise<T>) =>
  signInAllowance(ctx, accountBucket(email), signIn);
