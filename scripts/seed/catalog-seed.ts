// Seed steps of the catalog: the default categories of every type, and (outside production) the demo catalog,
// published by the Admin account under two namespaces: `ockhub` (verified, so `source: official`) and `community`.
// Items that already exist are left alone, so the step is safe on every start and never resets counters.
import { and, eq } from 'drizzle-orm';
import { upsertCategory } from '../../shared/catalog/categories.js';
import { setFeatured } from '../../shared/catalog/curation.js';
import { addVersion, createDraft } from '../../shared/catalog/drafts.js';
import { decideReview, submitForReview } from '../../shared/catalog/review-workflow.js';
import { recordSkillContents } from '../../shared/catalog/skill-contents.js';
import type { VersionInput } from '../../shared/catalog/version-payloads.js';
import type { AppContext } from '../../shared/context.js';
import { catalogItems, catalogVersions, publishers } from '../../shared/db/schema/index.js';
import { bootstrapAdmin } from '../../shared/identity/admin-bootstrap.js';
import { type DemoItem, defaultCategories, demoItems, demoPublishers } from './demo-catalog.data.js';
import type { SeedStep } from './seed-steps.js';

export const catalogCategoriesStep: SeedStep = {
  name: 'catalog categories',
  async run(ctx) {
    let count = 0;
    for (const [type, categories] of Object.entries(defaultCategories)) {
      for (const [slug, name] of categories) {
        await upsertCategory(ctx.db, type as DemoItem['type'], slug, name);
        count++;
      }
    }
    return `${count} categories present`;
  },
};

async function ensurePublisher(ctx: AppContext, ownerId: string, p: (typeof demoPublishers)[number]) {
  await ctx.db
    .insert(publishers)
    .values({ ...p, ownerAccountId: ownerId })
    .onConflictDoNothing();
  const [row] = await ctx.db.select().from(publishers).where(eq(publishers.slug, p.slug));
  return row!;
}

const skillContentKeys = ['bundleFiles', 'dependencies', 'examples', 'parameters', 'executesCode'];

/** Splits a demo version into what a publisher sends and, for skills, the contents a bundle parse would write. */
function splitDemoVersion(item: DemoItem, version: Record<string, unknown>) {
  if (item.type !== 'skill') return { input: version as VersionInput, contents: undefined };
  const input = Object.fromEntries(Object.entries(version).filter(([k]) => !skillContentKeys.includes(k)));
  const contents = Object.fromEntries(Object.entries(version).filter(([k]) => skillContentKeys.includes(k)));
  return { input: input as VersionInput, contents };
}

async function publishDemoItem(ctx: AppContext, adminId: string, item: DemoItem) {
  const { slug, name, summary, description, tags, categories, publisher: publisherSlug } = item;
  let itemId: string | undefined;
  for (const raw of item.versions) {
    const { input, contents } = splitDemoVersion(item, raw);
    const created = itemId
      ? await addVersion(ctx, item.type, adminId, itemId, input)
      : await createDraft(ctx, item.type, adminId, {
          slug,
          name,
          summary,
          description,
          tags,
          categories,
          publisherSlug,
          version: input,
        });
    itemId = created.id;
    if (contents) await recordSkillContents(ctx.db, created.versionId!, contents);
    await submitForReview(ctx, item.type, adminId, itemId, 'Demo catalog.', { contentsWithoutBundle: true });
    await decideReview(ctx, item.type, adminId, itemId, 'approve', 'Demo catalog.');
  }
  if (item.featured) await setFeatured(ctx.db, item.type, itemId!, true);
  await ctx.db.update(catalogItems).set(item.counters).where(eq(catalogItems.id, itemId!));
}

export const demoCatalogStep: SeedStep = {
  name: 'demo catalog',
  async run(ctx) {
    if (ctx.config.NODE_ENV === 'production') return undefined;
    const { account } = await bootstrapAdmin(ctx);
    for (const p of demoPublishers) {
      const row = await ensurePublisher(ctx, account.id, p);
      if (row.ownerAccountId !== account.id) return `skipped: namespace "${p.slug}" belongs to another account`;
      if (row.verified !== p.verified)
        await ctx.db.update(publishers).set({ verified: p.verified }).where(eq(publishers.id, row.id));
    }
    let created = 0;
    for (const item of demoItems) {
      const [existing] = await ctx.db
        .select({ id: catalogItems.id })
        .from(catalogItems)
        .where(and(eq(catalogItems.type, item.type), eq(catalogItems.slug, item.slug)));
      if (existing) continue;
      await publishDemoItem(ctx, account.id, item);
      created++;
    }
    const versions = await ctx.db.$count(catalogVersions);
    return created > 0 ? `published ${created} demo items (${versions} versions in the catalog)` : 'demo items present';
  },
};
