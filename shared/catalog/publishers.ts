// Publisher namespaces: an account creates and lists its own; an Admin marks one verified, which makes its items
// `source: official`.
import { asc, count, eq } from 'drizzle-orm';
import type { DbExecutor } from '../db/client.js';
import { accounts, publishers } from '../db/schema/index.js';
import { notFound } from '../errors/app-error.js';
import { catalogErrors } from './catalog-errors.js';
import { catalogLimitErrors, MAX_PUBLISHERS_PER_ACCOUNT } from './catalog-limits.js';
import { catalogChanged } from './change-feed.js';

export type PublisherRow = typeof publishers.$inferSelect;

/** Creates a namespace, within the account's limit: the account row is locked while its namespaces are counted. */
export async function createPublisher(
  db: DbExecutor,
  accountId: string,
  input: { slug: string; name: string },
): Promise<PublisherRow> {
  return db.transaction(async (tx) => {
    await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for('no key update');
    const [owned] = await tx.select({ n: count() }).from(publishers).where(eq(publishers.ownerAccountId, accountId));
    if ((owned?.n ?? 0) >= MAX_PUBLISHERS_PER_ACCOUNT) throw catalogLimitErrors.publishers();
    const [row] = await tx
      .insert(publishers)
      .values({ slug: input.slug, name: input.name, ownerAccountId: accountId })
      .onConflictDoNothing({ target: publishers.slug })
      .returning();
    if (!row) throw catalogErrors.publisherSlugExists(input.slug);
    return row;
  });
}

export async function listOwnPublishers(db: DbExecutor, accountId: string): Promise<PublisherRow[]> {
  return db.select().from(publishers).where(eq(publishers.ownerAccountId, accountId)).orderBy(asc(publishers.slug));
}

export async function setPublisherVerified(db: DbExecutor, slug: string, verified: boolean): Promise<PublisherRow> {
  const [row] = await db
    .update(publishers)
    .set({ verified, updatedAt: new Date() })
    .where(eq(publishers.slug, slug))
    .returning();
  if (!row) throw notFound('Publisher.NotFound', `No publisher "${slug}".`);
  catalogChanged(db);
  return row;
}
