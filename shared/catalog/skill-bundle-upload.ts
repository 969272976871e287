// Skill package upload: the .zip is streamed to object storage (hashed and size-limited on the way), inspected in
// memory without unpacking anything to disk, and recorded on the version; a refused bundle is deleted again. A new
// bundle clears what the parse found in the one it replaces: its contents are unknown until it is parsed in turn.
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { and, eq, sql } from 'drizzle-orm';
import { BoundedGate } from '../concurrency/bounded-gate.js';
import { TenantCounter } from '../concurrency/tenant-counter.js';
import type { AppContext } from '../context.js';
import type { DbExecutor } from '../db/client.js';
import { catalogVersions } from '../db/schema/index.js';
import { AppError, badRequest, notFound } from '../errors/app-error.js';
import { inspectSkillBundle } from '../skills/bundle-inspector.js';
import { SKILL_BUNDLE_LIMITS } from '../skills/bundle-limits.js';
import { catalogErrors } from './catalog-errors.js';
import { lockOwnItem, type VersionRow } from './item-access.js';
import { skillPayload } from './version-payloads.js';

export type UploadedBundle = { versionId: string; sizeBytes: number; fileCount: number; sha256: string };

const uploadable = new Set(['draft', 'changes_requested', 'rejected']);

async function lockUploadableVersion(tx: DbExecutor, accountId: string, skillId: string, versionId: string) {
  const item = await lockOwnItem(tx, 'skill', accountId, skillId);
  const [version] = await tx
    .select()
    .from(catalogVersions)
    .where(and(eq(catalogVersions.id, versionId), eq(catalogVersions.itemId, item.id)));
  if (!version) throw notFound('Version.NotFound', 'No such version of this skill.');
  if (!uploadable.has(version.status)) throw catalogErrors.notEditable('skill', version.status);
  return version;
}

const invalidBundle = (problems: string[]) =>
  badRequest('Skill.InvalidBundle', problems.join(' '), { details: { problems } });

/**
 * Inspection reads the whole stored bundle (≤ 10 MB) into memory and inflates its entries: per API process, two at
 * once and eight in line; past that 503 with Retry-After, so concurrent uploads cannot add up the memory without bound.
 */
const inspections = new BoundedGate(
  { running: 2, waiting: 8 },
  () =>
    new AppError('Skill.UploadBusy', 503, 'Too many skill bundles are being inspected; try again shortly.', {
      headers: { 'retry-after': '5' },
    }),
);

/**
 * An account's uploads being stored, inspected or waiting for the gate in this process: at most
 * SKILL_UPLOADS_PER_ACCOUNT, past it 429 with nothing stored. Without it one Publisher uploading in a loop kept the
 * gate's line full and everyone else's uploads answered 503 (a review finding, docs/skill-bundles.md).
 */
const uploadsInHand = new TenantCounter();

const tooManyUploads = (limit: number) =>
  new AppError(
    'Skill.TooManyUploads',
    429,
    `This account already has ${limit} skill bundle uploads in progress; send this one again when one of them has answered.`,
    { headers: { 'retry-after': '5' } },
  );

export async function uploadSkillBundle(
  ctx: AppContext,
  accountId: string,
  ref: { skillId: string; versionId: string },
  file: Readable,
): Promise<UploadedBundle> {
  const limit = ctx.config.SKILL_UPLOADS_PER_ACCOUNT;
  const leave = limit > 0 ? uploadsInHand.enter(accountId, limit) : () => undefined;
  if (!leave) {
    throw tooManyUploads(limit);
  }
  try {
    return await storeAndInspect(ctx, accountId, ref, file);
  } finally {
    leave();
  }
}

async function storeAndInspect(
  ctx: AppContext,
  accountId: string,
  ref: { skillId: string; versionId: string },
  file: Readable,
): Promise<UploadedBundle> {
  if (!/^[0-9a-f-]{36}$/i.test(ref.versionId)) throw notFound('Version.NotFound', 'No such version of this skill.');
  await ctx.db.transaction((tx) => lockUploadableVersion(tx, accountId, ref.skillId, ref.versionId));

  const key = `skill-bundles/${ref.skillId}/${ref.versionId}/${randomUUID()}.zip`;
  const limit = SKILL_BUNDLE_LIMITS.maxCompressedBytes;
  let stored: Awaited<ReturnType<AppContext['storage']['put']>>;
  try {
    stored = await ctx.storage.put(key, file, { contentType: 'application/zip', maxBytes: limit });
  } catch (err) {
    if (err instanceof AppError && err.code === 'Storage.TooLarge') {
      throw invalidBundle([`The bundle is larger than ${limit / 1024 / 1024} MB.`]);
    }
    throw err;
  }

  let inspection: Awaited<ReturnType<typeof inspectSkillBundle>>;
  try {
    inspection = await inspections.run(async () => inspectSkillBundle(await ctx.storage.getBuffer(key, limit)));
  } catch (err) {
    await ctx.storage.delete(key);
    throw err;
  }
  if (!inspection.ok) {
    await ctx.storage.delete(key);
    throw invalidBundle(inspection.problems);
  }

  let replaced: VersionRow['bundleStorageKey'] = null;
  try {
    await ctx.db.transaction(async (tx) => {
      const version = await lockUploadableVersion(tx, accountId, ref.skillId, ref.versionId);
      replaced = version.bundleStorageKey;
      await tx
        .update(catalogVersions)
        .set({
          bundleStorageKey: key,
          bundleSha256: stored.sha256,
          bundleSizeBytes: stored.sizeBytes,
          // The database's clock, as the review transitions' times are: the page compares the two.
          bundleUploadedAt: sql`now()`,
          // The earlier bundle's files, parameters, dependencies, examples and executesCode no longer describe it.
          payload: skillPayload.parse({}),
          updatedAt: new Date(),
        })
        .where(eq(catalogVersions.id, version.id));
    });
  } catch (err) {
    await ctx.storage.delete(key);
    throw err;
  }
  if (replaced) await ctx.storage.delete(replaced).catch(() => undefined);
  return {
    versionId: ref.versionId,
    sizeBytes: stored.sizeBytes,
    fileCount: inspection.bundle.fileCount,
    sha256: stored.sha256,
  };
}
