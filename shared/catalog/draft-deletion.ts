// DELETE /api/v1/publisher/{type}/{id}: a publisher deletes an item that was never in the public catalog (a draft,
// one sent back or rejected), with its versions, transitions and skill bundles. Without it the cap on unpublished
// items (catalog-limits.ts) could leave an account stuck with rejected work. An item that was ever published keeps
// its public history (ratings, reports, counters): it is unpublished, not deleted. In review: withdraw first.
import { and, eq, isNotNull } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import { catalogItems, catalogVersions } from '../db/schema/index.js';
import { conflict } from '../errors/app-error.js';
import { catalogErrors } from './catalog-errors.js';
import { lockOwnItem } from './item-access.js';
import { type ItemType, typeCode } from './item-types.js';

const everPublished = (type: ItemType) =>
  conflict(
    `${typeCode[type]}.WasPublished`,
    `The ${type} has been in the public catalog: unpublish it instead (its ratings, reports and counters stay).`,
  );

export async function deleteDraft(
  ctx: Pick<AppContext, 'db' | 'storage'>,
  type: ItemType,
  accountId: string,
  itemId: string,
): Promise<{ id: string; slug: string }> {
  const { deleted, bundles } = await ctx.db.transaction(async (tx) => {
    const item = await lockOwnItem(tx, type, accountId, itemId);
    if (item.status === 'in_review') throw catalogErrors.alreadyInReview(type);
    const [published] = await tx
      .select({ id: catalogVersions.id })
      .from(catalogVersions)
      .where(and(eq(catalogVersions.itemId, item.id), isNotNull(catalogVersions.publishedAt)))
      .limit(1);
    if (item.currentVersionId || published) throw everPublished(type);
    const stored = await tx
      .select({ key: catalogVersions.bundleStorageKey })
      .from(catalogVersions)
      .where(and(eq(catalogVersions.itemId, item.id), isNotNull(catalogVersions.bundleStorageKey)));
    // Versions, transitions and everything else that names the item go with it (ON DELETE CASCADE).
    await tx.delete(catalogItems).where(eq(catalogItems.id, item.id));
    return { deleted: { id: item.id, slug: item.slug }, bundles: stored.flatMap((s) => (s.key ? [s.key] : [])) };
  });
  for (const key of bundles) await ctx.storage.delete(key).catch(() => undefined);
  return deleted;
}
