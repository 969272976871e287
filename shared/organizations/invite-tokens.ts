// Invite tokens: created by an organization Admin, stored only as a keyed hash, shown once with their invite URL.

import { createHmac, randomBytes } from 'node:crypto';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { type AuditActor, recordAudit } from '../audit/audit-log.js';
import type { Config } from '../config/index.js';
import type { DbExecutor } from '../db/client.js';
import { inviteTokens, type OrganizationRole } from '../db/schema/index.js';
import { badRequest, notFound } from '../errors/app-error.js';
import { isUuid } from '../validation/uuid.js';

export type InviteToken = typeof inviteTokens.$inferSelect;
export type IssuedInviteToken = { record: InviteToken; token: string; inviteUrl: string };

export type InviteTokenInput = {
  description?: string | undefined;
  expiresAt: Date;
  maxUsageCount: number;
  role?: OrganizationRole;
  email?: string;
  bulkImportId?: string;
};

const tokenPrefix = 'oki_';
const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `oki_` + 32 random base62 characters (rejection sampling keeps them uniform). */
export function newInviteToken(): string {
  let out = '';
  while (out.length < 32) {
    for (const byte of randomBytes(48)) {
      if (byte < 248 && out.length < 32) out += base62[byte % 62];
    }
  }
  return tokenPrefix + out;
}

/** The keyed hash of an invite token under `secret` (SECRET_KEY, or SECRET_KEY_PREVIOUS during a rotation). */
export const inviteTokenHashUnder = (secret: string, token: string) =>
  createHmac('sha256', secret).update(`invite:${token}`).digest('hex');

export const hashInviteToken = (config: Pick<Config, 'SECRET_KEY'>, token: string) =>
  inviteTokenHashUnder(config.SECRET_KEY, token);

/** The link handed to the invitee; the same path answers GET with what the invite is for. */
export const inviteUrlFor = (config: Pick<Config, 'publicBaseUrl'>, token: string) =>
  `${config.publicBaseUrl}/api/organization/invites/${token}`;

export const inviteTokenNotFound = () => notFound('Invite.NotFound', 'No such invite token.');

/**
 * Issues a token, recorded in the audit log in the same transaction (`invite_token.issue`: role, uses, expiry and
 * whether an e-mail is bound, never the e-mail or the token): an Admin-role link with many uses is access that
 * outlives the session that made it, so it is never silent (security review #135). `actor` is left out only by
 * internal callers (tests, factories).
 */
export async function createInviteToken(
  db: DbExecutor,
  config: Pick<Config, 'SECRET_KEY' | 'publicBaseUrl'>,
  organizationId: string,
  createdBy: string,
  input: InviteTokenInput,
  now: Date = new Date(),
  actor?: AuditActor,
): Promise<IssuedInviteToken> {
  if (input.expiresAt.getTime() <= now.getTime()) {
    throw badRequest('Invite.Invalid', 'expiresAt must be in the future.');
  }
  const token = newInviteToken();
  const record = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(inviteTokens)
      .values({
        organizationId,
        tokenHash: hashInviteToken(config, token),
        description: input.description ?? null,
        role: input.role ?? 'Member',
        email: input.email ?? null,
        maxUsageCount: input.maxUsageCount,
        expiresAt: input.expiresAt,
        bulkImportId: input.bulkImportId ?? null,
        createdBy,
      })
      .returning();
    if (!row) throw new Error('invite token insert returned nothing');
    if (actor) {
      await recordAudit(tx, actor, {
        action: 'invite_token.issue',
        organizationId,
        target: { type: 'invite_token', id: row.id },
        after: {
          role: row.role,
          maxUsageCount: row.maxUsageCount,
          expiresAt: row.expiresAt.toISOString(),
          emailBound: row.email !== null,
        },
      });
    }
    return row;
  });
  return { record, token, inviteUrl: inviteUrlFor(config, token) };
}

export async function listInviteTokens(db: DbExecutor, organizationId: string): Promise<InviteToken[]> {
  return db
    .select()
    .from(inviteTokens)
    .where(eq(inviteTokens.organizationId, organizationId))
    .orderBy(desc(inviteTokens.createdAt), desc(inviteTokens.id))
    .limit(500);
}

/** Revokes a token of this organization; revoking twice keeps the first revocation time. */
/** Revokes a token (recorded in the audit log); revoking a revoked token returns it unchanged and records nothing. */
export async function revokeInviteToken(
  db: DbExecutor,
  organizationId: string,
  id: string,
  actor: AuditActor,
): Promise<InviteToken> {
  if (!isUuid(id)) throw inviteTokenNotFound();
  const where = and(eq(inviteTokens.id, id), eq(inviteTokens.organizationId, organizationId));
  const revoked = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(inviteTokens)
      .set({ revokedAt: new Date() })
      .where(and(where, isNull(inviteTokens.revokedAt)))
      .returning();
    if (row) {
      await recordAudit(tx, actor, {
        action: 'invite_token.revoke',
        organizationId,
        target: { type: 'invite_token', id },
        before: { revokedAt: null, usageCount: row.usageCount, maxUsageCount: row.maxUsageCount, role: row.role },
        after: { revokedAt: row.revokedAt?.toISOString() ?? null },
      });
    }
    return row;
  });
  if (revoked) return revoked;
  const [existing] = await db.select().from(inviteTokens).where(where);
  if (!existing) throw inviteTokenNotFound();
  return existing;
}
