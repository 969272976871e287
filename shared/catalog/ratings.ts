// One rating (1..5) per account and published item, and reading one's own back. The item row is locked first, so
// ratings of one item apply one at a time and rating_sum and rating_count move by each one's difference, exact under
// concurrent ratings (they were recounted from every rating of the item, a cost that grew with its ratings, under
// the same lock). A rating does not empty the public read cache: any account may rate at request speed, and each
// emptying sent every visitor's next read to PostgreSQL (security review #77); like the telemetry counters, it
// shows within the cache's TTL.
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import type { Database } from '../db/client.js';
import { catalogItems, catalogRatings } from '../db/schema/index.js';
import { catalogErrors } from './catalog-errors.js';
import { type ItemType, isSlug } from './item-types.js';

export type RatingResult = { score: number; ratingAverage: number; ratingCount: number };

export async function rateItem(
  ctx: AppContext,
  type: ItemType,
  slug: string,
  accountId: string,
  score: number,
): Promise<RatingResult> {
  if (!isSlug(slug)) throw catalogErrors.itemNotFound(type);
  return ctx.db.transaction(async (tx) => {
    const [item] = await tx
      .select({ id: catalogItems.id })
      .from(catalogItems)
      .where(and(eq(catalogItems.type, type), eq(catalogItems.slug, slug), isNotNull(catalogItems.currentVersionId)))
      .for('update');
    if (!item) throw catalogErrors.itemNotFound(type, `No published ${type} "${slug}"`);
    // Read after the lock, in a statement of its own: its snapshot then holds every rating of the item committed
    // before, so this is the score the upsert replaces. Read in the locking statement, it missed the account's own
    // rating committed while that statement waited, and a double click counted one account twice.
    const [previous] = await tx
      .select({ score: catalogRatings.score })
      .from(catalogRatings)
      .where(and(eq(catalogRatings.itemId, item.id), eq(catalogRatings.accountId, accountId)));
    await tx
      .insert(catalogRatings)
      .values({ itemId: item.id, accountId, score })
      .onConflictDoUpdate({
        target: [catalogRatings.itemId, catalogRatings.accountId],
        set: { score, updatedAt: new Date() },
      });
    const [totals] = await tx
      .update(catalogItems)
      .set({
        ratingSum: sql`${catalogItems.ratingSum} + ${score - (previous?.score ?? 0)}`,
        ratingCount: sql`${catalogItems.ratingCount} + ${previous ? 0 : 1}`,
      })
      .where(eq(catalogItems.id, item.id))
      .returning({ ratingAverage: catalogItems.ratingAverage, ratingCount: catalogItems.ratingCount });
    return { score, ratingAverage: totals!.ratingAverage, ratingCount: totals!.ratingCount };
  });
}

export type OwnRating = { score: number; ratedAt: Date };

/** The account's own rating of a published item: 404 `<Type>.NotFound` for the item, `Rating.NotFound` for none. */
export async function ownRating(db: Database, type: ItemType, slug: string, accountId: string): Promise<OwnRating> {
  if (!isSlug(slug)) throw catalogErrors.itemNotFound(type);
  const [row] = await db
    .select({ score: catalogRatings.score, ratedAt: catalogRatings.updatedAt })
    .from(catalogItems)
    .leftJoin(catalogRatings, and(eq(catalogRatings.itemId, catalogItems.id), eq(catalogRatings.accountId, accountId)))
    .where(and(eq(catalogItems.type, type), eq(catalogItems.slug, slug), isNotNull(catalogItems.currentVersionId)));
  if (!row) throw catalogErrors.itemNotFound(type, `No published ${type} "${slug}"`);
  if (row.score === null || row.ratedAt === null) throw catalogErrors.ratingNotFound(type);
  return { score: row.score, ratedAt: row.ratedAt };
}
