// Console sessions: password login issues an opaque `ocs_` token (stored only as a keyed hash), valid 12 h, revocable.
import { and, eq, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import type { DbExecutor } from '../db/client.js';
import { accounts, consoleSessions } from '../db/schema/index.js';
import { unauthorized } from '../errors/app-error.js';
import { findAccountByEmail, upgradePasswordHash } from './accounts.js';
import { limitedAttempt } from './attempt-limits.js';
import { CredentialCache } from './credential-cache.js';
import { limitedSignIn } from './sign-in-limits.js';
import { generateToken, keyedHash } from './tokens.js';

export const SESSION_LIFETIME_MS = 12 * 3600 * 1000;

export type IssuedSession = {
  accessToken: string;
  tokenType: 'Bearer';
  expiresAt: Date;
  sessionId: string;
  accountId: string;
};

const invalidCredentials = () => unauthorized('E-mail or password is wrong.', 'Auth.InvalidCredentials');

async function insertSession(db: DbExecutor, secretKey: string, accountId: string, now: Date): Promise<IssuedSession> {
  const token = generateToken('session');
  const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS);
  const [row] = await db
    .insert(consoleSessions)
    .values({ accountId, tokenHash: keyedHash(secretKey, token), expiresAt })
    .returning({ id: consoleSessions.id });
  return { accessToken: token, tokenType: 'Bearer', expiresAt, sessionId: (row as { id: string }).id, accountId };
}

export async function createSession(ctx: AppContext, accountId: string, now = new Date()): Promise<IssuedSession> {
  return insertSession(ctx.db, ctx.config.SECRET_KEY, accountId, now);
}

/**
 * A session for a login that checked `verifiedHash`, written only while that is still the account's password hash,
 * with the account row locked `FOR SHARE` until the insert commits; undefined when the hash has moved on. A
 * password change that committed after the check is thus seen here, and one still running waits for the insert and
 * then revokes the new session with the others (accounts.ts, replacePassword).
 */
async function createSessionWhilePassword(
  ctx: AppContext,
  accountId: string,
  verifiedHash: string,
): Promise<IssuedSession | undefined> {
  return ctx.db.transaction(async (tx) => {
    const [current] = await tx
      .select({ id: accounts.id })
      .from(accounts)
      .where(and(eq(accounts.id, accountId), eq(accounts.passwordHash, verifiedHash)))
      .for('share');
    return current ? insertSession(tx, ctx.config.SECRET_KEY, accountId, new Date()) : undefined;
  });
}

/** Checks the password against the account's hash as read now, and issues a session while that hash stands. */
async function signIn(ctx: AppContext, email: string, password: string): Promise<IssuedSession | undefined> {
  const account = await findAccountByEmail(ctx, email);
  const { ok, outdated } = await ctx.passwords.verify(
    password,
    account?.passwordHash ?? (await ctx.passwords.decoyHash()),
  );
  if (!account || !ok) throw invalidCredentials();
  let verifiedHash = account.passwordHash;
  if (outdated) {
    // The login stands either way: a hash left at older parameters is tried again at the next one.
    const upgraded = await upgradePasswordHash(ctx, account, password).catch((err: unknown) => {
      ctx.logger.warn({ err, accountId: account.id }, "could not rehash a password at today's parameters");
    });
    if (upgraded) verifiedHash = upgraded;
  }
  return createSessionWhilePassword(ctx, account.id, verifiedHash);
}

/** Same answer, and the same work, for an unknown e-mail and a wrong password; failures are limited per e-mail and
 * per client address (attempt-limits.ts), successes per account (sign-in-limits.ts). A hash at older parameters is replaced once the password is right. */
export async function login(
  ctx: AppContext,
  credentials: { email: string; password: string },
  caller: { address: string },
): Promise<IssuedSession> {
  const { email, password } = credentials;
  // Outside the guessing limit, so that its refusal (a 4xx) is not counted as a failed guess.
  return limitedSignIn(ctx, email, () =>
    limitedAttempt(ctx, 'login', { account: email, address: caller.address }, async () => {
      // The hash moved between the check and the session: a password change (the password is checked again against
      // the new hash, and fails), or a concurrent login's rehash of the same password (it passes).
      const session = (await signIn(ctx, email, password)) ?? (await signIn(ctx, email, password));
      if (!session) throw invalidCredentials();
      return session;
    }),
  );
}

export async function revokeSession(ctx: AppContext, sessionId: string): Promise<void> {
  const rows = await ctx.db
    .update(consoleSessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(consoleSessions.id, sessionId), isNull(consoleSessions.revokedAt)))
    .returning({ tokenHash: consoleSessions.tokenHash });
  await new CredentialCache(ctx.redis, ctx.config.REDIS_PREFIX).invalidateCredentials(rows.map((r) => r.tokenHash));
}

/** Maintenance: deletes sessions that expired or were revoked more than a day ago. */
export async function deleteStaleSessions(ctx: AppContext, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - 24 * 3600 * 1000);
  const rows = await ctx.db
    .delete(consoleSessions)
    .where(
      or(
        lt(consoleSessions.expiresAt, cutoff),
        and(isNotNull(consoleSessions.revokedAt), lt(consoleSessions.revokedAt, cutoff)),
      ),
    )
    .returning({ id: consoleSessions.id });
  return rows.length;
}
