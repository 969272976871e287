// Publisher writes: create a draft with its first version, update a draft's metadata and pending version, and add
// a version. Each runs in one transaction on the locked item; nothing is written when a rule fails.
import { and, count, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import semver from 'semver';
import type { AppContext } from '../context.js';
import type { DbExecutor } from '../db/client.js';
import { accounts, catalogItems, catalogVersions, publishers } from '../db/schema/index.js';
import { badRequest } from '../errors/app-error.js';
import { catalogErrors } from './catalog-errors.js';
import { catalogLimitErrors, MAX_UNPUBLISHED_ITEMS_PER_ACCOUNT, MAX_VERSIONS_PER_ITEM } from './catalog-limits.js';
import { assertCategoriesExist } from './categories.js';
import { lockOwnItem, pendingVersion } from './item-access.js';
import { type ItemStatus, type ItemType, isEditable, reservedSlugs } from './item-types.js';
import { recordTransition } from './transitions.js';
import { applyVersionPatch, splitVersionInput, type VersionInput, type VersionPatch } from './version-payloads.js';

export type ItemMetadata = {
  name: string;
  summary: string;
  description: string;
  iconUrl?: string | null;
  tags?: string[];
  categories?: string[];
};
export type DraftInput = ItemMetadata & { slug: string; publisherSlug: string; version: VersionInput };
export type DraftPatch = Partial<ItemMetadata> & { version?: VersionPatch };

export type MutationResult = {
  id: string;
  type: ItemType;
  slug: string;
  status: ItemStatus;
  versionId?: string;
  version?: string;
};

const unique = (values: string[] | undefined) => (values ? [...new Set(values)] : undefined);

export async function createDraft(
  ctx: AppContext,
  type: ItemType,
  accountId: string,
  input: DraftInput,
): Promise<MutationResult> {
  if (reservedSlugs.has(input.slug)) throw badRequest('Draft.Invalid', `slug: "${input.slug}" is reserved.`);
  return ctx.db.transaction(async (tx) => {
    // The account row is locked while its unpublished items are counted, so N concurrent creates with M places left
    // make exactly M drafts (`no key update`, as createApiKey: it does not wait on rows that reference the account).
    await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for('no key update');
    const [publisher] = await tx
      .select({ id: publishers.id })
      .from(publishers)
      .where(and(eq(publishers.slug, input.publisherSlug), eq(publishers.ownerAccountId, accountId)));
    if (!publisher) throw catalogErrors.publisherNotFound(input.publisherSlug);
    // A separate statement after the lock: under READ COMMITTED it sees every item committed before the lock was ours.
    const [unpublished] = await tx
      .select({ n: count() })
      .from(catalogItems)
      .innerJoin(publishers, eq(publishers.id, catalogItems.publisherId))
      .where(and(eq(publishers.ownerAccountId, accountId), isNull(catalogItems.currentVersionId)));
    if ((unpublished?.n ?? 0) >= MAX_UNPUBLISHED_ITEMS_PER_ACCOUNT) throw catalogLimitErrors.unpublishedItems();
    const categories = unique(input.categories) ?? [];
    await assertCategoriesExist(tx, type, categories);
    const [item] = await tx
      .insert(catalogItems)
      .values({
        type,
        slug: input.slug,
        publisherId: publisher.id,
        name: input.name,
        summary: input.summary,
        description: input.description,
        iconUrl: input.iconUrl ?? null,
        tags: unique(input.tags) ?? [],
        categories,
      })
      .onConflictDoNothing({ target: [catalogItems.type, catalogItems.slug] })
      .returning({ id: catalogItems.id });
    if (!item) throw catalogErrors.slugExists(type, input.slug);
    const { version, columns, payload } = splitVersionInput(type, input.version);
    const [created] = await tx
      .insert(catalogVersions)
      .values({ itemId: item.id, version, ...columns, payload })
      .returning({ id: catalogVersions.id });
    await recordTransition(tx, {
      itemId: item.id,
      versionId: created!.id,
      actorAccountId: accountId,
      action: 'create',
      from: null,
      to: 'draft',
    });
    return { id: item.id, type, slug: input.slug, status: 'draft', versionId: created!.id, version };
  });
}

/**
 * Metadata of a never-published item changes in place; for a published item it waits in `pending_changes` and is
 * applied when the next version is approved, so the public page only ever shows reviewed text.
 */
export async function updateDraft(
  ctx: AppContext,
  type: ItemType,
  accountId: string,
  itemId: string,
  patch: DraftPatch,
): Promise<MutationResult> {
  return ctx.db.transaction(async (tx) => {
    const item = await lockOwnItem(tx, type, accountId, itemId);
    if (!isEditable(item.status)) throw catalogErrors.notEditable(type, item.status);
    const { version: versionPatch, ...metadata } = patch;
    if (metadata.categories) metadata.categories = unique(metadata.categories);
    if (metadata.tags) metadata.tags = unique(metadata.tags);
    await assertCategoriesExist(tx, type, metadata.categories ?? []);
    const pending = await pendingVersion(tx, item.id);
    if (versionPatch) await patchPendingVersion(tx, type, pending, versionPatch);
    const changes = Object.fromEntries(Object.entries(metadata).filter(([, v]) => v !== undefined));
    const set =
      item.currentVersionId === null
        ? { ...changes, updatedAt: new Date() }
        : { pendingChanges: { ...(item.pendingChanges ?? {}), ...changes }, updatedAt: new Date() };
    await tx.update(catalogItems).set(set).where(eq(catalogItems.id, item.id));
    return {
      id: item.id,
      type,
      slug: item.slug,
      status: item.status,
      versionId: pending?.id,
      version: pending?.version,
    };
  });
}

async function patchPendingVersion(
  tx: DbExecutor,
  type: ItemType,
  pending: typeof catalogVersions.$inferSelect | undefined,
  patch: VersionPatch,
) {
  if (!pending) throw catalogErrors.nothingToSubmit(type);
  if (patch.version !== undefined && patch.version !== pending.version) {
    throw catalogErrors.versionInvalid(
      `version: the pending version is ${pending.version}; add a new version to change the number.`,
    );
  }
  const { columns, payload } = applyVersionPatch(type, pending.payload, patch);
  await tx
    .update(catalogVersions)
    .set({ ...columns, ...(payload ? { payload } : {}), updatedAt: new Date() })
    .where(eq(catalogVersions.id, pending.id));
}

/**
 * Adds a version greater than every existing one. On a published item it starts a new review cycle (the item goes
 * back to draft while its published version stays visible); an older unsubmitted version becomes superseded (and
 * its skill bundle is deleted). An item holds at most MAX_VERSIONS_PER_ITEM versions.
 */
export async function addVersion(
  ctx: AppContext,
  type: ItemType,
  accountId: string,
  itemId: string,
  input: VersionInput,
): Promise<MutationResult> {
  let orphanedBundles: string[] = [];
  const result = await ctx.db.transaction(async (tx) => {
    const item = await lockOwnItem(tx, type, accountId, itemId);
    if (item.status === 'in_review') throw catalogErrors.notEditable(type, item.status);
    // The item row is locked (lockOwnItem), so concurrent adds are counted one after another.
    const existing = await tx
      .select({ version: catalogVersions.version })
      .from(catalogVersions)
      .where(eq(catalogVersions.itemId, item.id));
    if (existing.length >= MAX_VERSIONS_PER_ITEM) throw catalogLimitErrors.versions();
    const notLower = existing.find((e) => !semver.gt(input.version, e.version));
    if (notLower) {
      throw catalogErrors.versionExists(
        `Version ${input.version} must be greater than every existing version (${notLower.version} exists).`,
      );
    }
    const unsubmitted = and(
      eq(catalogVersions.itemId, item.id),
      inArray(catalogVersions.status, ['draft', 'changes_requested']),
    );
    // A superseded version can never be submitted again, so its skill bundle is of no use: it is deleted below.
    const orphaned = await tx
      .select({ key: catalogVersions.bundleStorageKey })
      .from(catalogVersions)
      .where(and(unsubmitted, isNotNull(catalogVersions.bundleStorageKey)));
    await tx
      .update(catalogVersions)
      .set({
        status: 'superseded',
        bundleStorageKey: null,
        bundleSha256: null,
        bundleSizeBytes: null,
        bundleUploadedAt: null,
        updatedAt: new Date(),
      })
      .where(unsubmitted);
    const { version, columns, payload } = splitVersionInput(type, input);
    const [created] = await tx
      .insert(catalogVersions)
      .values({ itemId: item.id, version, ...columns, payload })
      .returning({ id: catalogVersions.id });
    await tx.update(catalogItems).set({ status: 'draft', updatedAt: new Date() }).where(eq(catalogItems.id, item.id));
    await recordTransition(tx, {
      itemId: item.id,
      versionId: created!.id,
      actorAccountId: accountId,
      action: 'add_version',
      from: item.status,
      to: 'draft',
    });
    orphanedBundles = orphaned.flatMap((o) => o.key ?? []);
    return { id: item.id, type, slug: item.slug, status: 'draft' as const, versionId: created!.id, version };
  });
  // After the commit (only skills have bundles, and they are never added inside another transaction); a failed
  // delete leaves an unreferenced object, never a version pointing at nothing.
  for (const key of orphanedBundles) await ctx.storage.delete(key).catch(() => undefined);
  return result;
}
