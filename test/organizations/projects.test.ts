import { createHarness, type Harness } from '../support/harness.js';
import { bearer } from '../support/identity.js';
import {
  aMember,
  anOrganization,
  aProject,
  expectEnvelopeError,
  inOrg,
  type TestOrg,
} from '../support/org-fixtures.js';

let h: Harness;
let org: TestOrg;
beforeAll(async () => {
  h = await createHarness();
  org = await anOrganization(h);
});
afterAll(async () => h.close());

describe('POST /api/projects', () => {
  it('creates a project in the named organization, with the creator as Owner', async () => {
    const res = await h.http
      .post('/api/projects')
      .set(bearer(org.admin.session))
      .send({ name: 'Chatbot', description: 'Support bot', organizationId: org.id });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      code: 201,
      error: null,
      data: {
        id: expect.any(String),
        name: 'Chatbot',
        description: 'Support bot',
        organizationId: org.id,
        status: 'Active',
        createdAt: expect.any(String),
      },
    });
    const members = await h.http.get(`/api/projects/${res.body.data.id}/members`).set(bearer(org.admin.session));
    expect(members.body.data).toEqual([
      {
        userId: org.admin.accountId,
        email: org.admin.email,
        name: 'Org Admin',
        role: 'Owner',
        addedAt: expect.any(String),
      },
    ]);
  });

  it('takes the current organization when the body names none', async () => {
    const res = await h.http.post('/api/projects').set(bearer(org.admin.session)).send({ name: 'Implicit' });
    expect(res.body.data.organizationId).toBe(org.id);
  });

  it('answers 404 for an organization the caller is not in, and 400 for a bad body', async () => {
    const other = await anOrganization(h);
    const res = await h.http
      .post('/api/projects')
      .set(bearer(org.admin.session))
      .send({ name: 'X', organizationId: other.id });
    expectEnvelopeError(res, 404, 'Organization.NotFound');
    const bad = await h.http.post('/api/projects').set(bearer(org.admin.session)).send({ name: '' });
    expectEnvelopeError(bad, 400, 'Project.Invalid');
  });
});

describe('GET /api/projects and /api/projects/{id}', () => {
  it('lists the organization’s projects newest first, pages them, and filters mine=true', async () => {
    const own = await anOrganization(h);
    const member = await aMember(h, own);
    const a = await aProject(h, own, 'A');
    const b = await aProject(h, own, 'B');
    await h.http
      .post(`/api/projects/${a.id}/members`)
      .set(inOrg(own.admin, own.id))
      .send({ userId: member.accountId })
      .expect(201);

    const all = await h.http.get('/api/projects').set(inOrg(member, own.id));
    expect(all.body).toMatchObject({ total: 2, page: 1, size: 20 });
    expect(all.body.data.map((p: { id: string }) => p.id)).toEqual([b.id, a.id]);
    const paged = await h.http.get('/api/projects?size=1&page=2').set(inOrg(member, own.id));
    expect(paged.body.data.map((p: { id: string }) => p.id)).toEqual([a.id]);
    const mine = await h.http.get('/api/projects?mine=true').set(inOrg(member, own.id));
    expect(mine.body.data.map((p: { id: string }) => p.id)).toEqual([a.id]);

    const one = await h.http.get(`/api/projects/${b.id}`).set(bearer(member.session));
    expect(one.body.data).toMatchObject({ id: b.id, name: 'B', organizationId: own.id, status: 'Active' });
  });

  it('answers 404 Project.NotFound for an unknown or malformed id', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      expectEnvelopeError(
        await h.http.get(`/api/projects/${id}`).set(bearer(org.admin.session)),
        404,
        'Project.NotFound',
      );
    }
  });
});

describe('DELETE /api/projects/{id}', () => {
  it('deletes the project; its bound API keys stop working at once', async () => {
    const project = await aProject(h, org, 'Doomed');
    const key = await h.http
      .post('/api/v1/api-keys')
      .set(bearer(org.admin.session))
      .send({ name: 'bound', projectId: project.id });
    expect(key.status).toBe(200);
    expect(key.body.projectId).toBe(project.id);
    expect((await h.http.get('/api/v1/auth/me').set(bearer(key.body.token))).status).toBe(200);

    const res = await h.http.delete(`/api/projects/${project.id}`).set(bearer(org.admin.session));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: project.id, message: expect.any(String) });
    expectEnvelopeError(
      await h.http.get(`/api/projects/${project.id}`).set(bearer(org.admin.session)),
      404,
      'Project.NotFound',
    );
    expect((await h.http.get('/api/v1/auth/me').set(bearer(key.body.token))).status).toBe(401);
  });

  it('lets the project’s Owner delete it even as an organization Member', async () => {
    const member = await aMember(h, org);
    const project = await aProject(h, org, 'Owned');
    await h.http
      .post(`/api/projects/${project.id}/members`)
      .set(bearer(org.admin.session))
      .send({ userId: member.accountId, role: 'Owner' })
      .expect(201);
    expect((await h.http.delete(`/api/projects/${project.id}`).set(bearer(member.session))).status).toBe(200);
  });
});

describe('project members', () => {
  it('adds an organization member, changes their role, lists and removes them', async () => {
    const member = await aMember(h, org);
    const project = await aProject(h, org);
    const added = await h.http
      .post(`/api/projects/${project.id}/members`)
      .set(bearer(org.admin.session))
      .send({ userId: member.accountId, role: 'Member' });
    expect(added.status).toBe(201);
    expect(added.body.data).toMatchObject({ userId: member.accountId, role: 'Member', email: member.email });
    const changed = await h.http
      .post(`/api/projects/${project.id}/members`)
      .set(bearer(org.admin.session))
      .send({ userId: member.accountId, role: 'Owner' });
    expect(changed.status).toBe(200);
    expect(changed.body.data.role).toBe('Owner');
    const list = await h.http.get(`/api/projects/${project.id}/members`).set(bearer(member.session));
    expect(list.body).toMatchObject({ total: 2 });
    const removed = await h.http
      .delete(`/api/projects/${project.id}/members/${member.accountId}`)
      .set(bearer(org.admin.session));
    expect(removed.status).toBe(200);
    const again = await h.http
      .delete(`/api/projects/${project.id}/members/${member.accountId}`)
      .set(bearer(org.admin.session));
    expectEnvelopeError(again, 404, 'ProjectMember.NotFound');
  });

  it('refuses someone outside the organization and bad roles with 400', async () => {
    const project = await aProject(h, org);
    const stranger = await anOrganization(h);
    const outsider = await h.http
      .post(`/api/projects/${project.id}/members`)
      .set(bearer(org.admin.session))
      .send({ userId: stranger.admin.accountId });
    expectEnvelopeError(outsider, 400, 'ProjectMember.NotInOrganization');
    const badRole = await h.http
      .post(`/api/projects/${project.id}/members`)
      .set(bearer(org.admin.session))
      .send({ userId: org.admin.accountId, role: 'Admin' });
    expectEnvelopeError(badRole, 400, 'ProjectMember.Invalid');
  });
});

describe('API keys bound to projects (identity’s POST /api/v1/api-keys)', () => {
  it('binds a key for a project member or an org Admin, and answers 404 for anyone else', async () => {
    const project = await aProject(h, org);
    const member = await aMember(h, org);
    const outsider = await anOrganization(h);
    const denied = await h.http
      .post('/api/v1/api-keys')
      .set(bearer(member.session))
      .send({ name: 'k', projectId: project.id });
    expect(denied.status).toBe(404);
    expect(JSON.parse(denied.text).title).toBe('Project.NotFound');
    const stranger = await h.http
      .post('/api/v1/api-keys')
      .set(bearer(outsider.admin.session))
      .send({ name: 'k', projectId: project.id });
    expect(stranger.status).toBe(404);
    await h.http
      .post(`/api/projects/${project.id}/members`)
      .set(bearer(org.admin.session))
      .send({ userId: member.accountId });
    const allowed = await h.http
      .post('/api/v1/api-keys')
      .set(bearer(member.session))
      .send({ name: 'k', projectId: project.id });
    expect(allowed.status).toBe(200);
  });
});
