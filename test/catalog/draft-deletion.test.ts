// DELETE /api/v1/publisher/{type}/{id}: a publisher deletes an item that was never public (draft, sent back,
// rejected), which frees its place under the cap on unpublished items and its slug; an item in review, one that was
// ever published, or another account's is refused and left as it was.
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { MAX_UNPUBLISHED_ITEMS_PER_ACCOUNT } from '../../shared/catalog/catalog-limits.js';
import { catalogItems, catalogVersions } from '../../shared/db/schema/index.js';
import {
  type Actors,
  createActors,
  createDraft,
  decide,
  draftBody,
  publishItem,
  submit,
} from '../support/catalog-factory.js';
import { createHarness, type Harness } from '../support/harness.js';
import { bearer } from '../support/identity.js';

let h: Harness;
let a: Actors;
beforeAll(async () => {
  h = await createHarness();
  a = await createActors(h);
});
afterAll(async () => h.close());

const remove = (session: string, type: string, id: string) =>
  h.http.delete(`/api/v1/publisher/${type}/${id}`).set(bearer(session));
const itemExists = async (id: string) =>
  (await h.ctx.db.select({ id: catalogItems.id }).from(catalogItems).where(eq(catalogItems.id, id))).length === 1;

it('deletes a rejected item with its versions and bundles; the slug is free again', async () => {
  const draft = await createDraft(h, a, 'skill');
  const key = `skill-bundles/${draft.id}/${draft.versionId}/test.zip`;
  await h.ctx.storage.put(key, Readable.from([Buffer.from('PK')]), { contentType: 'application/zip' });
  await h.ctx.db
    .update(catalogVersions)
    .set({ bundleStorageKey: key, bundleSha256: 'a'.repeat(64), bundleSizeBytes: 2 })
    .where(eq(catalogVersions.id, draft.versionId));
  await submit(h, a, 'skill', draft.id).expect(200);
  await decide(h, a, 'skill', draft.id, 'reject', { reason: 'Not a skill.' }).expect(200);

  const res = await remove(a.publisher.session, 'skill', draft.id);
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ deleted: true, id: draft.id, slug: draft.slug });
  expect(await itemExists(draft.id)).toBe(false);
  expect(await h.ctx.db.select().from(catalogVersions).where(eq(catalogVersions.itemId, draft.id))).toEqual([]);
  await expect(h.ctx.storage.getBuffer(key, 10)).rejects.toThrow();
  expect((await h.http.get(`/api/v1/publisher/skill/${draft.id}`).set(bearer(a.publisher.session))).status).toBe(404);
  const again = await h.http
    .post('/api/v1/publisher/skill/drafts')
    .set(bearer(a.publisher.session))
    .send(draftBody(a, 'skill', { slug: draft.slug }));
  expect(again.status).toBe(200);
});

it('refuses an item in review (withdraw first), a published one, another account’s, and a malformed id', async () => {
  const inReview = await createDraft(h, a, 'agent');
  await submit(h, a, 'agent', inReview.id).expect(200);
  const res = await remove(a.publisher.session, 'agent', inReview.id);
  expect(res.status).toBe(409);
  expect(res.body).toMatchObject({ title: 'Agent.AlreadyInReview' });

  const published = await publishItem(h, a, 'agent');
  const wasPublic = await remove(a.publisher.session, 'agent', published.id);
  expect(wasPublic.status).toBe(409);
  expect(wasPublic.body).toMatchObject({ title: 'Agent.WasPublished' });

  const mine = await createDraft(h, a, 'agent');
  const otherPublisher = (await createActors(h)).publisher;
  expect((await remove(otherPublisher.session, 'agent', mine.id)).status).toBe(404);
  expect((await remove(a.outsider.session, 'agent', mine.id)).status).toBe(403); // not a Publisher at all
  expect((await remove(a.publisher.session, 'mcp', mine.id)).status).toBe(404); // another type's path
  expect((await remove(a.publisher.session, 'agent', 'not-a-uuid')).status).toBe(404);
  expect((await h.http.delete(`/api/v1/publisher/agent/${mine.id}`)).status).toBe(401);
  for (const id of [inReview.id, published.id, mine.id]) expect(await itemExists(id)).toBe(true);
});

it('frees a place under the cap on unpublished items', async () => {
  const full = await createActors(h);
  const drafts = [];
  for (let i = 0; i < MAX_UNPUBLISHED_ITEMS_PER_ACCOUNT; i++) drafts.push(await createDraft(h, full, 'soul'));
  const over = await h.http
    .post('/api/v1/publisher/soul/drafts')
    .set(bearer(full.publisher.session))
    .send(draftBody(full, 'soul'));
  expect(over.status).toBe(409);
  expect((await remove(full.publisher.session, 'soul', drafts[0]?.id as string)).status).toBe(200);
  await createDraft(h, full, 'soul');
});
