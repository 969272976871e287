// A project API key spends its organization's wallet for as long as it exists, so it must not outlive its holder's
// right to use the project (an Admin of the organization, or a member of the project: SPEC section 1). Every change
// that can take that right away (leaving the organization, leaving a project, losing the Admin role) deletes the
// holder's keys that lost it, in the change's transaction, and drops them from the credential cache after commit.
import { sql } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import type { DbExecutor } from '../db/client.js';
import { apiKeys, organizationMemberships, projectMembers, projects } from '../db/schema/index.js';
import { CredentialCache } from '../identity/credential-cache.js';

export type DeletedKey = { id: string; tokenHash: string };

/** Deletes the account's keys bound to projects of the organization that the account may no longer use. */
export async function deleteKeysBeyondAccess(
  tx: DbExecutor,
  organizationId: string,
  accountId: string,
): Promise<DeletedKey[]> {
  // The keys are locked in id order first, the order a ledger batch locks keys in (shared/wallet/ledger-rows.ts), so
  // the two cannot wait on each other in a cycle (a review forced one with the plan's order).
  const result = await tx.execute<{ id: string; token_hash: string }>(sql`
    WITH doomed AS (
      SELECT ${apiKeys.id} AS id FROM ${apiKeys}
      WHERE ${apiKeys.accountId} = ${accountId}
        AND ${apiKeys.projectId} IN (SELECT ${projects.id} FROM ${projects} WHERE ${projects.organizationId} = ${organizationId})
        AND NOT EXISTS (
          SELECT 1 FROM ${organizationMemberships}
          WHERE ${organizationMemberships.organizationId} = ${organizationId}
            AND ${organizationMemberships.accountId} = ${accountId}
            AND ${organizationMemberships.role} = 'Admin')
        AND NOT EXISTS (
          SELECT 1 FROM ${projectMembers}
          WHERE ${projectMembers.projectId} = ${apiKeys.projectId} AND ${projectMembers.accountId} = ${accountId})
      ORDER BY ${apiKeys.id}
      FOR UPDATE
    )
    DELETE FROM ${apiKeys} WHERE ${apiKeys.id} IN (SELECT id FROM doomed)
    RETURNING ${apiKeys.id} AS id, ${apiKeys.tokenHash} AS token_hash`);
  return result.rows.map((row) => ({ id: row.id, tokenHash: row.token_hash }));
}

/** After the change committed: the deleted keys fail on the very next request, in every API process. */
export async function forgetDeletedKeys(ctx: Pick<AppContext, 'redis' | 'config'>, keys: DeletedKey[]): Promise<void> {
  if (keys.length === 0) return;
  await new CredentialCache(ctx.redis, ctx.config.REDIS_PREFIX).invalidateCredentials(keys.map((k) => k.tokenHash));
}
