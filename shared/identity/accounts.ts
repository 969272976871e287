// Accounts: creation (admin provisioning, invites, bootstrap), profile, password and role changes.
import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import type { DbExecutor } from '../db/client.js';
import { accounts, consoleSessions } from '../db/schema/index.js';
import { badRequest, conflict, notFound } from '../errors/app-error.js';
import { CredentialCache } from './credential-cache.js';
import { hashPassword, MIN_PASSWORD_LENGTH, verifyPassword } from './passwords.js';
import type { Role } from './principal.js';

export type Account = typeof accounts.$inferSelect;

export type NewAccount = { email: string; name: string; roles?: Role[]; dailyQuota?: number } & (
  | { password: string }
  | { passwordHash: string }
);

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export function assertStrongPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw badRequest('Auth.InvalidPassword', `Passwords need at least ${MIN_PASSWORD_LENGTH} characters.`);
  }
}

export async function createAccount(ctx: Pick<AppContext, 'db'>, input: NewAccount, db: DbExecutor = ctx.db) {
  const passwordHash = 'passwordHash' in input ? input.passwordHash : await hashPassword(input.password);
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

/** Changes the password and revokes every other console session of the account. */
export async function changePassword(
  ctx: AppContext,
  id: string,
  input: { currentPassword: string; newPassword: string; keepSessionId?: string },
): Promise<void> {
  const account = await getAccount(ctx, id);
  if (!(await verifyPassword(input.currentPassword, account.passwordHash))) {
    throw badRequest('Auth.InvalidCurrentPassword', 'The current password is wrong.');
  }
  assertStrongPassword(input.newPassword);
  const passwordHash = await hashPassword(input.newPassword);
  const revoked = await ctx.db.transaction(async (tx) => {
    await tx.update(accounts).set({ passwordHash, updatedAt: new Date() }).where(eq(accounts.id, id));
    return tx
      .update(consoleSessions)
      .set({ revokedAt: new Date() })
      .where(
        sql`${consoleSessions.accountId} = ${id} and ${consoleSessions.revokedAt} is null and ${consoleSessions.id} is distinct from ${input.keepSessionId ?? null}`,
      )
      .returning({ tokenHash: consoleSessions.tokenHash });
  });
  await new CredentialCache(ctx.redis, ctx.config.REDIS_PREFIX).invalidateCredentials(revoked.map((r) => r.tokenHash));
}

export async function setRoles(ctx: AppContext, id: string, roles: Role[]): Promise<Account> {
  const [row] = await ctx.db
    .update(accounts)
    .set({ roles: [...new Set(roles)], updatedAt: new Date() })
    .where(eq(accounts.id, id))
    .returning();
  if (!row) throw notFound('Account.NotFound', 'No such account.');
  await new CredentialCache(ctx.redis, ctx.config.REDIS_PREFIX).invalidateAccount(id);
  return row;
}

/** The seed's Admin: created from ADMIN_EMAIL / ADMIN_PASSWORD once; later runs only make sure it is Admin. */
export async function bootstrapAdmin(ctx: AppContext): Promise<{ account: Account; created: boolean }> {
  const existing = await findAccountByEmail(ctx, ctx.config.ADMIN_EMAIL);
  if (existing) {
    if (!existing.roles.includes('Admin')) {
      return { account: await setRoles(ctx, existing.id, [...(existing.roles as Role[]), 'Admin']), created: false };
    }
    return { account: existing, created: false };
  }
  try {
    const account = await createAccount(ctx, {
      email: ctx.config.ADMIN_EMAIL,
      name: 'Administrator',
      password: ctx.config.ADMIN_PASSWORD,
      roles: ['Admin', 'Moderator', 'Publisher'],
    });
    return { account, created: true };
  } catch (err) {
    // Another process bootstrapped it at the same moment.
    const raced = await findAccountByEmail(ctx, ctx.config.ADMIN_EMAIL);
    if (raced) return { account: raced, created: false };
    throw err;
  }
}
