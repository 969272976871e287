// Round 18 of the attacker review: per-id authorization. A Moderator on every platform Admin route, and a second
// Publisher on the first one's items, versions, bundles and drafts by id: each refused, and nothing changed.
import { eq } from 'drizzle-orm';
import type { Test } from 'supertest';
import { adminArea } from '../../api/routes/admin/admin.routes.js';
import { catalogItems, catalogVersions } from '../../shared/db/schema/index.js';
import { type Actors, createActors, createDraft, draftBody, publishItem, submit } from '../support/catalog-factory.js';
import { createHarness, type Harness } from '../support/harness.js';
import { bearer, createUser, type TestUser } from '../support/identity.js';

let h: Harness;
let a: Actors;
let rival: TestUser;
let rivalNamespace: string;

const call = (method: string, path: string): Test =>
  (h.http as unknown as Record<string, (p: string) => Test>)[method]!(path);
const some = '00000000-0000-4000-8000-000000000000';
const filled = (path: string) => path.replace(/:[A-Za-z]+/g, some);

beforeAll(async () => {
  h = await createHarness();
  a = await createActors(h);
  rival = await createUser(h, { roles: ['Publisher'], name: 'Rita Rival' });
  const ns = await h.http
    .post('/api/v1/publisher/publishers')
    .set(bearer(rival.session))
    .send({ slug: `rival-${rival.accountId.slice(0, 8)}`, name: 'Rival namespace' });
  expect(ns.status).toBe(200);
  rivalNamespace = ns.body.slug;
});
afterAll(async () => h.close());

describe('a Moderator on the platform Admin routes', () => {
  it('is refused 403 on every route under /api/v1/admin, by session and by API key', async () => {
    expect(adminArea.routes.length).toBeGreaterThan(8);
    for (const route of adminArea.routes) {
      for (const token of [a.moderator.session, a.moderator.apiKey]) {
        const res = await call(route.method, `/api/v1/admin${filled(route.path)}`)
          .set(bearer(token))
          .send({});
        expect([route.path, res.status]).toEqual([route.path, 403]);
      }
    }
    const verify = await h.http
      .put(`/api/v1/moderation/publishers/${rivalNamespace}/verified`)
      .set(bearer(a.moderator.session))
      .send({ verified: true });
    expect(verify.status).toBe(403);
    const dashboard = await h.http.post('/admin/session').set(bearer(a.moderator.session));
    expect(dashboard.status).toBe(403);
  });
});

describe("a Publisher on another Publisher's items by id", () => {
  it('gets 404 on every publisher route and changes nothing', async () => {
    const draft = await createDraft(h, a, 'mcp');
    const inReview = await createDraft(h, a, 'agent');
    await submit(h, a, 'agent', inReview.id).expect(200);
    const published = await publishItem(h, a, 'soul');
    const version = { version: '9.0.0', changelog: 'x', license: 'MIT' };
    const tries: [string, string, string, object][] = [
      ['get', 'mcp', draft.id, {}],
      ['put', 'mcp', `${draft.id}/draft`, { summary: 'taken over' }],
      ['post', 'mcp', `${draft.id}/versions`, version],
      ['post', 'mcp', `${draft.id}/submit-review`, {}],
      ['delete', 'mcp', draft.id, {}],
      ['post', 'agent', `${inReview.id}/withdraw`, {}],
      ['post', 'soul', `${published.id}/unpublish`, { reason: 'mine now' }],
      ['post', 'soul', `${published.id}/versions`, version],
    ];
    for (const [method, type, rest, payload] of tries) {
      const res = await call(method, `/api/v1/publisher/${type}/${rest}`).set(bearer(rival.session)).send(payload);
      expect([rest, res.status, res.body.title]).toEqual([
        rest,
        404,
        `${type[0]!.toUpperCase()}${type.slice(1)}.NotFound`,
      ]);
    }
    const statuses = await h.ctx.db
      .select({ id: catalogItems.id, status: catalogItems.status, summary: catalogItems.summary })
      .from(catalogItems)
      .where(eq(catalogItems.publisherId, (await namespaceId(a.namespace))!));
    expect(Object.fromEntries(statuses.map((s) => [s.id, s.status]))).toMatchObject({
      [draft.id]: 'draft',
      [inReview.id]: 'in_review',
      [published.id]: 'published',
    });
    expect(statuses.find((s) => s.id === draft.id)?.summary).toBe('A test item.');
    const versions = await h.ctx.db
      .select({ id: catalogVersions.id })
      .from(catalogVersions)
      .where(eq(catalogVersions.itemId, published.id));
    expect(versions).toHaveLength(1);
    // Its list of own items and a draft in the first Publisher's namespace.
    const mine = await h.http.get('/api/v1/publisher/mcp/mine').set(bearer(rival.session));
    expect(mine.status).toBe(200);
    expect(JSON.stringify(mine.body)).not.toContain(draft.id);
    const squat = await h.http
      .post('/api/v1/publisher/mcp/drafts')
      .set(bearer(rival.session))
      .send(draftBody(a, 'mcp'));
    expect(squat.status).toBe(404);
  });

  it("refuses a skill bundle upload or file read that pairs the rival's skill with the other's version", async () => {
    const theirs = await createDraft(h, a, 'skill');
    const ownDraft = await h.http
      .post('/api/v1/publisher/skill/drafts')
      .set(bearer(rival.session))
      .send(draftBody(a, 'skill', { namespace: rivalNamespace }));
    expect(ownDraft.status).toBe(200);
    const own = ownDraft.body as { id: string; versionId: string };
    const zip = Buffer.from('PK\u0005\u0006'.padEnd(22, '\u0000'), 'binary');
    for (const [skill, ver] of [
      [theirs.id, theirs.versionId],
      [own.id, theirs.versionId],
    ] as const) {
      const upload = await h.http
        .post(`/api/v1/publisher/skill/${skill}/versions/${ver}/package`)
        .set(bearer(rival.session))
        .attach('file', zip, { filename: 'b.zip', contentType: 'application/zip' });
      expect(upload.status).toBe(404);
      const read = await h.http
        .get(`/api/v1/publisher/skill/${skill}/versions/${ver}/files/SKILL.md`)
        .set(bearer(rival.session));
      expect(read.status).toBe(404);
    }
    const [row] = await h.ctx.db
      .select({ key: catalogVersions.bundleStorageKey })
      .from(catalogVersions)
      .where(eq(catalogVersions.id, theirs.versionId));
    expect(row?.key).toBeNull();
  });
});

describe('a Moderator on an item never submitted', () => {
  it('reads its draft detail (documented) but cannot decide on it or remove it', async () => {
    const draft = await createDraft(h, a, 'mcp');
    const m = bearer(a.moderator.session);
    expect((await h.http.get(`/api/v1/moderation/mcp/${draft.id}`).set(m)).status).toBe(200);
    expect((await h.http.get(`/api/v1/moderation/agent/${draft.id}`).set(m)).status).toBe(404);
    const bodies = { approve: {}, 'request-changes': { comment: 'x' }, reject: { reason: 'x' } };
    for (const [action, payload] of Object.entries(bodies)) {
      const res = await h.http.post(`/api/v1/moderation/mcp/${draft.id}/${action}`).set(m).send(payload);
      expect([action, res.status, res.body.title]).toEqual([action, 409, 'Mcp.NotInReview']);
    }
    const removed = await h.http.post(`/api/v1/moderation/mcp/${draft.id}/remove`).set(m).send({ reason: 'x' });
    expect([removed.status, removed.body.title]).toEqual([409, 'Mcp.NotPublished']);
    const report = await h.http.post(`/api/v1/moderation/reports/${some}/resolve`).set(m).send({});
    expect(report.status).toBe(404);
    const [row] = await h.ctx.db
      .select({ status: catalogItems.status })
      .from(catalogItems)
      .where(eq(catalogItems.id, draft.id));
    expect(row?.status).toBe('draft');
  });
});

async function namespaceId(slug: string) {
  const { publishers } = await import('../../shared/db/schema/index.js');
  const [row] = await h.ctx.db.select({ id: publishers.id }).from(publishers).where(eq(publishers.slug, slug));
  return row?.id;
}
