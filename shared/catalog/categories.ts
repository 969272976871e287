// Curated categories per item type: create or rename one, and check that a draft names only existing ones.
import { and, eq, inArray } from 'drizzle-orm';
import type { DbExecutor } from '../db/client.js';
import { catalogCategories } from '../db/schema/index.js';
import { catalogErrors } from './catalog-errors.js';
import { catalogChanged } from './change-feed.js';
import type { ItemType } from './item-types.js';

export async function upsertCategory(db: DbExecutor, type: ItemType, slug: string, name: string) {
  const [row] = await db
    .insert(catalogCategories)
    .values({ type, slug, name })
    .onConflictDoUpdate({ target: [catalogCategories.type, catalogCategories.slug], set: { name } })
    .returning({ slug: catalogCategories.slug, name: catalogCategories.name });
  catalogChanged(db);
  return row!;
}

/** Throws 400 `Category.Invalid` naming every slug that is not a category of the type. */
export async function assertCategoriesExist(db: DbExecutor, type: ItemType, slugs: string[]): Promise<void> {
  if (slugs.length === 0) return;
  const found = await db
    .select({ slug: catalogCategories.slug })
    .from(catalogCategories)
    .where(and(eq(catalogCategories.type, type), inArray(catalogCategories.slug, slugs)));
  const known = new Set(found.map((f) => f.slug));
  const unknown = slugs.filter((s) => !known.has(s));
  if (unknown.length > 0) throw catalogErrors.categoryInvalid(type, unknown);
}
