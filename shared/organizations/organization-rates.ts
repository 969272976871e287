// Rows that can never be deleted, limited by rate (a cap on their total would be permanent): organizations one account
// creates per sliding day, and invite tokens one organization issues per sliding day (a revoked token stays as the
// record of who could join). Each is rows that the account's or organization's lists then carry: without a limit one
// account and a script grow the database without end.
import type { AppContext } from '../context.js';
import { allowance } from '../rate-limit/within-allowance.js';

const DAY_MS = 86_400_000;
const PRODUCTION_CREATIONS_PER_DAY = 10;

/** The allowance per account and day: the setting, else 10 in production and none elsewhere (0 is off). */
export const organizationsPerDay = (config: AppContext['config']) =>
  config.ORGANIZATIONS_PER_ACCOUNT_PER_DAY ?? (config.NODE_ENV === 'production' ? PRODUCTION_CREATIONS_PER_DAY : 0);

/** Runs a creation (by the account `holder`) within its allowance; a creation that fails gives its place back. */
export const limitedOrganizationCreation = allowance({
  name: 'org-create:account',
  windowMs: DAY_MS,
  limit: organizationsPerDay,
  code: 'Organization.TooManyCreated',
  message: 'This account created as many organizations as it may within a day: wait (see Retry-After).',
});

/** Invite tokens one organization may issue per sliding day, one by one (a bulk invite is limited on its own). */
export const INVITE_TOKENS_PER_ORGANIZATION_PER_DAY = 100;

/** Runs an issue (by the organization `holder`) within its allowance; an issue that fails gives its place back. */
export const limitedInviteIssue = allowance({
  name: 'invite-issue:org',
  windowMs: DAY_MS,
  limit: () => INVITE_TOKENS_PER_ORGANIZATION_PER_DAY,
  code: 'Invite.TooManyIssued',
  message: `An organization may issue at most ${INVITE_TOKENS_PER_ORGANIZATION_PER_DAY} invite tokens a day: wait (see Retry-After), or send a bulk invite.`,
});
