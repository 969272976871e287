// Takes a published item out of the public catalog: its publisher unpublishes it, or a moderator removes it. The
// published versions stay as they were (the MCP Registry API shows them as `status: deleted`, docs/mcp-registry.md);
// the item is public again once a new version is approved.
import { eq } from 'drizzle-orm';
import { type AuditActor, recordAudit } from '../audit/audit-log.js';
import type { AppContext } from '../context.js';
import { catalogItems } from '../db/schema/index.js';
import { catalogErrors } from './catalog-errors.js';
import { catalogChanged } from './change-feed.js';
import type { MutationResult } from './drafts.js';
import { lockItem, lockOwnItem } from './item-access.js';
import type { ItemType } from './item-types.js';
import { resolveItemReports } from './reports.js';
import { recordTransition } from './transitions.js';

export type Unlisting = {
  by: 'publisher' | 'moderator';
  accountId: string;
  reason?: string;
  /** A moderator's removal: who removed, for the audit log row written in the removal's transaction. */
  audit?: AuditActor;
  /** A moderator's removal: also resolve the item's open reports, the reason as their resolution. */
  resolveReports?: boolean;
};

/**
 * A published item goes to draft (editable; a new version brings it back through review). An item whose next
 * version is already in review or sent back keeps that status, so its review goes on. Not public: 409
 * `<Type>.NotPublished`.
 */
export async function unlistItem(
  ctx: AppContext,
  type: ItemType,
  itemId: string,
  unlisting: Unlisting,
): Promise<MutationResult & { reportsResolved?: string[] }> {
  const result = await ctx.db.transaction(async (tx) => {
    const item =
      unlisting.by === 'moderator'
        ? await lockItem(tx, type, itemId)
        : await lockOwnItem(tx, type, unlisting.accountId, itemId);
    if (item.currentVersionId === null) throw catalogErrors.notPublished(type);
    const to = item.status === 'published' ? 'draft' : item.status;
    await tx
      .update(catalogItems)
      .set({ currentVersionId: null, status: to, updatedAt: new Date() })
      .where(eq(catalogItems.id, item.id));
    await recordTransition(tx, {
      itemId: item.id,
      versionId: item.currentVersionId,
      actorAccountId: unlisting.accountId,
      action: unlisting.by === 'moderator' ? 'remove' : 'unpublish',
      from: item.status,
      to,
      comment: unlisting.reason,
    });
    if (unlisting.by === 'moderator' && unlisting.audit) {
      await recordAudit(tx, unlisting.audit, {
        action: 'catalog_item.remove',
        target: { type: 'catalog_item', id: item.id },
        before: { status: item.status, currentVersionId: item.currentVersionId },
        after: { type, slug: item.slug, status: to, reason: unlisting.reason ?? null },
      });
    }
    const mutation = { id: item.id, type, slug: item.slug, status: to } satisfies MutationResult;
    if (unlisting.by !== 'moderator' || !unlisting.resolveReports) return mutation;
    const audit = unlisting.audit ? { audit: unlisting.audit } : {};
    const resolution = unlisting.reason ? { resolution: unlisting.reason } : {};
    const reportsResolved = await resolveItemReports(tx, item.id, unlisting.accountId, { ...resolution, ...audit });
    return { ...mutation, reportsResolved };
  });
  catalogChanged(ctx.db);
  return result;
}
