// Small factories for catalog tests: the actors (publisher, moderator, outsider), namespaces and categories, and
// items driven through the real publish workflow (draft, submit, approve) over HTTP.

import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { upsertCategory } from '../../shared/catalog/categories.js';
import { catalogChanged } from '../../shared/catalog/change-feed.js';
import type { ItemType } from '../../shared/catalog/item-types.js';
import { submitForReview } from '../../shared/catalog/review-workflow.js';
import { recordSkillContents } from '../../shared/catalog/skill-contents.js';
import type { SkillPayload } from '../../shared/catalog/version-payloads.js';
import { catalogItems, catalogVersions } from '../../shared/db/schema/index.js';
import type { Harness } from './harness.js';
import { bearer, createUser, signInAdmin, type TestUser } from './identity.js';

export const uniqueSlug = (label: string) => `${label}-${randomBytes(4).toString('hex')}`;

export type Actors = { publisher: TestUser; moderator: TestUser; outsider: TestUser; namespace: string };

export async function createActors(h: Harness, options: { verified?: boolean } = {}): Promise<Actors> {
  const [publisher, moderator, outsider] = await Promise.all([
    createUser(h, { roles: ['Publisher'], name: 'Pat Publisher' }),
    createUser(h, { roles: ['Moderator'], name: 'Mo Moderator' }),
    createUser(h, { name: 'Otto Outsider' }),
  ]);
  const namespace = await createNamespace(h, publisher, options);
  return { publisher, moderator, outsider, namespace };
}

export async function createNamespace(h: Harness, owner: TestUser, options: { verified?: boolean } = {}) {
  const slug = uniqueSlug('ns');
  const res = await h.http
    .post('/api/v1/publisher/publishers')
    .set(bearer(owner.session))
    .send({ slug, name: `Namespace ${slug}` });
  if (res.status !== 200) throw new Error(`namespace: ${res.status} ${res.text}`);
  if (options.verified) {
    const admin = await signInAdmin(h);
    await h.http
      .put(`/api/v1/moderation/publishers/${slug}/verified`)
      .set(bearer(admin.token))
      .send({ verified: true })
      .expect(200);
  }
  return slug;
}

export async function createCategory(h: Harness, type: ItemType, label = 'cat') {
  const slug = uniqueSlug(label);
  await upsertCategory(h.ctx.db, type, slug, `Category ${slug}`);
  return slug;
}

export type DraftOptions = {
  slug?: string;
  name?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  categories?: string[];
  version?: Record<string, unknown>;
  namespace?: string;
};

export function draftBody(a: Actors, type: ItemType, o: DraftOptions = {}) {
  const slug = o.slug ?? uniqueSlug(type);
  return {
    slug,
    publisherSlug: o.namespace ?? a.namespace,
    name: o.name ?? `Item ${slug}`,
    summary: o.summary ?? 'A test item.',
    description: o.description ?? 'Longer text about the test item.',
    tags: o.tags ?? [],
    categories: o.categories ?? [],
    version: { version: '1.0.0', changelog: 'First release.', license: 'MIT', ...o.version },
  };
}

export async function createDraft(h: Harness, a: Actors, type: ItemType, o: DraftOptions = {}) {
  const res = await h.http
    .post(`/api/v1/publisher/${type}/drafts`)
    .set(bearer(a.publisher.session))
    .send(draftBody(a, type, o));
  if (res.status !== 200) throw new Error(`draft: ${res.status} ${res.text}`);
  return res.body as { id: string; slug: string; versionId: string; version: string; status: string };
}

/** Stands in for the skill package upload (built elsewhere): marks the version as having a stored bundle. */
export async function attachBundle(h: Harness, versionId: string) {
  await h.ctx.db
    .update(catalogVersions)
    .set({ bundleStorageKey: `test/skills/${versionId}.zip`, bundleSha256: 'a'.repeat(64), bundleSizeBytes: 1234 })
    .where(eq(catalogVersions.id, versionId));
}

/** Uploads a skill version's bundle as its publisher does (multipart, one `file` part). */
export function uploadBundle(h: Harness, a: Actors, draft: { id: string; versionId: string }, zip: Buffer) {
  return h.http
    .post(`/api/v1/publisher/skill/${draft.id}/versions/${draft.versionId}/package`)
    .set(bearer(a.publisher.session))
    .attach('file', zip, { filename: 'bundle.zip', contentType: 'application/zip' });
}

export function submit(h: Harness, a: Actors, type: ItemType, id: string, comment?: string) {
  return h.http
    .post(`/api/v1/publisher/${type}/${id}/submit-review`)
    .set(bearer(a.publisher.session))
    .send(comment ? { comment } : {});
}

export function decide(
  h: Harness,
  a: Actors,
  type: ItemType,
  id: string,
  decision: 'approve' | 'request-changes' | 'reject',
  payload: Record<string, unknown> = {},
) {
  return h.http.post(`/api/v1/moderation/${type}/${id}/${decision}`).set(bearer(a.moderator.session)).send(payload);
}

/** Draft, (bundle,) submit and approve: the item is published and visible. */
export async function publishItem(h: Harness, a: Actors, type: ItemType, o: DraftOptions = {}) {
  const draft = await createDraft(h, a, type, o);
  if (type === 'skill') await attachBundle(h, draft.versionId);
  const submitted = await submit(h, a, type, draft.id);
  if (submitted.status !== 200) throw new Error(`submit: ${submitted.status} ${submitted.text}`);
  // Stands in for the bundle parse (the skill-bundle worker), which approval waits for.
  if (type === 'skill') await recordSkillContents(h.ctx.db, draft.versionId, { bundleFiles: [] });
  const approved = await decide(h, a, type, draft.id, 'approve');
  if (approved.status !== 200) throw new Error(`approve: ${approved.status} ${approved.text}`);
  return draft;
}

/**
 * A skill published with its contents and no bundle on the hub, as the demo seed published its skills before they
 * had bundles (databases seeded then still hold such versions): the submit is the seed's, the approval a moderator's.
 */
export async function publishSkillWithoutBundle(
  h: Harness,
  a: Actors,
  o: DraftOptions = {},
  contents: Partial<SkillPayload> = {},
) {
  const draft = await createDraft(h, a, 'skill', o);
  await recordSkillContents(h.ctx.db, draft.versionId, { bundleFiles: [{ path: 'SKILL.md', size: 120 }], ...contents });
  await submitForReview(h.ctx, 'skill', a.publisher.accountId, draft.id, undefined, { contentsRecorded: true });
  const approved = await decide(h, a, 'skill', draft.id, 'approve');
  if (approved.status !== 200) throw new Error(`approve: ${approved.status} ${approved.text}`);
  return draft;
}

/**
 * Stands in for the telemetry worker (built elsewhere): sets an item's counters (and rating totals). The notice
 * stands in for the read cache's TTL running out, as it would after the worker's write.
 */
export async function setCounters(
  h: Harness,
  itemId: string,
  counters: Partial<{
    installCount: number;
    usageCount: number;
    viewCount: number;
    favoriteCount: number;
    ratingSum: number;
    ratingCount: number;
  }>,
) {
  await h.ctx.db.update(catalogItems).set(counters).where(eq(catalogItems.id, itemId));
  catalogChanged(h.ctx.db);
}
