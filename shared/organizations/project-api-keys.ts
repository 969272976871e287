// Every API key bound to one project, whoever made it, for those who manage the project (its Owner, an organization
// Admin): a page of them with their holders and usage, and revoking one (deleted, refused at once as its holder's own
// delete does). The route checks the role; these functions keep every key id inside the project.

import { and, count, desc, eq } from 'drizzle-orm';
import type { AuditActor } from '../audit/audit-log.js';
import type { AppContext } from '../context.js';
import { accounts, apiKeys } from '../db/schema/index.js';
import { notFound } from '../errors/app-error.js';
import { type ApiKeyRecord, removeApiKey, withUsage } from '../identity/api-keys.js';
import { isUuid } from '../validation/uuid.js';

export type ProjectApiKey = ApiKeyRecord & { owner: { id: string; name: string; email: string } };

export const projectKeyNotFound = () => notFound('ApiKey.NotFound', 'No such API key in this project.');

/** A page of the project's keys, newest first (index `api_keys_project_idx`), with their holders and usage. */
export async function listProjectApiKeys(
  ctx: AppContext,
  projectId: string,
  options: { page: number; size: number },
): Promise<{ keys: ProjectApiKey[]; total: number }> {
  const inProject = eq(apiKeys.projectId, projectId);
  const [rows, [counted]] = await Promise.all([
    ctx.db
      .select({ key: apiKeys, owner: { id: accounts.id, name: accounts.name, email: accounts.email } })
      .from(apiKeys)
      .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
      .where(inProject)
      .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
      .limit(options.size)
      .offset((options.page - 1) * options.size),
    ctx.db.select({ n: count() }).from(apiKeys).where(inProject),
  ]);
  const keys = await withUsage(
    ctx,
    rows.map((r) => ({ ...r.key, owner: r.owner })),
  );
  return { keys, total: counted?.n ?? 0 };
}

/**
 * Deletes one of the project's keys, in the audit log as `api_key.delete` with the manager as its actor and the
 * holder in `before`. A key of another project, organization or account's own catalog key answers 404 like a missing
 * one: the id is looked up inside the project only.
 */
export async function revokeProjectApiKey(
  ctx: AppContext,
  projectId: string,
  keyId: string,
  actor: AuditActor,
): Promise<void> {
  if (!isUuid(keyId)) throw projectKeyNotFound();
  const [key] = await ctx.db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.projectId, projectId)));
  if (!key) throw projectKeyNotFound();
  await removeApiKey(ctx, key, actor);
}
