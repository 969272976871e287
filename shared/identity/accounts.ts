// Accounts: creation (admin provisioning, invites, the seed), profile, password and role changes.
import { and, eq, sql } from 'drizzle-orm';
import { type AuditActor, recordAudit } from '../audit/audit-log.js';
import type { AppContext } from '../context.js';
import type { DbExecutor } from '../db/client.js';
import { accounts, consoleSessions } from '../db/schema/index.js';
import { badRequest, conflict, notFound } from '../errors/app-error.js';
import { limitedAttempt } from './attempt-limits.js';
import { CredentialCache } from './credential-cache.js';
import type { Role } from './principal.js';

export type Account = typeof accounts.$inferSelect;

export const MIN_PASSWORD_LENGTH = 10;

export type NewAccount = { email: string; name: string; roles?: Role[]; dailyQuota?: number } & (
  | { password: string }
  | { passwordHash: string }
);

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** Counts characters (Unicode code points, as NIST SP 800-63B asks), not UTF-16 units: five emoji are five. */
export function assertStrongPassword(password: string): void {
  if ([...password].length < MIN_PASSWORD_LENGTH) {
    throw badRequest('Auth.InvalidPassword', `Passwords need at least ${MIN_PASSWORD_LENGTH} characters.`);
  }
}

export async function createAccount(
  ctx: Pick<AppContext, 'db' | 'passwords'>,
  input: NewAccount,
  db: DbExecutor = ctx.db,
) {
  const passwordHash = 'passwordHash' in input ? input.passwordHash : await ctx.passwords.hash(input.password);
  const [row] = await db
    .insert(accounts)
    .values({
      email: normalizeEmail(input.email),
      name: input.name,
      passwordHash,
      roles: input.roles ?? [],
      ...(input.dailyQuota ? { dailyQuota: input.dailyQuota } : {}),
    })
    .onConflictDoNothing()
    .returning();
  if (!row) throw conflict('Account.EmailTaken', 'An account with this e-mail already exists.');
  return row;
}

/**
 * An Admin's provisioning (`POST /api/v1/admin/accounts`): the account and its `account.create` audit row in one
 * transaction, so an account made with the Admin role is never without a record of who made it (a role granted
 * later is `account.roles.set`). The password is hashed before the transaction, which then holds no connection
 * while a key is derived.
 */
export async function provisionAccount(
  ctx: Pick<AppContext, 'db' | 'passwords'>,
  input: { email: string; name: string; password: string; roles: Role[] },
  actor: AuditActor,
): Promise<Account> {
  const { password, ...rest } = input;
  const passwordHash = await ctx.passwords.hash(password);
  return ctx.db.transaction(async (tx) => {
    const account = await createAccount(ctx, { ...rest, passwordHash }, tx);
    await recordAudit(tx, actor, {
      action: 'account.create',
      target: { type: 'account', id: account.id },
      after: { roles: account.roles },
    });
    return account;
  });
}

export async function findAccountByEmail(ctx: Pick<AppContext, 'db'>, email: string, db: DbExecutor = ctx.db) {
  const [row] = await db
    .select()
    .from(accounts)
    .where(sql`lower(${accounts.email}) = ${normalizeEmail(email)}`);
  return row;
}

export async function getAccount(ctx: Pick<AppContext, 'db'>, id: string): Promise<Account> {
  const [row] = await ctx.db.select().from(accounts).where(eq(accounts.id, id));
  if (!row) throw notFound('Account.NotFound', 'No such account.');
  return row;
}

export async function updateProfile(ctx: AppContext, id: string, changes: { name: string }): Promise<Account> {
  const [row] = await ctx.db
    .update(accounts)
    .set({ name: changes.name, updatedAt: new Date() })
    .where(eq(accounts.id, id))
    .returning();
  if (!row) throw notFound('Account.NotFound', 'No such account.');
  return row;
}

/** Changes the password and revokes every other console session of the account. Wrong current passwords are
 * limited per account and per client address (attempt-limits.ts). */
export async function changePassword(
  ctx: AppContext,
  id: string,
  input: { currentPassword: string; newPassword: string; keepSessionId?: string; address: string },
): Promise<void> {
  assertStrongPassword(input.newPassword);
  await limitedAttempt(ctx, 'password', { account: id, address: input.address }, async () => {
    const account = await getAccount(ctx, id);
    if (!(await ctx.passwords.verify(input.currentPassword, account.passwordHash)).ok) {
      throw badRequest('Auth.InvalidCurrentPassword', 'The current password is wrong.');
    }
  });
  await replacePassword(ctx, id, input.newPassword, input.keepSessionId);
}

/** Sets a new password and revokes every console session of the account but `keepSessionId`. */
export async function replacePassword(
  ctx: AppContext,
  id: string,
  newPassword: string,
  keepSessionId?: string,
): Promise<void> {
  const passwordHash = await ctx.passwords.hash(newPassword);
  const revoked = await ctx.db.transaction(async (tx) => {
    await tx.update(accounts).set({ passwordHash, updatedAt: new Date() }).where(eq(accounts.id, id));
    return tx
      .update(consoleSessions)
      .set({ revokedAt: new Date() })
      .where(
        sql`${consoleSessions.accountId} = ${id} and ${consoleSessions.revokedAt} is null and ${consoleSessions.id} is distinct from ${keepSessionId ?? null}`,
      )
      .returning({ tokenHash: consoleSessions.tokenHash });
  });
  await new CredentialCache(ctx.redis, ctx.config.REDIS_PREFIX).invalidateCredentials(revoked.map((r) => r.tokenHash));
}

/** After a successful login with a hash made at older parameters: the same password, hashed at today's. Changes
 * nothing if the password was changed meanwhile; sessions and caches are untouched (the password is the same).
 * Answers the hash now stored when it was rewritten. */
export async function upgradePasswordHash(
  ctx: Pick<AppContext, 'db' | 'passwords'>,
  account: Pick<Account, 'id' | 'passwordHash'>,
  password: string,
): Promise<string | undefined> {
  const passwordHash = await ctx.passwords.hash(password);
  const rewritten = await ctx.db
    .update(accounts)
    .set({ passwordHash })
    .where(and(eq(accounts.id, account.id), eq(accounts.passwordHash, account.passwordHash)))
    .returning({ id: accounts.id });
  return rewritten.length > 0 ? passwordHash : undefined;
}

/** Sets an account's roles and records the change in the audit log, in one transaction. */
export async function setRoles(ctx: AppContext, id: string, roles: Role[], actor: AuditActor): Promise<Account> {
  const row = await ctx.db.transaction(async (tx) => {
    const [before] = await tx.select({ roles: accounts.roles }).from(accounts).where(eq(accounts.id, id)).for('update');
    if (!before) throw notFound('Account.NotFound', 'No such account.');
    const [updated] = await tx
      .update(accounts)
      .set({ roles: [...new Set(roles)], updatedAt: new Date() })
      .where(eq(accounts.id, id))
      .returning();
    const account = updated as Account;
    await recordAudit(tx, actor, {
      action: 'account.roles.set',
      target: { type: 'account', id },
      before: { roles: before.roles },
      after: { roles: account.roles },
    });
    return account;
  });
  await new CredentialCache(ctx.redis, ctx.config.REDIS_PREFIX).invalidateAccount(id);
  return row;
}
