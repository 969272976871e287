// What a publisher may hold (versions per item, unpublished items and namespaces per account) and how much one
// draft-detail read returns, from the review that found both unbounded (review2: 121 versions accepted, 20 versions
// of ~1 MB made a 20 MB detail). Each cap answers 409 in the catalog's problem shape, exactly under concurrency.
import { Readable } from 'node:stream';
import {
  MAX_PUBLISHERS_PER_ACCOUNT,
  MAX_UNPUBLISHED_ITEMS_PER_ACCOUNT,
  MAX_VERSIONS_PER_ITEM,
} from '../../shared/catalog/catalog-limits.js';
import {
  type Actors,
  attachBundle,
  createActors,
  createDraft,
  decide,
  draftBody,
  submit,
  uniqueSlug,
} from '../support/catalog-factory.js';
import { createHarness, type Harness } from '../support/harness.js';
import { bearer } from '../support/identity.js';

let h: Harness;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

/** ~1 MB of valid version input: a 200,000-char readme and 200 tools with 4,000-char descriptions. */
const bigVersion = (version: string) => ({
  version,
  readme: 'r'.repeat(200_000),
  changelog: 'c'.repeat(20_000),
  tools: Array.from({ length: 200 }, (_, i) => ({ name: `tool-${i}`, description: 'd'.repeat(4000) })),
});

const addVersion = (a: Actors, type: string, id: string, body: object) =>
  h.http.post(`/api/v1/publisher/${type}/${id}/versions`).set(bearer(a.publisher.session)).send(body);

const publisherDetail = async (a: Actors, type: string, id: string) =>
  h.http.get(`/api/v1/publisher/${type}/${id}`).set(bearer(a.publisher.session)).expect(200);

type DetailVersion = { id: string; version: string; status: string; full: boolean; isCurrent: boolean } & Record<
  string,
  unknown
>;

function expectLimit(
  res: { status: number; headers: Record<string, string>; body: Record<string, unknown> },
  code: string,
) {
  expect(res.status).toBe(409);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({ status: 409, title: code });
  expect(res.body.detail).toEqual(expect.any(String));
}

describe('the draft detail of an item with many large versions', () => {
  it('reads in full only the current and the pending version, whoever reads it', async () => {
    const a = await createActors(h);
    const draft = await createDraft(h, a, 'mcp', { version: bigVersion('1.0.0') });
    await submit(h, a, 'mcp', draft.id).expect(200);
    await decide(h, a, 'mcp', draft.id, 'approve').expect(200);
    for (let i = 1; i <= 20; i++) await addVersion(a, 'mcp', draft.id, bigVersion(`1.0.${i}`)).expect(200);

    const own = await publisherDetail(a, 'mcp', draft.id);
    const moderated = await h.http
      .get(`/api/v1/moderation/mcp/${draft.id}`)
      .set(bearer(a.moderator.session))
      .expect(200);
    for (const res of [own, moderated]) {
      // Two versions of ~1 MB each, not 21: before the fix this body was ~21 MB.
      expect(res.text.length).toBeLessThan(2_500_000);
      const versions = res.body.versions as DetailVersion[];
      expect(versions).toHaveLength(21);
      expect(versions.map((v) => v.version).slice(0, 2)).toEqual(['1.0.20', '1.0.19']);
      const full = versions.filter((v) => v.full);
      expect(full.map((v) => [v.version, v.status, v.isCurrent])).toEqual([
        ['1.0.20', 'draft', false],
        ['1.0.0', 'published', true],
      ]);
      for (const v of full) {
        expect(v.readme).toHaveLength(200_000);
        expect(v.changelog).toHaveLength(20_000);
        expect(v.tools).toHaveLength(200);
      }
      const summaries = versions.filter((v) => !v.full);
      expect(summaries).toHaveLength(19);
      for (const v of summaries) {
        expect(v.status).toBe('superseded');
        expect(Object.keys(v).sort()).toEqual(['createdAt', 'full', 'id', 'isCurrent', 'status', 'version']);
      }
    }
  }, 120_000);

  it('shows the newest 100 transitions, oldest first', async () => {
    const a = await createActors(h);
    const draft = await createDraft(h, a, 'agent');
    // create + 60 × (submit, withdraw) = 121 transitions.
    for (let i = 0; i < 60; i++) {
      await submit(h, a, 'agent', draft.id, `round ${i}`).expect(200);
      await h.http.post(`/api/v1/publisher/agent/${draft.id}/withdraw`).set(bearer(a.publisher.session)).expect(200);
    }
    const { body } = await publisherDetail(a, 'agent', draft.id);
    expect(body.transitions).toHaveLength(100);
    // The 22nd to the 121st: the create and the first ten rounds are left out.
    expect(body.transitions[0]).toMatchObject({ action: 'submit', comment: 'round 10' });
    expect(body.transitions[1]).toMatchObject({ action: 'withdraw' });
    expect(body.transitions.at(-1)).toMatchObject({ action: 'withdraw', to: 'draft' });
  }, 120_000);
});

describe(`at most ${MAX_VERSIONS_PER_ITEM} versions per item`, () => {
  it('answers 409 Version.LimitReached for the next one, and adds nothing', async () => {
    const a = await createActors(h);
    const draft = await createDraft(h, a, 'agent');
    for (let i = 1; i < MAX_VERSIONS_PER_ITEM; i++)
      await addVersion(a, 'agent', draft.id, { version: `1.0.${i}` }).expect(200);
    const refused = await addVersion(a, 'agent', draft.id, { version: '2.0.0' });
    expectLimit(refused, 'Version.LimitReached');
    const { body } = await publisherDetail(a, 'agent', draft.id);
    expect(body.versions).toHaveLength(MAX_VERSIONS_PER_ITEM);
    expect(body.versions[0]).toMatchObject({
      version: `1.0.${MAX_VERSIONS_PER_ITEM - 1}`,
      status: 'draft',
      full: true,
    });
  }, 120_000);

  it('never passes the cap when versions are added at once', async () => {
    const a = await createActors(h);
    const draft = await createDraft(h, a, 'agent');
    for (let i = 1; i < MAX_VERSIONS_PER_ITEM - 3; i++)
      await addVersion(a, 'agent', draft.id, { version: `1.0.${i}` }).expect(200);
    // 3 places left, 10 concurrent adds. Each is greater than all the earlier ones, but a smaller one locked after a
    // greater one is refused as Version.Exists; the rest are added until the cap, then Version.LimitReached.
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => addVersion(a, 'agent', draft.id, { version: `3.0.${i}` })),
    );
    const added = results.filter((r) => r.status === 200).length;
    for (const r of results.filter((r) => r.status !== 200)) {
      expect(r.status).toBe(409);
      expect(['Version.Exists', 'Version.LimitReached']).toContain(r.body.title);
    }
    const { body } = await publisherDetail(a, 'agent', draft.id);
    expect(body.versions).toHaveLength(MAX_VERSIONS_PER_ITEM - 3 + added);
    expect(body.versions.length).toBeLessThanOrEqual(MAX_VERSIONS_PER_ITEM);
    // Whatever the order, the item is then full.
    for (let i = 0; i < 3 - added; i++) await addVersion(a, 'agent', draft.id, { version: `4.0.${i}` }).expect(200);
    expectLimit(await addVersion(a, 'agent', draft.id, { version: '5.0.0' }), 'Version.LimitReached');
  }, 120_000);

  it('deletes the bundle of a skill version it supersedes', async () => {
    const a = await createActors(h);
    const draft = await createDraft(h, a, 'skill');
    const key = `test/skills/${draft.versionId}.zip`;
    await h.ctx.storage.put(key, Readable.from(Buffer.from('PK old bundle')), { contentType: 'application/zip' });
    await attachBundle(h, draft.versionId);
    await addVersion(a, 'skill', draft.id, { version: '1.1.0' }).expect(200);
    expect(await h.ctx.storage.exists(key)).toBe(false);
    const { body } = await publisherDetail(a, 'skill', draft.id);
    expect(body.versions.map((v: DetailVersion) => [v.version, v.status, v.hasBundle])).toEqual([
      ['1.1.0', 'draft', false],
      ['1.0.0', 'superseded', false],
    ]);
  });
});

describe(`at most ${MAX_UNPUBLISHED_ITEMS_PER_ACCOUNT} unpublished items per account`, () => {
  const create = (a: Actors, type = 'agent') =>
    h.http.post(`/api/v1/publisher/${type}/drafts`).set(bearer(a.publisher.session)).send(draftBody(a, 'agent'));

  it('counts every namespace of the account, exactly under concurrent creates, and frees a place on approval', async () => {
    const a = await createActors(h);
    const second = await h.http
      .post('/api/v1/publisher/publishers')
      .set(bearer(a.publisher.session))
      .send({ slug: uniqueSlug('ns'), name: 'Second' })
      .expect(200);
    const firstDraft = await createDraft(h, a, 'agent', { namespace: second.body.slug });
    for (let i = 1; i < MAX_UNPUBLISHED_ITEMS_PER_ACCOUNT - 5; i++) await create(a).expect(200);

    const results = await Promise.all(Array.from({ length: 12 }, () => create(a)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    for (const r of results.filter((r) => r.status !== 200)) expectLimit(r, 'Draft.LimitReached');
    const mine = await h.http.get('/api/v1/publisher/agent/mine').set(bearer(a.publisher.session)).expect(200);
    expect(mine.body).toHaveLength(MAX_UNPUBLISHED_ITEMS_PER_ACCOUNT);
    expectLimit(await create(a, 'skill'), 'Draft.LimitReached');

    await submit(h, a, 'agent', firstDraft.id).expect(200);
    await decide(h, a, 'agent', firstDraft.id, 'approve').expect(200);
    await create(a).expect(200);
    expectLimit(await create(a), 'Draft.LimitReached');
  }, 120_000);
});

describe(`at most ${MAX_PUBLISHERS_PER_ACCOUNT} publisher namespaces per account`, () => {
  it('answers 409 Publisher.LimitReached past it, exactly under concurrent creates', async () => {
    const a = await createActors(h); // owns one namespace
    const create = () =>
      h.http
        .post('/api/v1/publisher/publishers')
        .set(bearer(a.publisher.session))
        .send({ slug: uniqueSlug('ns'), name: 'More' });
    for (let i = 1; i < MAX_PUBLISHERS_PER_ACCOUNT - 3; i++) await create().expect(200);
    const results = await Promise.all(Array.from({ length: 8 }, create));
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    for (const r of results.filter((r) => r.status !== 200)) expectLimit(r, 'Publisher.LimitReached');
    const own = await h.http.get('/api/v1/publisher/publishers').set(bearer(a.publisher.session)).expect(200);
    expect(own.body).toHaveLength(MAX_PUBLISHERS_PER_ACCOUNT);
  }, 60_000);
});
