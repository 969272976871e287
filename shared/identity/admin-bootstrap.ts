// The seed's Admin account, from ADMIN_EMAIL / ADMIN_PASSWORD. In production it is never given a known password:
// the seed refuses to create it unless ADMIN_PASSWORD is a private password of at least 12 characters, and an Admin
// that still has the development password makes the seed fail (or, with a valid ADMIN_PASSWORD, get that instead).
import { asc, sql } from 'drizzle-orm';
import { systemActor } from '../audit/audit-log.js';
import { adminPasswordRefusal, DEVELOPMENT_ADMIN_PASSWORD } from '../config/development-defaults.js';
import { ConfigError } from '../config/index.js';
import type { AppContext } from '../context.js';
import { accounts } from '../db/schema/index.js';
import { type Account, createAccount, findAccountByEmail, replacePassword, setRoles } from './accounts.js';
import type { Role } from './principal.js';

export type BootstrappedAdmin = { account: Account; created: boolean; passwordReplaced?: boolean };

/** Created once; later runs make sure it is Admin (and, in production, that its password is not the known one). */
export async function bootstrapAdmin(ctx: AppContext): Promise<BootstrappedAdmin> {
  const { ADMIN_EMAIL: email } = ctx.config;
  const refusal = adminPasswordRefusal(ctx.config);
  const existing = await findAccountByEmail(ctx, email);
  if (existing) {
    let passwordReplaced = false;
    if (
      ctx.config.NODE_ENV === 'production' &&
      (await ctx.passwords.verify(DEVELOPMENT_ADMIN_PASSWORD, existing.passwordHash)).ok
    ) {
      if (refusal) {
        throw new ConfigError([
          `ADMIN_PASSWORD: the Admin account ${email} still has the development password; ${refusal}, then run the seed again to replace it`,
        ]);
      }
      await replacePassword(ctx, existing.id, ctx.config.ADMIN_PASSWORD);
      passwordReplaced = true;
    }
    if (!existing.roles.includes('Admin')) {
      const roles: Role[] = [...(existing.roles as Role[]), 'Admin'];
      return { account: await setRoles(ctx, existing.id, roles, systemActor()), created: false, passwordReplaced };
    }
    return { account: existing, created: false, passwordReplaced };
  }
  if (refusal) {
    // A later deploy that left ADMIN_EMAIL out (the first run set it on the command line) lands here: name the Admins
    // there are, so the operator sets ADMIN_EMAIL rather than a password for an account nobody wanted.
    const others = await otherAdminEmails(ctx);
    const hint = others.length
      ? `. Admin accounts already exist (${others.join(', ')}): to run the seed again, set ADMIN_EMAIL to one of them`
      : '';
    throw new ConfigError([`ADMIN_PASSWORD: refusing to create the Admin account ${email}: ${refusal}${hint}`]);
  }
  try {
    const account = await createAccount(ctx, {
      email,
      name: 'Administrator',
      password: ctx.config.ADMIN_PASSWORD,
      roles: ['Admin', 'Moderator', 'Publisher'],
    });
    return { account, created: true };
  } catch (err) {
    // Another process bootstrapped it at the same moment.
    const raced = await findAccountByEmail(ctx, email);
    if (raced) return { account: raced, created: false };
    throw err;
  }
}

/** Up to five e-mails of Admin accounts, oldest first. */
async function otherAdminEmails(ctx: AppContext): Promise<string[]> {
  const rows = await ctx.db
    .select({ email: accounts.email })
    .from(accounts)
    .where(sql`'Admin' = any(${accounts.roles})`)
    .orderBy(asc(accounts.createdAt))
    .limit(5);
  return rows.map((r) => r.email);
}

/** Whether the seeded Admin signs in with `password` (what `npm start` prints is only true when it does). */
export async function adminHasPassword(ctx: AppContext, password: string): Promise<boolean> {
  const account = await findAccountByEmail(ctx, ctx.config.ADMIN_EMAIL);
  return !!account && (await ctx.passwords.verify(password, account.passwordHash)).ok;
}
