// GET /api/organization/audit-log (organization Admins, envelope) and GET /api/v1/admin/audit-log (platform Admins,
// problem+json family): success, filters, paging, bad input, authorization and not-found.
import { randomUUID } from 'node:crypto';
import { createHarness, type Harness } from '../support/harness.js';
import { bearer, createUser, type TestUser } from '../support/identity.js';
import {
  aMember,
  anInviteToken,
  anOrganization,
  expectEnvelopeError,
  inOrg,
  type TestOrg,
} from '../support/org-fixtures.js';

let h: Harness;
let platformAdmin: TestUser;
let org: TestOrg;
let other: TestOrg;
let member: TestUser;
let startedAt: string;

const revokeAnInvite = async (o: TestOrg) => {
  const invite = await anInviteToken(h, o);
  const res = await h.http.delete(`/api/organization/invite-tokens/${invite.id}`).set(inOrg(o.admin, o.id));
  expect(res.status).toBe(200);
  return invite.id;
};

beforeAll(async () => {
  h = await createHarness();
  platformAdmin = await createUser(h, { roles: ['Admin'] });
  startedAt = new Date(Date.now() - 1000).toISOString();
  org = await anOrganization(h);
  other = await anOrganization(h);
  member = await aMember(h, org);
  // In `org`: the invite the member joined with and the join, three invites issued and revoked, then one role change (newest).
  // In `other`: one invite issued and revoked.
  for (let i = 0; i < 3; i++) await revokeAnInvite(org);
  await h.http
    .put(`/api/organization/members/${member.accountId}/role`)
    .set(inOrg(org.admin, org.id))
    .send({ role: 'Member' });
  await revokeAnInvite(other);
});
afterAll(async () => h.close());

const orgLog = (query = '', who: TestUser = org.admin, orgId = org.id) =>
  h.http.get(`/api/organization/audit-log${query}`).set(inOrg(who, orgId));
const adminLog = (query = '', token = platformAdmin.session) =>
  h.http.get(`/api/v1/admin/audit-log${query}`).set(bearer(token));

describe('GET /api/organization/audit-log', () => {
  it("lists the organization's own entries, newest first, in the envelope with paging figures", async () => {
    const res = await orgLog();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 200, error: null, total: 9, page: 1, size: 20, totalExact: true });
    expect(res.body.data.map((e: { action: string }) => e.action)).toEqual([
      'member.role.set',
      ...Array(3).fill(['invite_token.revoke', 'invite_token.issue']).flat(),
      'member.join',
      'invite_token.issue',
    ]);
    expect(res.body.data[0]).toEqual({
      id: expect.any(String),
      occurredAt: expect.any(String),
      action: 'member.role.set',
      organizationId: org.id,
      actor: { accountId: org.admin.accountId, credential: { kind: 'session', id: expect.any(String) } },
      target: { type: 'account', id: member.accountId },
      before: { role: 'Member' },
      after: { role: 'Member' },
      clientAddress: expect.any(String),
      correlationId: expect.any(String),
    });
  });

  it('filters by action and by time range', async () => {
    const revocations = await orgLog('?action=invite_token.revoke');
    expect(revocations.body.total).toBe(3);
    expect(revocations.body.data.every((e: { action: string }) => e.action === 'invite_token.revoke')).toBe(true);
    expect((await orgLog(`?from=${encodeURIComponent(startedAt)}`)).body.total).toBe(9);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await orgLog(`?from=${encodeURIComponent(future)}`)).body.data).toEqual([]);
    expect((await orgLog(`?to=${encodeURIComponent(startedAt)}`)).body.total).toBe(0);
    expect((await orgLog('?from=2000-01-01&to=2999-01-01')).body.total).toBe(9);
  });

  it('pages without gaps or repeats', async () => {
    const all = (await orgLog('?size=100')).body.data.map((e: { id: string }) => e.id);
    const pages = [];
    for (let page = 1; page <= 5; page++) {
      const res = await orgLog(`?size=3&page=${page}`);
      expect(res.body).toMatchObject({ total: 9, page, size: 3 });
      pages.push(...res.body.data.map((e: { id: string }) => e.id));
    }
    expect(pages).toEqual(all);
  });

  it.each([
    ['?action=wallet.steal'],
    ['?from=yesterday'],
    ['?from=2026-11-02&to=2026-11-01'],
    ['?size=0'],
    ['?size=101'],
    ['?page=-1'],
  ])('answers 400 AuditLog.InvalidQuery for %s', async (query) => {
    expectEnvelopeError(await orgLog(query), 400, 'AuditLog.InvalidQuery');
  });

  it('answers 401 without credentials, 403 to a Member, 404 to a stranger', async () => {
    expectEnvelopeError(await h.http.get('/api/organization/audit-log'), 401, 'Auth.Unauthorized');
    expectEnvelopeError(await orgLog('', member), 403, 'Organization.Forbidden');
    const stranger = await createUser(h);
    expectEnvelopeError(await orgLog('', stranger), 404, 'Organization.NotFound');
    expectEnvelopeError(await orgLog('', org.admin, randomUUID()), 404, 'Organization.NotFound');
  });
});

describe("an organization's copy of actors outside it (review of 2026-11-27, second round)", () => {
  it("shows a platform Admin's recharge without its client address or credential id, labelled; the platform log keeps both", async () => {
    const paid = await anOrganization(h);
    const res = await h.http
      .post('/api/organization/wallet/recharge')
      .set(inOrg(platformAdmin, paid.id))
      .send({ amount: 5, description: 'goodwill' });
    expect(res.status).toBe(201);
    await revokeAnInvite(paid);

    const [mine, issued, recharged] = (await orgLog('', paid.admin, paid.id)).body.data;
    expect(issued.action).toBe('invite_token.issue');
    expect(recharged).toEqual({
      id: expect.any(String),
      occurredAt: expect.any(String),
      action: 'wallet.recharge',
      organizationId: paid.id,
      actor: { accountId: platformAdmin.accountId, credential: { kind: 'session' }, label: 'platform administrator' },
      target: { type: 'wallet', id: paid.id },
      before: { balance: '0' },
      after: expect.objectContaining({ balance: '5', amount: '5' }),
      correlationId: expect.any(String),
    });
    // The organization's own Admin, a member, is shown in full.
    expect(mine).toMatchObject({
      action: 'invite_token.revoke',
      actor: { accountId: paid.admin.accountId, credential: { kind: 'session', id: expect.any(String) } },
      clientAddress: expect.any(String),
    });
    expect(mine.actor.label).toBeUndefined();

    const platform = await adminLog(`?organizationId=${paid.id}&action=wallet.recharge`);
    expect(platform.body.items[0]).toMatchObject({
      actor: { accountId: platformAdmin.accountId, credential: { kind: 'session', id: expect.any(String) } },
      clientAddress: expect.any(String),
    });
    expect(platform.body.items[0].actor.label).toBeUndefined();
  });

  it('leaves out the client address and credential id of an actor removed from the organization since', async () => {
    const team = await anOrganization(h);
    const secondAdmin = await aMember(h, team, 'Admin');
    const invite = await anInviteToken(h, team);
    const revoked = await h.http
      .delete(`/api/organization/invite-tokens/${invite.id}`)
      .set(inOrg(secondAdmin, team.id));
    expect(revoked.status).toBe(200);
    const before = (await orgLog('?action=invite_token.revoke', team.admin, team.id)).body.data[0];
    expect(before).toMatchObject({
      clientAddress: expect.any(String),
      actor: { credential: { id: expect.any(String) } },
    });

    const removed = await h.http
      .delete(`/api/organization/members/${secondAdmin.accountId}`)
      .set(inOrg(team.admin, team.id));
    expect(removed.status).toBe(200);
    const after = (await orgLog('?action=invite_token.revoke', team.admin, team.id)).body.data[0];
    expect(after.actor).toEqual({
      accountId: secondAdmin.accountId,
      credential: { kind: 'session' },
      label: 'not a member',
    });
    expect(after.clientAddress).toBeUndefined();
  });
});

describe('GET /api/v1/admin/audit-log', () => {
  it('lists every organization’s entries to a platform Admin, and one organization’s on request', async () => {
    const all = await adminLog(`?from=${encodeURIComponent(startedAt)}&pageSize=100`);
    expect(all.status).toBe(200);
    const orgs = new Set(all.body.items.map((e: { organizationId?: string }) => e.organizationId));
    expect(orgs.has(org.id) && orgs.has(other.id)).toBe(true);
    const one = await adminLog(`?organizationId=${other.id}`);
    expect(one.body).toMatchObject({ page: 1, pageSize: 20, total: 2, hasNext: false });
    expect(one.body.items[0]).toMatchObject({ action: 'invite_token.revoke', organizationId: other.id });
  });

  it('filters by action and pages', async () => {
    const first = await adminLog(`?organizationId=${org.id}&action=invite_token.revoke&pageSize=2`);
    expect(first.body).toMatchObject({ page: 1, pageSize: 2, total: 3, hasNext: true });
    const second = await adminLog(`?organizationId=${org.id}&action=invite_token.revoke&pageSize=2&page=2`);
    expect(second.body).toMatchObject({ page: 2, total: 3, hasNext: false });
    expect(second.body.items).toHaveLength(1);
    const ids = [...first.body.items, ...second.body.items].map((e: { id: string }) => e.id);
    expect(new Set(ids).size).toBe(3);
  });

  it('answers an empty page for an organization with no entries (filters never reveal existence)', async () => {
    const res = await adminLog(`?organizationId=${randomUUID()}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ items: [], page: 1, pageSize: 20, total: 0, hasNext: false, totalExact: true });
  });

  it.each([['?organizationId=acme'], ['?pageSize=101'], ['?action=nope'], ['?to=2026-13-01']])(
    'answers 400 problem+json for %s',
    async (query) => {
      const res = await adminLog(query);
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(JSON.parse(res.text).title).toBe('AuditLog.InvalidQuery');
    },
  );

  it('answers 401 without credentials, 403 to an account without the Admin role, 404 under it', async () => {
    expect((await h.http.get('/api/v1/admin/audit-log')).status).toBe(401);
    const res = await adminLog('', org.admin.session);
    expect(res.status).toBe(403);
    expect(JSON.parse(res.text).title).toBe('Auth.Forbidden');
    const missing = await adminLog('/nothing-here');
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.text).title).toBe('Route.NotFound');
  });
});
