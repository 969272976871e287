// Moderator curation: the featured flag of an item (it feeds `sort=featured` and `isFeatured`).

import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { catalogItems } from '../db/schema/index.js';
import { isUuid } from '../validation/uuid.js';
import { catalogErrors } from './catalog-errors.js';
import { catalogChanged } from './change-feed.js';
import type { ItemType } from './item-types.js';

export async function setFeatured(db: Database, type: ItemType, itemId: string, featured: boolean) {
  if (!isUuid(itemId)) throw catalogErrors.itemNotFound(type);
  const [row] = await db
    .update(catalogItems)
    .set({ isFeatured: featured })
    .where(and(eq(catalogItems.id, itemId), eq(catalogItems.type, type)))
    .returning({ id: catalogItems.id, slug: catalogItems.slug, isFeatured: catalogItems.isFeatured });
  if (!row) throw catalogErrors.itemNotFound(type);
  catalogChanged(db);
  return row;
}
