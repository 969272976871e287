// Registration by invite: the invitee joins the organization with the token's role, as a new account (created
// through identity's accounts service) or as the signed-in account. A use is taken by ONE conditional UPDATE in
// the same transaction as the membership, so N+1 concurrent accepts of an N-use token admit exactly N.
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { type AuditActor, recordAudit } from '../audit/audit-log.js';
import type { AppContext } from '../context.js';
import { inviteTokens, type OrganizationRole, organizationMemberships, organizations } from '../db/schema/index.js';
import { AppError, conflict, forbidden } from '../errors/app-error.js';
import {
  assertStrongPassword,
  createAccount,
  findAccountByEmail,
  getAccount,
  normalizeEmail,
} from '../identity/accounts.js';
import { limitedAttempt } from '../identity/attempt-limits.js';
import { findRehashing } from '../identity/secret-rotation.js';
import { limitedSignup } from '../identity/signup-limits.js';
import { hashInviteToken, type InviteToken, inviteTokenHashUnder, inviteTokenNotFound } from './invite-tokens.js';

export type Invitee = { accountId: string } | { email: string; name: string; password: string };
export type AcceptedInvite = {
  organizationId: string;
  organizationName: string;
  role: OrganizationRole;
  userId: string;
  email: string;
  accountCreated: boolean;
};
export type InvitePreview = {
  organizationId: string;
  organizationName: string;
  role: OrganizationRole;
  email: string | null;
  expiresAt: Date;
  remainingUses: number;
};

const expired = () => new AppError('Invite.Expired', 410, 'This invite has expired, was revoked or has been used up.');

/** The invite of `token`; during a SECRET_KEY rotation one stored under the previous key's hash is moved to the
 * current key's first (secret-rotation.ts). */
async function findInvite(ctx: Pick<AppContext, 'db' | 'config'>, token: string) {
  const tokenHash = hashInviteToken(ctx.config, token);
  const find = () =>
    ctx.db
      .select({ invite: inviteTokens, organizationName: organizations.name })
      .from(inviteTokens)
      .innerJoin(organizations, eq(organizations.id, inviteTokens.organizationId))
      .where(eq(inviteTokens.tokenHash, tokenHash))
      .then(([row]) => row);
  const row = await findRehashing(
    ctx.config,
    (secret) => inviteTokenHashUnder(secret, token),
    find,
    (previous) => ctx.db.update(inviteTokens).set({ tokenHash }).where(eq(inviteTokens.tokenHash, previous)),
  );
  if (!row) throw inviteTokenNotFound();
  return row;
}

const usable = (invite: InviteToken, now: Date) =>
  invite.revokedAt === null && invite.expiresAt.getTime() > now.getTime() && invite.usageCount < invite.maxUsageCount;

/** What an invite link is for (public: the token itself is the credential). */
export async function previewInvite(
  ctx: Pick<AppContext, 'db' | 'config'>,
  token: string,
  now: Date = new Date(),
): Promise<InvitePreview> {
  const { invite, organizationName } = await findInvite(ctx, token);
  if (!usable(invite, now)) throw expired();
  return {
    organizationId: invite.organizationId,
    organizationName,
    role: invite.role,
    email: invite.email,
    expiresAt: invite.expiresAt,
    remainingUses: invite.maxUsageCount - invite.usageCount,
  };
}

function assertEmailMatches(invite: InviteToken, email: string) {
  if (invite.email && invite.email !== normalizeEmail(email)) {
    throw forbidden('This invite was issued for another e-mail address.', 'Invite.EmailMismatch');
  }
}

/** Who accepts: the signed-in caller's credential (absent for a registration, whose credential is the invite link). */
export type InviteCaller = Pick<AuditActor, 'correlationId'> & {
  address: string;
  credential?: AuditActor['credential'];
};

/** Failed acceptances (unknown, used-up or mismatched invites, taken e-mails) are limited per invitee and per client
 * address like logins (attempt-limits.ts); accounts made by acceptances, per client address (signup-limits.ts). The
 * join is audited (`member.join`) in its transaction. */
export function acceptInvite(
  ctx: AppContext,
  token: string,
  invitee: Invitee,
  caller: InviteCaller,
  now: Date = new Date(),
): Promise<AcceptedInvite> {
  const account = 'accountId' in invitee ? invitee.accountId : invitee.email;
  const accept = () =>
    limitedAttempt(ctx, 'invite', { account, address: caller.address }, () =>
      acceptInviteNow(ctx, token, invitee, caller, now),
    );
  // Joining with an account one already has makes nothing; registering makes an account, limited per address.
  return 'accountId' in invitee ? accept() : limitedSignup(ctx, caller.address, accept);
}

async function acceptInviteNow(
  ctx: AppContext,
  token: string,
  invitee: Invitee,
  caller: InviteCaller,
  now: Date,
): Promise<AcceptedInvite> {
  const { invite, organizationName } = await findInvite(ctx, token);
  if (!usable(invite, now)) throw expired();

  let newAccount: { email: string; name: string; passwordHash: string } | undefined;
  let existing: { id: string; email: string } | undefined;
  if ('accountId' in invitee) {
    existing = await getAccount(ctx, invitee.accountId);
    assertEmailMatches(invite, existing.email);
  } else {
    assertEmailMatches(invite, invitee.email);
    assertStrongPassword(invitee.password);
    if (await findAccountByEmail(ctx, invitee.email)) {
      throw conflict(
        'Invite.AccountExists',
        'An account with this e-mail already exists: sign in and accept the invite with your session.',
      );
    }
    // Hashing is slow on purpose: do it before the transaction so the invite row is locked only briefly.
    newAccount = { email: invitee.email, name: invitee.name, passwordHash: await ctx.passwords.hash(invitee.password) };
  }

  return ctx.db.transaction(async (tx) => {
    const account = newAccount ? await createAccount(ctx, newAccount, tx) : (existing as { id: string; email: string });
    const [joined] = await tx
      .insert(organizationMemberships)
      .values({ organizationId: invite.organizationId, accountId: account.id, role: invite.role })
      .onConflictDoNothing()
      .returning({ role: organizationMemberships.role });
    if (!joined) throw conflict('Invite.AlreadyMember', 'You are already a member of this organization.');
    const [taken] = await tx
      .update(inviteTokens)
      .set({ usageCount: sql`${inviteTokens.usageCount} + 1` })
      .where(
        and(
          eq(inviteTokens.id, invite.id),
          lt(inviteTokens.usageCount, inviteTokens.maxUsageCount),
          isNull(inviteTokens.revokedAt),
          gt(inviteTokens.expiresAt, now),
        ),
      )
      .returning({ id: inviteTokens.id });
    if (!taken) throw expired();
    const actor: AuditActor = {
      accountId: account.id,
      credential: caller.credential ?? { kind: 'invite', id: invite.id },
      clientAddress: caller.address,
      correlationId: caller.correlationId,
    };
    await recordAudit(tx, actor, {
      action: 'member.join',
      organizationId: invite.organizationId,
      target: { type: 'account', id: account.id },
      after: { role: joined.role, inviteTokenId: invite.id, accountCreated: newAccount !== undefined },
    });
    return {
      organizationId: invite.organizationId,
      organizationName,
      role: joined.role,
      userId: account.id,
      email: account.email,
      accountCreated: newAccount !== undefined,
    };
  });
}
