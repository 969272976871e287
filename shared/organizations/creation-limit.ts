// Organizations one account may create per sliding day. There is no route to delete an organization, and each one is
// rows of its own (the organization, a membership, a wallet) that every list of the account then carries: without a
// limit one account and a script grow the database without end. A limit on the total would be permanent, so it is a rate.
import type { AppContext } from '../context.js';
import { AppError } from '../errors/app-error.js';
import { retryAfterSeconds, windowKey } from '../rate-limit/sliding-window.js';
import { withinAllowance } from '../rate-limit/within-allowance.js';

const CREATION_WINDOW_MS = 86_400_000;
const PRODUCTION_CREATIONS_PER_DAY = 10;

/** The allowance per account and day: the setting, else 10 in production and none elsewhere (0 is off). */
export const organizationsPerDay = (config: AppContext['config']) =>
  config.ORGANIZATIONS_PER_ACCOUNT_PER_DAY ?? (config.NODE_ENV === 'production' ? PRODUCTION_CREATIONS_PER_DAY : 0);

const tooManyOrganizations = (retryAfterMs: number) =>
  new AppError(
    'Organization.TooManyCreated',
    429,
    'This account created as many organizations as it may within a day: wait (see Retry-After).',
    { headers: { 'retry-after': retryAfterSeconds(retryAfterMs) } },
  );

/** Runs `create` within the account's allowance; a creation that fails gives its place back. */
export const limitedOrganizationCreation = <T>(
  ctx: Pick<AppContext, 'config' | 'redis'>,
  accountId: string,
  create: () => Promise<T>,
): Promise<T> =>
  withinAllowance(
    ctx.redis,
    {
      key: windowKey(ctx.config.REDIS_PREFIX, 'org-create', 'account', accountId),
      limit: organizationsPerDay(ctx.config),
      windowMs: CREATION_WINDOW_MS,
    },
    tooManyOrganizations,
    create,
  );
