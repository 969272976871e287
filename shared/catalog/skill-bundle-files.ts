// One file of a skill version's stored bundle, for the version's reviewers: moderators (any skill) and the
// publisher who owns it (`ownerAccountId`). Foreign and unknown ids are the same 404, so ownership never leaks.
import { and, eq } from 'drizzle-orm';
import { BoundedGate } from '../concurrency/bounded-gate.js';
import type { AppContext } from '../context.js';
import { catalogItems, catalogVersions, publishers } from '../db/schema/index.js';
import { AppError, notFound } from '../errors/app-error.js';
import { type BundleFileText, readBundleFileText } from '../skills/bundle-file-text.js';
import { SKILL_BUNDLE_LIMITS } from '../skills/bundle-limits.js';
import { isUuid } from '../validation/uuid.js';
import { catalogErrors } from './catalog-errors.js';

export type BundleFileRef = { skillId: string; versionId: string; path: string; ownerAccountId?: string };

const fileNotFound = () => notFound('Skill.FileNotFound', "No such file in this version's bundle.");
const versionNotFound = () => notFound('Version.NotFound', 'No such version of this skill.');

/**
 * A read holds the whole bundle (≤ 10 MB) in memory: per API process two at once and eight in line, past that 503
 * with Retry-After, as the upload's inspection gate does, so concurrent reads cannot add up the memory without bound.
 */
const reads = new BoundedGate(
  { running: 2, waiting: 8 },
  () =>
    new AppError('Skill.ReadBusy', 503, "Too many skill bundles' files are being read; try again shortly.", {
      headers: { 'retry-after': '5' },
    }),
);

export async function readSkillBundleFile(ctx: AppContext, ref: BundleFileRef): Promise<BundleFileText> {
  if (!isUuid(ref.skillId)) throw catalogErrors.itemNotFound('skill');
  if (!isUuid(ref.versionId)) throw versionNotFound();
  const owned = ref.ownerAccountId ? [eq(publishers.ownerAccountId, ref.ownerAccountId)] : [];
  const [item] = await ctx.db
    .select({ id: catalogItems.id })
    .from(catalogItems)
    .innerJoin(publishers, eq(publishers.id, catalogItems.publisherId))
    .where(and(eq(catalogItems.id, ref.skillId), eq(catalogItems.type, 'skill'), ...owned));
  if (!item) throw catalogErrors.itemNotFound('skill');
  const [version] = await ctx.db
    .select({ key: catalogVersions.bundleStorageKey })
    .from(catalogVersions)
    .where(and(eq(catalogVersions.id, ref.versionId), eq(catalogVersions.itemId, item.id)));
  if (!version) throw versionNotFound();
  const key = version.key;
  if (!key) throw fileNotFound();
  const file = await reads.run(async () => {
    const zip = await ctx.storage.getBuffer(key, SKILL_BUNDLE_LIMITS.maxCompressedBytes).catch((err: unknown) => {
      // Replaced or deleted since the row was read: the version's files are no longer there.
      if (err instanceof AppError && err.code === 'Storage.NotFound') return null;
      throw err;
    });
    return zip ? readBundleFileText(zip, ref.path) : null;
  });
  if (!file) throw fileNotFound();
  return file;
}
