// What a moderator deciding on an item needs about its publisher: the reports list names each item's publisher (the
// public fields its page shows), filters by publisher (`publisher=`) and sorts oldest first (`sort=oldest`); the
// public list of a type filters by publisher too (the publisher's other items); a moderator lists its own decisions.
// Moderation data stays Moderator/Admin.
import {
  type Actors,
  createActors,
  createDraft,
  createNamespace,
  decide,
  publishItem,
  submit,
} from '../support/catalog-factory.js';
import { createHarness, type Harness } from '../support/harness.js';
import { bearer, createUser, type TestUser } from '../support/identity.js';

let h: Harness;
let a: Actors;
let other: Actors;
let reporter: TestUser;
let verified: Actors;

const as = (user: TestUser) => bearer(user.session);
const reports = (q: string, user: TestUser = a.moderator) =>
  h.http.get(`/api/v1/moderation/reports?pageSize=100&${q}`).set(as(user));
const report = async (type: 'mcp' | 'agent', slug: string, user: TestUser = reporter) => {
  const res = await h.http.post(`/api/v1/${type}/${slug}/report`).set(bearer(user.apiKey)).send({ reason: 'Spam' });
  expect(res.status).toBe(200);
  return res.body.id as string;
};

beforeAll(async () => {
  h = await createHarness();
  a = await createActors(h);
  reporter = await createUser(h);
  const publisher = await createUser(h, { roles: ['Publisher'], name: 'Olga Other' });
  other = { ...a, publisher, namespace: await createNamespace(h, publisher) };
  const official = await createUser(h, { roles: ['Publisher'] });
  verified = { ...a, publisher: official, namespace: await createNamespace(h, official, { verified: true }) };
});
afterAll(async () => h.close());

describe('GET /api/v1/moderation/reports: the publisher of each item', () => {
  it("names the item's publisher (slug, name, source) as the item's public page does", async () => {
    const item = await publishItem(h, a, 'mcp');
    const official = await publishItem(h, verified, 'agent');
    const id = await report('mcp', item.slug);
    const officialId = await report('agent', official.slug);
    const listed = (await reports('status=open')).body.items as Record<string, unknown>[];
    const page = (await h.http.get(`/api/v1/mcp/${item.slug}`)).body;
    expect(listed.find((r) => r.id === id)).toMatchObject({
      publisherSlug: a.namespace,
      publisherName: page.publisherName,
      source: 'user',
    });
    expect(page.publisherSlug).toBe(a.namespace);
    expect(listed.find((r) => r.id === officialId)).toMatchObject({
      publisherSlug: verified.namespace,
      source: 'official',
    });
  });

  it('filters by publisher (publisher=slug), with the total counting only those, open and resolved apart', async () => {
    const mine = await publishItem(h, other, 'mcp');
    const alsoMine = await publishItem(h, other, 'agent');
    const notMine = await publishItem(h, a, 'agent');
    const first = await report('mcp', mine.slug);
    const second = await report('agent', alsoMine.slug);
    await report('agent', notMine.slug);
    await h.http.post(`/api/v1/moderation/reports/${first}/resolve`).set(as(a.moderator)).send({}).expect(200);

    const all = await reports(`publisher=${other.namespace}`);
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(2);
    expect(all.body.items.map((r: { id: string }) => r.id).sort()).toEqual([first, second].sort());
    const open = await reports(`publisher=${other.namespace}&status=open`);
    expect(open.body).toMatchObject({ total: 1, items: [{ id: second, publisherSlug: other.namespace }] });
    const resolved = await reports(`publisher=${other.namespace}&status=resolved`);
    expect(resolved.body).toMatchObject({ total: 1, items: [{ id: first }] });
    expect((await reports('publisher=nobody-here')).body).toMatchObject({ total: 0, items: [] });
  });

  it('sorts oldest first with sort=oldest; newest first by default and with sort=newest', async () => {
    const ids: string[] = [];
    for (const type of ['mcp', 'agent', 'mcp'] as const)
      ids.push(await report(type, (await publishItem(h, other, type)).slug));
    const order = async (q: string) =>
      ((await reports(`publisher=${other.namespace}&status=open&${q}`)).body.items as { id: string }[])
        .map((r) => r.id)
        .filter((id) => ids.includes(id));
    expect(await order('sort=oldest')).toEqual(ids);
    expect(await order('sort=newest')).toEqual([...ids].reverse());
    expect(await order('')).toEqual([...ids].reverse());
  });

  it('answers 400 Moderation.InvalidQuery for an unknown sort or a publisher that is no slug', async () => {
    for (const q of ['sort=up', 'publisher=Not%20A%20Slug', 'sort=oldest&sort=newest']) {
      const res = await reports(q);
      expect(res.status).toBe(400);
      expect(JSON.parse(res.text).title).toBe('Moderation.InvalidQuery');
    }
  });

  it('stays Moderator/Admin only: 403 for a publisher (even about its own items), 401 without a session', async () => {
    expect((await reports(`publisher=${other.namespace}`, other.publisher)).status).toBe(403);
    expect((await h.http.get(`/api/v1/moderation/reports?publisher=${other.namespace}`)).status).toBe(401);
  });
});

describe("GET /api/v1/{type}?publisher=: a publisher's published items", () => {
  it("lists only that publisher's published items of the type, with the total", async () => {
    const ns = await createNamespace(h, other.publisher);
    const own = { ...other, namespace: ns };
    const items = [await publishItem(h, own, 'agent'), await publishItem(h, own, 'agent')];
    await publishItem(h, a, 'agent');
    const res = await h.http.get(`/api/v1/agent?publisher=${ns}`);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(2);
    expect(res.body.items.map((i: { slug: string }) => i.slug).sort()).toEqual(items.map((i) => i.slug).sort());
    expect((await h.http.get(`/api/v1/mcp?publisher=${ns}`)).body).toMatchObject({ total: 0, items: [] });
    expect((await h.http.get('/api/v1/agent?publisher=NO')).status).toBe(400);
  });
});

describe('GET /api/v1/moderation/decisions: my decisions', () => {
  it("lists the caller's own approvals, requests for changes, rejections and removals, newest first", async () => {
    const me = await createUser(h, { roles: ['Moderator'] });
    const mine = { ...other, moderator: me };
    const approved = await publishItem(h, mine, 'agent');
    const sentBack = await createDraft(h, other, 'mcp');
    await submit(h, other, 'mcp', sentBack.id).expect(200);
    await decide(h, mine, 'mcp', sentBack.id, 'request-changes', { comment: 'Add a readme.' }).expect(200);
    const rejected = await createDraft(h, other, 'soul');
    await submit(h, other, 'soul', rejected.id).expect(200);
    await decide(h, mine, 'soul', rejected.id, 'reject', { reason: 'Spam.' }).expect(200);
    await h.http
      .post(`/api/v1/moderation/agent/${approved.id}/remove`)
      .set(as(me))
      .send({ reason: 'Broken link.' })
      .expect(200);
    await publishItem(h, other, 'agent'); // another moderator's approval: not listed

    const res = await h.http.get('/api/v1/moderation/decisions').set(as(me));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 4, page: 1, hasNext: false });
    expect(res.body.items).toMatchObject([
      { action: 'remove', itemId: approved.id, itemType: 'agent', itemSlug: approved.slug, comment: 'Broken link.' },
      { action: 'reject', itemId: rejected.id, itemType: 'soul', version: '1.0.0', to: 'rejected', comment: 'Spam.' },
      { action: 'request_changes', itemId: sentBack.id, to: 'changes_requested', comment: 'Add a readme.' },
      { action: 'approve', itemId: approved.id, from: 'in_review', to: 'published', version: '1.0.0' },
    ]);
    const second = await h.http.get('/api/v1/moderation/decisions?pageSize=3&page=2').set(as(me));
    expect(second.body).toMatchObject({ total: 4, items: [{ action: 'approve' }] });
  });

  it('is Moderator/Admin only (403 for a publisher, 401 without a session) and checks its paging', async () => {
    expect((await h.http.get('/api/v1/moderation/decisions').set(as(other.publisher))).status).toBe(403);
    expect((await h.http.get('/api/v1/moderation/decisions')).status).toBe(401);
    const bad = await h.http.get('/api/v1/moderation/decisions?pageSize=0').set(as(a.moderator));
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text).title).toBe('Moderation.InvalidQuery');
  });
});
