// Moderation is accountable: every decision, removal and report resolution writes one audit log row (read by platform
// Admins only), the review history names who acted (to a publisher, only itself), and the reports of one item are
// resolved together, each exactly once.
import { eq } from 'drizzle-orm';
import { auditLog } from '../../shared/db/schema/index.js';
import { type Actors, createActors, createDraft, decide, publishItem, submit } from '../support/catalog-factory.js';
import { createHarness, type Harness } from '../support/harness.js';
import { bearer, createUser, type TestUser } from '../support/identity.js';

let h: Harness;
let a: Actors;
let platformAdmin: TestUser;

const as = (user: TestUser) => bearer(user.session);
const rowsFor = (targetId: string) =>
  h.ctx.db.select().from(auditLog).where(eq(auditLog.targetId, targetId)).orderBy(auditLog.occurredAt);

beforeAll(async () => {
  h = await createHarness({ TRUST_PROXY: 'true' });
  a = await createActors(h);
  platformAdmin = await createUser(h, { roles: ['Admin'] });
});
afterAll(async () => h.close());

async function reportedThrice(type: 'mcp' | 'agent') {
  const item = await publishItem(h, a, type);
  const reporters = await Promise.all([createUser(h), createUser(h), createUser(h)]);
  const ids: string[] = [];
  for (const reporter of reporters) {
    const res = await h.http.post(`/api/v1/${type}/${item.slug}/report`).set(bearer(reporter.apiKey)).send({
      reason: 'Sends data away',
    });
    ids.push(res.body.id);
  }
  return { item, ids };
}

const openReportIds = async () =>
  (await h.http.get('/api/v1/moderation/reports?status=open&pageSize=100').set(as(a.moderator))).body.items.map(
    (r: { id: string }) => r.id,
  );

describe('the audit log records moderation', () => {
  it('writes one row per decision with the moderator, the item and the comment, read by platform Admins', async () => {
    const item = await publishItem(h, a, 'agent');
    const [approved] = await rowsFor(item.id);
    expect(approved).toMatchObject({
      action: 'catalog_item.approve',
      actorAccountId: a.moderator.accountId,
      actorCredentialKind: 'session',
      organizationId: null,
      targetType: 'catalog_item',
      before: { status: 'in_review' },
      after: { type: 'agent', slug: item.slug, status: 'published' },
    });

    const draft = await createDraft(h, a, 'soul');
    expect((await submit(h, a, 'soul', draft.id)).status).toBe(200);
    const sentBack = await h.http
      .post(`/api/v1/moderation/soul/${draft.id}/request-changes`)
      .set(as(a.moderator))
      .set('x-forwarded-for', '203.0.113.9')
      .send({ comment: 'Say what it is for.' });
    expect(sentBack.status).toBe(200);
    expect((await submit(h, a, 'soul', draft.id)).status).toBe(200);
    expect((await decide(h, a, 'soul', draft.id, 'reject', { reason: 'Spam.' })).status).toBe(200);
    const rows = await rowsFor(draft.id);
    expect(rows.map((r) => [r.action, (r.after as { comment: string }).comment])).toEqual([
      ['catalog_item.request_changes', 'Say what it is for.'],
      ['catalog_item.reject', 'Spam.'],
    ]);
    expect(rows[0]).toMatchObject({
      clientAddress: '203.0.113.9',
      correlationId: sentBack.headers['x-correlation-id'],
    });

    const read = await h.http.get('/api/v1/admin/audit-log?action=catalog_item.reject').set(as(platformAdmin));
    expect(read.status).toBe(200);
    expect(read.body.items.map((e: { target: { id: string } }) => e.target.id)).toContain(draft.id);
    expect((await h.http.get('/api/v1/admin/audit-log').set(as(a.moderator))).status).toBe(403);
  });

  it('writes no row for a refused decision', async () => {
    const draft = await createDraft(h, a, 'mcp');
    expect((await decide(h, a, 'mcp', draft.id, 'approve')).status).toBe(409);
    expect(await rowsFor(draft.id)).toHaveLength(0);
  });

  it('records a removal with its reason, and each report resolution', async () => {
    const { item, ids } = await reportedThrice('mcp');
    const resolved = await h.http
      .post(`/api/v1/moderation/reports/${ids[0]}/resolve`)
      .set(as(a.moderator))
      .send({ resolution: 'Looked at it.' });
    expect(resolved.status).toBe(200);
    expect(resolved.body).not.toHaveProperty('alsoResolved');
    expect(await rowsFor(ids[0]!)).toEqual([
      expect.objectContaining({
        action: 'report.resolve',
        actorAccountId: a.moderator.accountId,
        targetType: 'report',
        after: { itemId: item.id, status: 'resolved', resolution: 'Looked at it.' },
      }),
    ]);
    const removed = await h.http
      .post(`/api/v1/moderation/mcp/${item.id}/remove`)
      .set(as(a.moderator))
      .send({ reason: 'Exfiltrates keys.' });
    expect(removed.status).toBe(200);
    expect(removed.body).not.toHaveProperty('reportsResolved');
    const removal = (await rowsFor(item.id)).filter((r) => r.action === 'catalog_item.remove');
    expect(removal).toEqual([
      expect.objectContaining({
        actorAccountId: a.moderator.accountId,
        after: { type: 'mcp', slug: item.slug, status: 'draft', reason: 'Exfiltrates keys.' },
      }),
    ]);
    // Without resolveReports the other two stay open.
    expect(await openReportIds()).toEqual(expect.arrayContaining([ids[1], ids[2]]));
  });
});

describe('the review history names who acted', () => {
  it("gives a moderator every actor's name and a publisher only its own", async () => {
    const item = await publishItem(h, a, 'agent');
    const history = async (path: string, user: TestUser) =>
      (await h.http.get(path).set(as(user))).body.transitions.map((t: { action: string; actorName?: string }) => [
        t.action,
        t.actorName,
      ]);
    expect(await history(`/api/v1/moderation/agent/${item.id}`, a.moderator)).toEqual([
      ['create', 'Pat Publisher'],
      ['submit', 'Pat Publisher'],
      ['approve', 'Mo Moderator'],
    ]);
    expect(await history(`/api/v1/publisher/agent/${item.id}`, a.publisher)).toEqual([
      ['create', 'Pat Publisher'],
      ['submit', 'Pat Publisher'],
      ['approve', undefined],
    ]);
  });
});

describe('resolving the reports of one item together', () => {
  it('resolves the other open reports of the item with the same note, and says which', async () => {
    const { ids } = await reportedThrice('agent');
    const other = await reportedThrice('mcp');
    const res = await h.http
      .post(`/api/v1/moderation/reports/${ids[0]}/resolve`)
      .set(as(a.moderator))
      .send({ resolution: 'Removed.', sameItem: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: ids[0], status: 'resolved', resolution: 'Removed.' });
    expect([...res.body.alsoResolved].sort()).toEqual([ids[1], ids[2]].sort());
    const open = await openReportIds();
    for (const id of ids) expect(open).not.toContain(id);
    expect(open).toEqual(expect.arrayContaining(other.ids));
    for (const id of ids) expect((await rowsFor(id)).map((r) => r.action)).toEqual(['report.resolve']);
  });

  it('resolves the open reports with a removal, the reason as their resolution', async () => {
    const { item, ids } = await reportedThrice('mcp');
    const res = await h.http
      .post(`/api/v1/moderation/mcp/${item.id}/remove`)
      .set(as(a.moderator))
      .send({ reason: 'Exfiltrates keys.', resolveReports: true });
    expect(res.status).toBe(200);
    expect([...res.body.reportsResolved].sort()).toEqual([...ids].sort());
    const resolved = (await h.http.get('/api/v1/moderation/reports?status=resolved&pageSize=100').set(as(a.moderator)))
      .body.items;
    for (const id of ids) {
      expect(resolved.find((r: { id: string }) => r.id === id)).toMatchObject({ resolution: 'Exfiltrates keys.' });
    }
  });

  it('resolves each report once when resolutions race', async () => {
    const { item, ids } = await reportedThrice('agent');
    const results = await Promise.all([
      ...ids.map((id) =>
        h.http.post(`/api/v1/moderation/reports/${id}/resolve`).set(as(a.moderator)).send({ sameItem: true }),
      ),
      h.http.post(`/api/v1/moderation/agent/${item.id}/remove`).set(as(a.moderator)).send({
        reason: 'Gone.',
        resolveReports: true,
      }),
    ]);
    const claimed = results.flatMap((r) =>
      r.status !== 200 ? [] : (r.body.reportsResolved ?? [...(r.body.alsoResolved ?? []), r.body.id]),
    );
    expect([...claimed].sort()).toEqual([...ids].sort());
    for (const r of results) expect([200, 409]).toContain(r.status);
    for (const id of ids) expect(await rowsFor(id)).toHaveLength(1);
  });
});
