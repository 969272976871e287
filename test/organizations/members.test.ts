import { createHarness, type Harness } from '../support/harness.js';
import { bearer, uniqueEmail } from '../support/identity.js';
import {
  aMember,
  anOrganization,
  aProject,
  expectEnvelopeError,
  inOrg,
  membersJoined,
} from '../support/org-fixtures.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

describe('GET /api/organization/members', () => {
  it('pages the members with total, page and size; any member may read', async () => {
    const org = await anOrganization(h);
    const members = [await aMember(h, org), await aMember(h, org), await aMember(h, org)] as const;
    const first = await h.http.get('/api/organization/members?page=1&size=2').set(inOrg(members[0], org.id));
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ code: 200, error: null, total: 4, page: 1, size: 2 });
    expect(first.body.data).toHaveLength(2);
    expect(first.body.data[0]).toEqual({
      userId: org.admin.accountId,
      email: org.admin.email,
      name: 'Org Admin',
      role: 'Admin',
      joinedAt: expect.any(String),
      status: 'Active',
    });
    const second = await h.http.get('/api/organization/members?page=2&size=2').set(inOrg(members[0], org.id));
    expect(second.body.data.map((m: { userId: string }) => m.userId)).toEqual(members.slice(1).map((m) => m.accountId));
  });

  it('defaults to page 1 and size 20', async () => {
    const org = await anOrganization(h);
    const res = await h.http.get('/api/organization/members').set(inOrg(org.admin, org.id));
    expect(res.body).toMatchObject({ page: 1, size: 20, total: 1 });
  });

  it.each(['size=101', 'size=0', 'page=0', 'page=x'])('refuses %s with 400', async (q) => {
    const org = await anOrganization(h);
    const res = await h.http.get(`/api/organization/members?${q}`).set(inOrg(org.admin, org.id));
    expectEnvelopeError(res, 400, 'Member.InvalidQuery');
  });
});

describe('GET /api/organization/members?q=', () => {
  type Listed = { body: { data: { userId: string; name: string }[]; total: number } };
  const names = (res: Listed) => res.body.data.map((m) => m.name).sort();

  it('finds any member by part of a name or an e-mail address, case-insensitively, beyond the first 100', async () => {
    const org = await anOrganization(h, undefined, 'Big Harbour');
    const crew = Array.from({ length: 104 }, (_, i) => ({ name: `Crew ${i + 1}` }));
    const last = { name: 'Zelda Quayside', email: uniqueEmail('harbour-master') };
    const joined = await membersJoined(h, org, [...crew, last]);
    const zelda = joined.at(-1)?.accountId;
    const firstPage = await h.http.get('/api/organization/members?size=100').set(inOrg(org.admin, org.id));
    expect(firstPage.body.total).toBe(106);
    expect(firstPage.body.data.map((m: { userId: string }) => m.userId)).not.toContain(zelda);

    for (const q of ['zELDA', 'quaySIDE', 'HARBOUR-master', ' Zelda Q ']) {
      const found = await h.http.get('/api/organization/members').query({ q }).set(inOrg(org.admin, org.id));
      expect(found.status).toBe(200);
      expect(found.body).toMatchObject({ total: 1, page: 1, size: 20, code: 200, error: null });
      expect(found.body.data).toEqual([expect.objectContaining({ userId: zelda, email: last.email, role: 'Member' })]);
    }
    // Paged like the whole list: "Crew 1", "Crew 10"–"Crew 19", "Crew 100"–"Crew 104" are 16.
    const crew1 = await h.http
      .get('/api/organization/members')
      .query({ q: 'crew 1', size: 10, page: 2 })
      .set(inOrg(org.admin, org.id));
    expect(crew1.body).toMatchObject({ total: 16, page: 2, size: 10 });
    expect(crew1.body.data).toHaveLength(6);
    const none = await h.http.get('/api/organization/members?q=nobody').set(inOrg(org.admin, org.id));
    expect(none.body).toMatchObject({ data: [], total: 0 });
  });

  it('takes %, _ and \\ literally, and a blank q as no filter', async () => {
    const org = await anOrganization(h, undefined, 'Literal Yard');
    await membersJoined(h, org, [
      { name: '100% sure' },
      { name: 'a_b' },
      { name: 'axb' },
      { name: 'back\\slash' },
      { name: 'Plain' },
    ]);
    const search = (q: string) => h.http.get('/api/organization/members').query({ q }).set(inOrg(org.admin, org.id));
    expect(names(await search('%'))).toEqual(['100% sure']);
    expect(names(await search('a_b'))).toEqual(['a_b']);
    expect(names(await search('_'))).toEqual(['a_b']);
    expect(names(await search('\\'))).toEqual(['back\\slash']);
    expect((await search('   ')).body.total).toBe(6);
    expect((await search('')).body.total).toBe(6);
  });

  it('searches only the current organization', async () => {
    const mine = await anOrganization(h, undefined, 'Mine');
    const theirs = await anOrganization(h, undefined, 'Theirs');
    await membersJoined(h, theirs, [{ name: 'Elsewhere Person' }]);
    const res = await h.http.get('/api/organization/members?q=elsewhere').set(inOrg(mine.admin, mine.id));
    expect(res.body).toMatchObject({ data: [], total: 0 });
  });

  it.each([
    ['a q of 255 characters', `q=${'x'.repeat(255)}`, /^q: /],
    ['two q', 'q=a&q=b', /^q: /],
  ])('refuses %s with 400 Member.InvalidQuery naming q', async (_, query, message) => {
    const org = await anOrganization(h);
    const res = await h.http.get(`/api/organization/members?${query}`).set(inOrg(org.admin, org.id));
    expectEnvelopeError(res, 400, 'Member.InvalidQuery');
    expect(res.body.error.message).toMatch(message);
  });

  it('is in the OpenAPI document as an optional query parameter of at most 254 characters', async () => {
    const doc = await h.http.get('/openapi.json');
    const parameters = doc.body.paths['/api/organization/members'].get.parameters as { name: string }[];
    expect(parameters.find((p) => p.name === 'q')).toMatchObject({
      in: 'query',
      required: false,
      schema: { type: 'string', maxLength: 254 },
      description: expect.stringContaining('case-insensitive'),
    });
  });

  it('takes a q of 254 characters', async () => {
    const org = await anOrganization(h);
    const res = await h.http.get(`/api/organization/members?q=${'x'.repeat(254)}`).set(inOrg(org.admin, org.id));
    expect(res.body).toMatchObject({ code: 200, total: 0 });
  });
});

describe('PUT /api/organization/members/{userId}/role', () => {
  it('lets an Admin promote a Member and answers {userId, role}', async () => {
    const org = await anOrganization(h);
    const member = await aMember(h, org);
    const res = await h.http
      .put(`/api/organization/members/${member.accountId}/role`)
      .set(inOrg(org.admin, org.id))
      .send({ role: 'Admin' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { userId: member.accountId, role: 'Admin' }, code: 200, error: null });
    // The promoted member can now do Admin things.
    const invite = await h.http.post('/api/organization/invite-tokens').set(inOrg(member, org.id)).send({});
    expect(invite.status).toBe(201);
  });

  it('answers 409 Member.LastAdmin when the last Admin would be demoted', async () => {
    const org = await anOrganization(h);
    const res = await h.http
      .put(`/api/organization/members/${org.admin.accountId}/role`)
      .set(inOrg(org.admin, org.id))
      .send({ role: 'Member' });
    expectEnvelopeError(res, 409, 'Member.LastAdmin');
  });

  it('lets one of two Admins step down, but two Admins demoting each other at once leave one Admin', async () => {
    const org = await anOrganization(h);
    const second = await aMember(h, org, 'Admin');
    const [a, b] = await Promise.all([
      h.http
        .put(`/api/organization/members/${second.accountId}/role`)
        .set(inOrg(org.admin, org.id))
        .send({ role: 'Member' }),
      h.http
        .put(`/api/organization/members/${org.admin.accountId}/role`)
        .set(inOrg(second, org.id))
        .send({ role: 'Member' }),
    ]);
    // One wins; the other is refused as the last Admin (409) or, once the winner's change committed first,
    // because its caller is no longer an Admin (403). Either way one Admin is left.
    const [won, lost] = [a.status, b.status].sort();
    expect(won).toBe(200);
    expect([403, 409]).toContain(lost);
    const list = await h.http
      .get('/api/organization/members')
      .set(bearer(org.admin.session))
      .set('x-organization-id', org.id);
    expect(list.body.data.filter((m: { role: string }) => m.role === 'Admin')).toHaveLength(1);
  });

  it.each([{ role: 'Owner' }, { role: 'admin' }, {}])('refuses %p with 400 Member.Invalid', async (body) => {
    const org = await anOrganization(h);
    const member = await aMember(h, org);
    const res = await h.http
      .put(`/api/organization/members/${member.accountId}/role`)
      .set(inOrg(org.admin, org.id))
      .send(body);
    expectEnvelopeError(res, 400, 'Member.Invalid');
  });

  it('answers 404 Member.NotFound for someone who is not a member', async () => {
    const org = await anOrganization(h);
    const stranger = await anOrganization(h);
    for (const id of [stranger.admin.accountId, 'nope']) {
      const res = await h.http
        .put(`/api/organization/members/${id}/role`)
        .set(inOrg(org.admin, org.id))
        .send({ role: 'Admin' });
      expectEnvelopeError(res, 404, 'Member.NotFound');
    }
  });
});

describe('DELETE /api/organization/members/{userId}', () => {
  it('removes a member, their project memberships and their keys bound to the organization’s projects', async () => {
    const org = await anOrganization(h);
    const member = await aMember(h, org);
    const project = await aProject(h, org);
    await h.http
      .post(`/api/projects/${project.id}/members`)
      .set(inOrg(org.admin, org.id))
      .send({ userId: member.accountId, role: 'Member' })
      .expect(201);
    const key = await h.http
      .post('/api/v1/api-keys')
      .set(bearer(member.session))
      .send({ name: 'p', projectId: project.id });
    expect(key.status).toBe(200);
    expect((await h.http.get('/api/v1/api-keys').set(bearer(key.body.token))).status).toBe(200);

    const res = await h.http.delete(`/api/organization/members/${member.accountId}`).set(inOrg(org.admin, org.id));
    expect(res.status).toBe(200);
    expect(res.body.data.message).toEqual(expect.any(String));

    const after = await h.http.get('/api/organization/members').set(inOrg(org.admin, org.id));
    expect(after.body.total).toBe(1);
    const projectMembers = await h.http.get(`/api/projects/${project.id}/members`).set(inOrg(org.admin, org.id));
    expect(projectMembers.body.data.map((m: { userId: string }) => m.userId)).toEqual([org.admin.accountId]);
    expect((await h.http.get('/api/v1/api-keys').set(bearer(key.body.token))).status).toBe(401);
    // The removed member's other credentials still work, but the organization is gone for them.
    expectEnvelopeError(
      await h.http.get('/api/organization/members').set(inOrg(member, org.id)),
      404,
      'Organization.NotFound',
    );
  });

  it('lets a member leave on their own, and refuses the last Admin with 409', async () => {
    const org = await anOrganization(h);
    const member = await aMember(h, org);
    expect(
      (await h.http.delete(`/api/organization/members/${member.accountId}`).set(inOrg(member, org.id))).status,
    ).toBe(200);
    const last = await h.http.delete(`/api/organization/members/${org.admin.accountId}`).set(inOrg(org.admin, org.id));
    expectEnvelopeError(last, 409, 'Member.LastAdmin');
  });

  it('answers 404 Member.NotFound for a non-member', async () => {
    const org = await anOrganization(h);
    const other = await anOrganization(h);
    const res = await h.http.delete(`/api/organization/members/${other.admin.accountId}`).set(inOrg(org.admin, org.id));
    expectEnvelopeError(res, 404, 'Member.NotFound');
  });
});
