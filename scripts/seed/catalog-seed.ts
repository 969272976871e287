// Seed steps of the catalog: the default categories of every type, and (outside production) the demo catalog,
// published by the Admin account under two namespaces: `ockhub` (verified, so `source: official`) and `community`.
// Demo skills get a real bundle each, built in memory and stored as an upload is, so their Install panel offers it.
// Items that were published are left alone, so the step is safe on every start and never resets counters. An item an
// earlier start left unpublished (its bundle's storage was not up yet) is deleted and made again: skipping it left a
// bundle-less draft for good.
import { Readable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import yazl from 'yazl';
import { upsertCategory } from '../../shared/catalog/categories.js';
import { setFeatured } from '../../shared/catalog/curation.js';
import { deleteDraft } from '../../shared/catalog/draft-deletion.js';
import { addVersion, createDraft } from '../../shared/catalog/drafts.js';
import { decideReview, submitForReview, withdrawFromReview } from '../../shared/catalog/review-workflow.js';
import { uploadSkillBundle } from '../../shared/catalog/skill-bundle-upload.js';
import { recordSkillContents } from '../../shared/catalog/skill-contents.js';
import type { VersionInput } from '../../shared/catalog/version-payloads.js';
import type { AppContext } from '../../shared/context.js';
import { catalogItems, catalogVersions, publishers } from '../../shared/db/schema/index.js';
import { bootstrapAdmin } from '../../shared/identity/admin-bootstrap.js';
import { reviewSkillBundle } from '../../shared/skills/skill-bundle-review.js';
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

/** Splits a demo version into what a publisher sends and, for skills, the files of its bundle. */
function splitDemoVersion(version: Record<string, unknown>) {
  const { bundle, ...input } = version;
  return { input: input as VersionInput, bundle: bundle as Record<string, string> | undefined };
}

/** Every demo bundle's files carry this time, so a bundle's bytes (and its SHA-256) are the same on every start. */
const DEMO_BUNDLE_TIME = new Date('2026-01-01T00:00:00Z');

/**
 * A demo skill's .zip, built in memory with the project's zip writer: its files in one folder named like the skill
 * (unzipped into `~/.claude/skills/`, it is the skill's folder; the review checks SKILL.md's name against it).
 */
async function demoBundleZip(slug: string, files: Record<string, string>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, text] of Object.entries(files)) {
    zip.addBuffer(Buffer.from(text, 'utf8'), `${slug}/${name}`, { mtime: DEMO_BUNDLE_TIME, mode: 0o100644 });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/**
 * A demo skill version's bundle and what the skill-bundle worker's review finds in it (the same `reviewSkillBundle`,
 * run here: the seed runs before any request is served). Built before the item's draft is made: a bundle the review
 * refuses, or whose SKILL.md names another skill, stops the seed before it writes anything (the demo data is wrong).
 */
async function reviewedDemoBundle(slug: string, files: Record<string, string>) {
  const zip = await demoBundleZip(slug, files);
  const review = await reviewSkillBundle(zip);
  if (!review.ok) throw new Error(`demo skill ${slug}: its bundle fails the review: ${review.problems.join(' ')}`);
  if (review.frontMatter.name !== slug)
    throw new Error(`demo skill ${slug}: its SKILL.md is named ${review.frontMatter.name}`);
  return { zip, manifest: review.manifest };
}

/**
 * Stores a reviewed demo bundle as the upload route does (object storage, size limit, SHA-256, inspection in memory:
 * `uploadSkillBundle`), then records the review's findings on the version.
 */
async function storeDemoBundle(
  ctx: AppContext,
  adminId: string,
  ref: { skillId: string; versionId: string },
  { zip, manifest }: Awaited<ReturnType<typeof reviewedDemoBundle>>,
) {
  await uploadSkillBundle(ctx, adminId, ref, Readable.from([zip]));
  const { bundleFiles, dependencies, examples, parameters } = manifest;
  await recordSkillContents(ctx.db, ref.versionId, { bundleFiles, dependencies, examples, parameters });
}

async function publishDemoItem(ctx: AppContext, adminId: string, item: DemoItem) {
  const { slug, name, summary, description, tags, categories, publisher: publisherSlug } = item;
  let itemId: string | undefined;
  // Every version's bundle built and reviewed before the first write.
  const versions = [];
  for (const raw of item.versions) {
    const { input, bundle: files } = splitDemoVersion(raw);
    versions.push({ input, bundle: files ? await reviewedDemoBundle(slug, files) : undefined });
  }
  for (const { input, bundle } of versions) {
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
    if (bundle) await storeDemoBundle(ctx, adminId, { skillId: itemId, versionId: created.versionId! }, bundle);
    await submitForReview(ctx, item.type, adminId, itemId, 'Demo catalog.', { contentsRecorded: true });
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
        .select({ item: catalogItems, ownerId: publishers.ownerAccountId })
        .from(catalogItems)
        .innerJoin(publishers, eq(publishers.id, catalogItems.publisherId))
        .where(and(eq(catalogItems.type, item.type), eq(catalogItems.slug, item.slug)));
      if (existing) {
        // Published once (perhaps unpublished since), or someone else's: left alone.
        const { status, currentVersionId, publishedAt, id } = existing.item;
        if (status === 'published' || currentVersionId || publishedAt || existing.ownerId !== account.id) continue;
        // An earlier start stopped midway: made again from the start.
        if (status === 'in_review') await withdrawFromReview(ctx, item.type, account.id, id);
        await deleteDraft(ctx, item.type, account.id, id);
      }
      await publishDemoItem(ctx, account.id, item);
      created++;
    }
    const versions = await ctx.db.$count(catalogVersions);
    return created > 0 ? `published ${created} demo items (${versions} versions in the catalog)` : 'demo items present';
  },
};
