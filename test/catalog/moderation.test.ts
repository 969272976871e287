import {
  type Actors,
  attachBundle,
  createActors,
  createDraft,
  decide,
  publishItem,
  submit,
  uniqueSlug,
} from '../support/catalog-factory.js';
import { createHarness, type Harness } from '../support/harness.js';
import { bearer, signInAdmin, type TestUser } from '../support/identity.js';

let h: Harness;
let a: Actors;
let admin: { accountId: string; token: string };

const problem = (res: { text: string }) => JSON.parse(res.text);
const as = (user: TestUser) => bearer(user.session);
const moderatorView = async (type: string, id: string) =>
  (await h.http.get(`/api/v1/moderation/${type}/${id}`).set(as(a.moderator))).body;

beforeAll(async () => {
  h = await createHarness();
  a = await createActors(h);
  admin = await signInAdmin(h);
});
afterAll(async () => h.close());

describe('role checks on moderation routes', () => {
  it('answers 401 without credentials and 403 for publishers and plain accounts', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    const routes: [string, string][] = [
      ['get', '/api/v1/moderation/queue'],
      ['get', `/api/v1/moderation/mcp/${id}`],
      ['post', `/api/v1/moderation/mcp/${id}/approve`],
      ['post', `/api/v1/moderation/mcp/${id}/request-changes`],
      ['post', `/api/v1/moderation/mcp/${id}/reject`],
      ['put', `/api/v1/moderation/mcp/${id}/featured`],
      ['put', '/api/v1/moderation/mcp/categories/some-category'],
      ['get', '/api/v1/moderation/reports'],
      ['post', `/api/v1/moderation/reports/${id}/resolve`],
    ];
    for (const [method, path] of routes) {
      const call = (h.http as unknown as Record<string, (p: string) => import('supertest').Test>)[method]!;
      expect((await call(path).send({})).status).toBe(401);
      for (const user of [a.publisher, a.outsider]) {
        const res = await call(path).set(as(user)).send({});
        expect(res.status).toBe(403);
        expect(problem(res).title).toBe('Auth.Forbidden');
      }
    }
  });

  it('lets an Admin moderate, and only an Admin verify a publisher', async () => {
    const draft = await createDraft(h, a, 'agent');
    await submit(h, a, 'agent', draft.id).expect(200);
    const approved = await h.http.post(`/api/v1/moderation/agent/${draft.id}/approve`).set(bearer(admin.token));
    expect(approved.status).toBe(200);
    const byModerator = await h.http
      .put(`/api/v1/moderation/publishers/${a.namespace}/verified`)
      .set(as(a.moderator))
      .send({ verified: true });
    expect(byModerator.status).toBe(403);
    const byAdmin = await h.http
      .put(`/api/v1/moderation/publishers/${a.namespace}/verified`)
      .set(bearer(admin.token))
      .send({ verified: true });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body).toMatchObject({ slug: a.namespace, verified: true });
    const item = await h.http.get(`/api/v1/agent/${draft.slug}`);
    expect(item.body).toMatchObject({ source: 'official', isOfficial: true });
    await h.http
      .put(`/api/v1/moderation/publishers/${a.namespace}/verified`)
      .set(bearer(admin.token))
      .send({ verified: false })
      .expect(200);
    const missing = await h.http
      .put('/api/v1/moderation/publishers/no-such-publisher/verified')
      .set(bearer(admin.token))
      .send({ verified: true });
    expect(problem(missing).title).toBe('Publisher.NotFound');
  });
});

describe('the review queue', () => {
  it('lists items in review with the submit comment, oldest first, filtered by type', async () => {
    const first = await createDraft(h, a, 'soul');
    const second = await createDraft(h, a, 'soul');
    await submit(h, a, 'soul', first.id, 'First, please.').expect(200);
    await submit(h, a, 'soul', second.id).expect(200);
    const res = await h.http.get('/api/v1/moderation/queue?type=soul&pageSize=100').set(as(a.moderator));
    expect(res.status).toBe(200);
    const ids = res.body.items.map((x: { id: string }) => x.id);
    expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(second.id));
    expect(res.body.items.find((x: { id: string }) => x.id === first.id)).toMatchObject({
      status: 'in_review',
      submitComment: 'First, please.',
      pendingVersion: { version: '1.0.0', status: 'in_review', submittedAt: expect.any(String) },
    });
    expect(res.body.items.every((x: { type: string }) => x.type === 'soul')).toBe(true);
    const bad = await h.http.get('/api/v1/moderation/queue?type=widget').set(as(a.moderator));
    expect(bad.status).toBe(400);
    expect(problem(bad).title).toBe('Moderation.InvalidQuery');
  });
});

describe('decisions', () => {
  it('approval publishes the version and makes the item visible, recorded with the moderator', async () => {
    const draft = await createDraft(h, a, 'mcp', {
      version: { connections: [{ transport: 'stdio', command: 'npx' }], tools: [{ name: 'a' }] },
    });
    expect((await h.http.get(`/api/v1/mcp/${draft.slug}`)).status).toBe(404);
    await submit(h, a, 'mcp', draft.id).expect(200);
    expect((await h.http.get(`/api/v1/mcp/${draft.slug}`)).status).toBe(404);
    const res = await decide(h, a, 'mcp', draft.id, 'approve', { comment: 'Looks good.' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'published', version: '1.0.0' });
    const item = await h.http.get(`/api/v1/mcp/${draft.slug}`);
    expect(item.status).toBe(200);
    expect(item.body).toMatchObject({ primaryTransport: 'stdio', toolCount: 1, publishedAt: expect.any(String) });
    const view = await moderatorView('mcp', draft.id);
    expect(view.transitions.at(-1)).toMatchObject({
      action: 'approve',
      from: 'in_review',
      to: 'published',
      comment: 'Looks good.',
      actorId: a.moderator.accountId,
    });
  });

  it('keeps the earlier published version visible while a newer one is in review, then switches', async () => {
    const item = await publishItem(h, a, 'soul', { name: 'Original', version: { version: '1.0.0', soulMd: 'One.' } });
    const added = await h.http
      .post(`/api/v1/publisher/soul/${item.id}/versions`)
      .set(as(a.publisher))
      .send({ version: '1.1.0', soulMd: 'Two.' });
    expect(added.body.status).toBe('draft');
    // A published item in a new cycle is editable again; the edit waits for the approval.
    await h.http
      .put(`/api/v1/publisher/soul/${item.id}/draft`)
      .set(as(a.publisher))
      .send({ name: 'Renamed' })
      .expect(200);
    await submit(h, a, 'soul', item.id).expect(200);
    const during = await h.http.get(`/api/v1/soul/${item.slug}`);
    expect(during.status).toBe(200);
    expect(during.body).toMatchObject({ name: 'Original', currentVersion: { version: '1.0.0', soulMd: 'One.' } });
    expect((await h.http.get(`/api/v1/soul/${item.slug}/prompt.txt`)).text).toContain('One.');
    const own = (await h.http.get(`/api/v1/publisher/soul/${item.id}`).set(as(a.publisher))).body;
    expect(own).toMatchObject({ name: 'Renamed', hasPendingChanges: true, status: 'in_review', isPublished: true });

    await decide(h, a, 'soul', item.id, 'approve').expect(200);
    const after = await h.http.get(`/api/v1/soul/${item.slug}`);
    expect(after.body).toMatchObject({ name: 'Renamed', currentVersion: { version: '1.1.0', soulMd: 'Two.' } });
    const versions = await h.http.get(`/api/v1/soul/${item.slug}/versions`);
    expect(versions.body.map((v: { version: string }) => v.version)).toEqual(['1.1.0', '1.0.0']);
  });

  it('a rejected new version leaves the published one visible', async () => {
    const item = await publishItem(h, a, 'agent');
    await h.http
      .post(`/api/v1/publisher/agent/${item.id}/versions`)
      .set(as(a.publisher))
      .send({ version: '2.0.0' })
      .expect(200);
    await submit(h, a, 'agent', item.id).expect(200);
    const res = await decide(h, a, 'agent', item.id, 'reject', { reason: 'Malware.' });
    expect(res.body.status).toBe('rejected');
    const visible = await h.http.get(`/api/v1/agent/${item.slug}`);
    expect(visible.body.currentVersion.version).toBe('1.0.0');
  });

  it('request-changes needs a comment and moves the item to changes_requested', async () => {
    const draft = await createDraft(h, a, 'skill');
    await attachBundle(h, draft.versionId);
    await submit(h, a, 'skill', draft.id).expect(200);
    const missing = await decide(h, a, 'skill', draft.id, 'request-changes', {});
    expect(missing.status).toBe(400);
    expect(problem(missing).title).toBe('Moderation.Invalid');
    const blank = await decide(h, a, 'skill', draft.id, 'request-changes', { comment: '   ' });
    expect(blank.status).toBe(400);
    const res = await decide(h, a, 'skill', draft.id, 'request-changes', { comment: 'Add examples.' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('changes_requested');
    const own = (await h.http.get(`/api/v1/publisher/skill/${draft.id}`).set(as(a.publisher))).body;
    expect(own.status).toBe('changes_requested');
    expect(own.versions[0]).toMatchObject({ status: 'changes_requested', hasBundle: true });
    expect(own.transitions.at(-1)).toMatchObject({ action: 'request_changes', comment: 'Add examples.' });
    // changes_requested is editable.
    await h.http
      .put(`/api/v1/publisher/skill/${draft.id}/draft`)
      .set(as(a.publisher))
      .send({ summary: 'Now with examples.' })
      .expect(200);
  });

  it('reject needs a reason', async () => {
    const draft = await createDraft(h, a, 'mcp');
    await submit(h, a, 'mcp', draft.id).expect(200);
    const missing = await decide(h, a, 'mcp', draft.id, 'reject', { comment: 'wrong field' });
    expect(missing.status).toBe(400);
    const res = await decide(h, a, 'mcp', draft.id, 'reject', { reason: 'Spam.' });
    expect(res.body.status).toBe('rejected');
    expect((await moderatorView('mcp', draft.id)).transitions.at(-1)).toMatchObject({
      action: 'reject',
      comment: 'Spam.',
    });
  });

  it('answers 409 <Type>.NotInReview for a decision on an item not in review, 404 for an unknown one', async () => {
    const draft = await createDraft(h, a, 'agent');
    const bodies = { approve: {}, 'request-changes': { comment: 'c' }, reject: { reason: 'r' } } as const;
    for (const [decision, payload] of Object.entries(bodies)) {
      const res = await decide(h, a, 'agent', draft.id, decision as keyof typeof bodies, payload);
      expect(res.status).toBe(409);
      expect(problem(res).title).toBe('Agent.NotInReview');
    }
    const unknown = await decide(h, a, 'agent', '00000000-0000-4000-8000-000000000000', 'approve');
    expect(unknown.status).toBe(404);
    expect(problem(unknown).title).toBe('Agent.NotFound');
    const wrongType = await decide(h, a, 'soul', draft.id, 'approve');
    expect(problem(wrongType).title).toBe('Soul.NotFound');
  });
});

describe('curation', () => {
  it('sets the featured flag and creates or renames categories', async () => {
    const item = await publishItem(h, a, 'mcp');
    const res = await h.http
      .put(`/api/v1/moderation/mcp/${item.id}/featured`)
      .set(as(a.moderator))
      .send({ featured: true });
    expect(res.status).toBe(200);
    expect((await h.http.get(`/api/v1/mcp/${item.slug}`)).body.isFeatured).toBe(true);

    const slug = uniqueSlug('databases');
    const created = await h.http
      .put(`/api/v1/moderation/mcp/categories/${slug}`)
      .set(as(a.moderator))
      .send({ name: 'Databases' });
    expect(created.body).toEqual({ slug, name: 'Databases' });
    await h.http
      .put(`/api/v1/moderation/mcp/categories/${slug}`)
      .set(as(a.moderator))
      .send({ name: 'DBs' })
      .expect(200);
    const list = await h.http.get('/api/v1/mcp/categories');
    expect(list.body.find((c: { slug: string }) => c.slug === slug)).toEqual({ slug, name: 'DBs', count: 0 });
    const bad = await h.http.put('/api/v1/moderation/mcp/categories/Bad_Slug').set(as(a.moderator)).send({ name: 'x' });
    expect(bad.status).toBe(400);
    expect(problem(bad).title).toBe('Category.Invalid');
  });
});
