// POST /v0.1/publish (and /v0/publish): a Publisher's server.json becomes a draft of the catalog's mcp item (created,
// or a new or updated pending version) and is submitted for review, through the catalog's own publishing services,
// in one transaction: a refusal at any step leaves nothing written.
import { and, desc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { draftBody, draftPatchBody } from '../catalog/draft-input.js';
import { addVersion, createDraft, updateDraft } from '../catalog/drafts.js';
import { isEditable, isVersionString } from '../catalog/item-types.js';
import { submitForReview } from '../catalog/review-workflow.js';
import { versionInputSchema } from '../catalog/version-payloads.js';
import type { AppContext } from '../context.js';
import type { Database } from '../db/client.js';
import { catalogItems, catalogVersions, publishers } from '../db/schema/index.js';
import { badRequest, conflict, forbidden } from '../errors/app-error.js';
import { parseOrThrow } from '../errors/validation.js';
import { type ServerJson, toServerJson } from './server-json.js';
import { draftFromServerJson, type ServerJsonInput, serverJsonInput } from './server-json-input.js';
import { parseServerName, registryNamespace } from './server-names.js';

export type Published = { server: ServerJson; itemId: string; versionId: string; status: 'in_review' };

const SUBMIT_COMMENT = 'Published through the MCP Registry API (POST /v0.1/publish or /v0/publish).';

/** The catalog's own rules, applied to what the server.json maps to; a failure names the catalog field. */
function catalogRules<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const first = result.error.issues[0];
  const where = first?.path.length ? `${first.path.join('.')}: ` : '';
  throw badRequest('McpRegistry.Invalid', `The server cannot be stored in this catalog: ${where}${first?.message}`);
}

function targetOf(namespace: string, server: ServerJsonInput) {
  if (!server.name.startsWith(`${namespace}.`)) {
    throw forbidden(`Server names in this registry start with "${namespace}.<your publisher>/".`);
  }
  const target = parseServerName(namespace, server.name);
  if (!target) {
    throw badRequest(
      'McpRegistry.Invalid',
      `name: must be ${namespace}.<publisher>/<slug>, where both are 2-64 lowercase letters, digits and single hyphens.`,
    );
  }
  if (!isVersionString(server.version)) {
    throw badRequest('McpRegistry.Invalid', 'version: must be a semantic version such as 1.2.0 (no leading v).');
  }
  return target;
}

export async function publishServerJson(ctx: AppContext, accountId: string, body: unknown): Promise<Published> {
  const server = parseOrThrow(serverJsonInput, body, 'McpRegistry.Invalid');
  const { publisherSlug, slug } = targetOf(registryNamespace(ctx.config), server);
  const draft = draftFromServerJson(server);

  const { itemId, versionId } = await ctx.db.transaction(async (tx) => {
    // The catalog services open their own transactions; inside this one they become savepoints.
    const inner: AppContext = { ...ctx, db: tx as unknown as Database };
    const [owner] = await tx
      .select({ id: publishers.id })
      .from(publishers)
      .where(and(eq(publishers.slug, publisherSlug), eq(publishers.ownerAccountId, accountId)));
    if (!owner) throw forbidden(`You do not own the publisher "${publisherSlug}" of this server name.`);
    const [existing] = await tx
      .select({ id: catalogItems.id, publisherId: catalogItems.publisherId })
      .from(catalogItems)
      .where(and(eq(catalogItems.type, 'mcp'), eq(catalogItems.slug, slug)));
    if (existing && existing.publisherId !== owner.id) {
      throw conflict('McpRegistry.NameTaken', `The slug "${slug}" belongs to another publisher's server.`);
    }
    const saved = existing
      ? await saveVersion(inner, accountId, existing.id, server, draft)
      : await createDraft(
          inner,
          'mcp',
          accountId,
          catalogRules(draftBody('mcp'), {
            slug,
            publisherSlug,
            name: draft.title ?? slug,
            summary: draft.summary,
            description: draft.summary,
            ...(draft.iconUrl ? { iconUrl: draft.iconUrl } : {}),
            version: draft.version,
          }),
        );
    const submitted = await submitForReview(inner, 'mcp', accountId, saved.id, SUBMIT_COMMENT);
    return { itemId: saved.id, versionId: submitted.versionId as string };
  });
  return {
    server: await storedServerJson(ctx.db, server.name, itemId, versionId),
    itemId,
    versionId,
    status: 'in_review',
  };
}

type Draft = ReturnType<typeof draftFromServerJson>;

/**
 * An existing item: the same version number updates its pending version (while editable); a new number adds a
 * version, which keeps the newest version's tools, resources, prompts, permissions, license and readme (server.json
 * has no place for them). Metadata changes go through the draft update, so a published item's wait for approval.
 */
async function saveVersion(ctx: AppContext, accountId: string, itemId: string, server: ServerJsonInput, draft: Draft) {
  // Numbers and statuses of every version; only the newest is read in full (its fields carry over to a new one).
  const versions = await ctx.db
    .select({ id: catalogVersions.id, version: catalogVersions.version, status: catalogVersions.status })
    .from(catalogVersions)
    .where(eq(catalogVersions.itemId, itemId))
    .orderBy(desc(catalogVersions.createdAt), desc(catalogVersions.id));
  const same = versions.find((v) => v.version === server.version);
  // The catalog's draft rules for name, summary and icon (an icon is http(s) only), whichever branch follows.
  const metadata = catalogRules(draftPatchBody('mcp'), {
    ...(draft.title ? { name: draft.title } : {}),
    summary: draft.summary,
    ...(draft.iconUrl ? { iconUrl: draft.iconUrl } : {}),
  });
  if (same) {
    if (same.status === 'published' || same.status === 'superseded' || !isEditable(same.status)) {
      throw conflict(
        'Version.Exists',
        `Version ${server.version} exists and is ${same.status}; publish a new version.`,
      );
    }
    const patch = catalogRules(versionInputSchema('mcp').partial(), draft.version);
    return updateDraft(ctx, 'mcp', accountId, itemId, { ...metadata, version: patch });
  }
  const [newest] = versions[0]
    ? await ctx.db.select().from(catalogVersions).where(eq(catalogVersions.id, versions[0].id))
    : [];
  const kept = (newest?.payload ?? {}) as Record<string, unknown>;
  const input = catalogRules(versionInputSchema('mcp'), {
    ...(newest?.license ? { license: newest.license } : {}),
    ...(newest?.readme ? { readme: newest.readme } : {}),
    ...Object.fromEntries(['tools', 'resources', 'prompts', 'permissions'].map((k) => [k, kept[k]])),
    ...draft.version,
  });
  await addVersion(ctx, 'mcp', accountId, itemId, input);
  return updateDraft(ctx, 'mcp', accountId, itemId, metadata);
}

/** The server.json of the version now in review, as the read API will serve it once approved. */
async function storedServerJson(db: Database, name: string, itemId: string, versionId: string) {
  const [row] = await db
    .select({ item: catalogItems, version: catalogVersions })
    .from(catalogVersions)
    .innerJoin(catalogItems, eq(catalogItems.id, catalogVersions.itemId))
    .where(and(eq(catalogVersions.id, versionId), eq(catalogItems.id, itemId)));
  if (!row) throw new Error(`published version ${versionId} vanished`);
  const item = { ...row.item, ...(row.item.pendingChanges ?? {}) } as typeof row.item;
  return toServerJson({
    name,
    title: item.name,
    summary: item.summary,
    version: row.version.version,
    sourceUrl: row.version.sourceUrl,
    iconUrl: item.iconUrl,
    payload: row.version.payload,
  });
}
