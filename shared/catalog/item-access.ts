// Loads an item for a write, locked for the rest of the transaction: one the caller's publishers own, or any item
// of the type for moderators. Foreign or unknown ids are the same 404, so ownership never leaks.

import { and, desc, eq, inArray } from 'drizzle-orm';
import type { DbExecutor } from '../db/client.js';
import { catalogItems, catalogVersions, publishers } from '../db/schema/index.js';
import { isUuid } from '../validation/uuid.js';
import { catalogErrors } from './catalog-errors.js';
import type { ItemType } from './item-types.js';

export type ItemRow = typeof catalogItems.$inferSelect;
export type VersionRow = typeof catalogVersions.$inferSelect;

export async function lockOwnItem(tx: DbExecutor, type: ItemType, accountId: string, itemId: string): Promise<ItemRow> {
  if (!isUuid(itemId)) throw catalogErrors.itemNotFound(type);
  const [row] = await tx
    .select({ item: catalogItems })
    .from(catalogItems)
    .innerJoin(publishers, eq(publishers.id, catalogItems.publisherId))
    .where(and(eq(catalogItems.id, itemId), eq(catalogItems.type, type), eq(publishers.ownerAccountId, accountId)))
    .for('update', { of: catalogItems });
  if (!row) throw catalogErrors.itemNotFound(type);
  return row.item;
}

export async function lockItem(tx: DbExecutor, type: ItemType, itemId: string): Promise<ItemRow> {
  if (!isUuid(itemId)) throw catalogErrors.itemNotFound(type);
  const [row] = await tx
    .select()
    .from(catalogItems)
    .where(and(eq(catalogItems.id, itemId), eq(catalogItems.type, type)))
    .for('update');
  if (!row) throw catalogErrors.itemNotFound(type);
  return row;
}

/** The newest version not yet published or superseded: the one a submit, a withdraw or a decision concerns. */
export async function pendingVersion(tx: DbExecutor, itemId: string): Promise<VersionRow | undefined> {
  const [row] = await tx
    .select()
    .from(catalogVersions)
    .where(
      and(
        eq(catalogVersions.itemId, itemId),
        inArray(catalogVersions.status, ['draft', 'in_review', 'changes_requested', 'rejected']),
      ),
    )
    .orderBy(desc(catalogVersions.createdAt), desc(catalogVersions.id))
    .limit(1);
  return row;
}
