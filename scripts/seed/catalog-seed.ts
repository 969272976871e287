// Seed steps of the catalog: the default categories of every type, and (outside production) the demo catalog,
// published by the Admin account under two namespaces: `ockhub` (verified, so `source: official`) and `community`.
// Demo skills get a real bundle each, built in memory and stored as an upload is, so their Install panel offers it.
// Items that already exist are left alone, so the step is safe on every start and never resets counters.
import { Readable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import yazl from 'yazl';
import { upsertCategory } from '../../shared/catalog/categories.js';
import { setFeatured } from '../../shared/catalog/curation.js';
import { addVersion, createDraft } from '../../shared/catalog/drafts.js';
import { decideReview, submitForReview } from '../../shared/catalog/review-workflow.js';
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
 * Stores a demo skill version's bundle as the upload route does (object storage, size limit, SHA-256, inspection in
 * memory: `uploadSkillBundle`), then records what the skill-bundle worker's review finds in it (the same
 * `reviewSkillBundle`, run here: the seed runs before any request is served). A bundle the review refuses, or whose
 * SKILL.md names another skill, stops the seed: the demo data is wrong.
 */
async function storeDemoBundle(
  ctx: AppContext,
  adminId: string,
  slug: string,
  ref: { skillId: string; versionId: string },
  files: Record<string, string>,
) {
  const zip = await demoBundleZip(slug, files);
  await uploadSkillBundle(ctx, adminId, ref, Readable.from([zip]));
  const review = await reviewSkillBundle(zip);
  if (!review.ok) throw new Error(`demo skill ${slug}: its bundle fails the review: ${review.problems.join(' ')}`);
  if (review.frontMatter.name !== slug)
    throw new Error(`demo skill ${slug}: its SKILL.md is named ${review.frontMatter.name}`);
  const { bundleFiles, dependencies, examples, parameters } = review.manifest;
  await recordSkillContents(ctx.db, ref.versionId, { bundleFiles, dependencies, examples, parameters });
}

async function publishDemoItem(ctx: AppContext, adminId: string, item: DemoItem) {
  const { slug, name, summary, description, tags, categories, publisher: publisherSlug } = item;
  let itemId: string | undefined;
  for (const raw of item.versions) {
    const { input, bundle } = splitDemoVersion(raw);
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
    if (bundle) await storeDemoBundle(ctx, adminId, slug, { skillId: itemId, versionId: created.versionId! }, bundle);
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
