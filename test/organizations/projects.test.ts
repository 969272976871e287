import { seedSystemTemplates } from '../../shared/organizations/project-templates.js';
import { createHarness, type Harness } from '../support/harness.js';
import { bearer } from '../support/identity.js';
import { aMember, anOrganization, aProject, expectEnvelopeError, inOrg, type TestOrg } from './org-fixtures.js';

let h: Harness;
let org: TestOrg;
beforeAll(async () => {
  h = await createHarness();
  await seedSystemTemplates(h.ctx.db);
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

describe('templates', () => {
  it('lists the four built-in templates with their quotas and rate limits', async () => {
    const res = await h.http.get('/api/project-templates').set(bearer(org.admin.session));
    expect(res.status).toBe(200);
    const system = res.body.data.filter((t: { isSystem: boolean }) => t.isSystem);
    expect(system.map((t: { name: string }) => t.name)).toEqual(['Starter', 'Professional', 'Enterprise', 'Custom']);
    expect(system[0]).toEqual({
      id: expect.any(String),
      name: 'Starter',
      description: expect.any(String),
      category: 'Starter',
      tags: expect.any(Array),
      isSystem: true,
      isPublic: true,
      usageCount: expect.any(Number),
      icon: 'rocket',
      createdAt: expect.any(String),
      config: {
        quota: {
          dailyRequestLimit: 1000,
          dailyTokenLimit: 1_000_000,
          monthlyRequestLimit: 20_000,
          monthlyTokenLimit: 20_000_000,
        },
        rateLimit: { requestsPerMinuteLimit: 20 },
      },
    });
    expect(res.body.total).toBe(res.body.data.length);
  });

  it('creates custom templates; private ones are seen only in their organization, isPublic filters', async () => {
    const other = await anOrganization(h);
    const body = (name: string, isPublic: boolean) => ({
      name,
      description: 'Ours',
      category: 'Custom',
      tags: ['team'],
      isPublic,
      icon: 'star',
      config: { quota: { dailyRequestLimit: 5 }, rateLimit: { requestsPerMinuteLimit: 2 } },
    });
    const priv = await h.http
      .post('/api/project-templates')
      .set(inOrg(org.admin, org.id))
      .send(body('Private one', false));
    expect(priv.status).toBe(201);
    expect(priv.body.data).toMatchObject({
      name: 'Private one',
      isSystem: false,
      isPublic: false,
      usageCount: 0,
      organizationId: org.id,
    });
    const pub = await h.http
      .post('/api/project-templates')
      .set(inOrg(org.admin, org.id))
      .send(body('Public one', true));
    expect(pub.status).toBe(201);

    const names = async (user: TestOrg['admin'], orgId: string, q = '') =>
      (await h.http.get(`/api/project-templates${q}`).set(inOrg(user, orgId))).body.data.map(
        (t: { name: string }) => t.name,
      );
    expect(await names(org.admin, org.id)).toEqual(expect.arrayContaining(['Private one', 'Public one', 'Starter']));
    expect(await names(other.admin, other.id)).toEqual(expect.arrayContaining(['Public one', 'Starter']));
    expect(await names(other.admin, other.id)).not.toContain('Private one');
    expect(await names(org.admin, org.id, '?isPublic=false')).toEqual(['Private one']);
    expect(await names(org.admin, org.id, '?isPublic=true')).not.toContain('Private one');
    const badQuery = await h.http.get('/api/project-templates?isPublic=maybe').set(inOrg(org.admin, org.id));
    expectEnvelopeError(badQuery, 400, 'Template.InvalidQuery');
  });

  it.each([
    { name: '' },
    { name: 'x', category: 'Gold' },
    { name: 'x', config: { quota: { dailyRequestLimit: -1 } } },
    { name: 'x', config: { quota: { hourly: 3 } } },
  ])('refuses template %p with 400 Template.Invalid', async (body) => {
    const res = await h.http.post('/api/project-templates').set(inOrg(org.admin, org.id)).send(body);
    expectEnvelopeError(res, 400, 'Template.Invalid');
  });
});

describe('POST /api/projects/from-template', () => {
  it('creates the project with the template’s quota and rate limit and one API key shown once', async () => {
    const templates = await h.http.get('/api/project-templates').set(bearer(org.admin.session));
    const pro = templates.body.data.find((t: { name: string }) => t.name === 'Professional');
    const res = await h.http
      .post('/api/projects/from-template')
      .set(bearer(org.admin.session))
      .send({ templateId: pro.id, name: 'Prod app', organizationId: org.id });
    expect(res.status).toBe(201);
    const data = res.body.data;
    expect(data).toMatchObject({
      name: 'Prod app',
      organizationId: org.id,
      status: 'Active',
      templateId: pro.id,
      templateName: 'Professional',
      quota: {
        projectId: data.id,
        dailyRequestLimit: 10_000,
        dailyTokenLimit: 20_000_000,
        monthlyRequestLimit: 250_000,
        monthlyTokenLimit: 500_000_000,
        enforceQuota: true,
        customResetDay: 1,
      },
      rateLimit: { requestsPerMinuteLimit: 120 },
    });
    expect(data.apiKeys).toHaveLength(1);
    expect(data.apiKeys[0]).toMatchObject({
      projectId: data.id,
      status: 'enabled',
      token: expect.stringMatching(/^ock_/),
    });
    // The key works, is bound to the project, and its token is never shown again.
    const listed = await h.http.get('/api/v1/api-keys').set(bearer(data.apiKeys[0].token));
    expect(listed.status).toBe(200);
    const key = listed.body.find((k: { id: string }) => k.id === data.apiKeys[0].id);
    expect(key).toMatchObject({ projectId: data.id });
    expect(key.token).toBeUndefined();
    const quota = await h.http.get(`/api/projects/${data.id}/quota`).set(bearer(org.admin.session));
    expect(quota.body.data).toMatchObject({ dailyRequestLimit: 10_000, requestsPerMinuteLimit: 120 });

    const after = await h.http.get('/api/project-templates').set(bearer(org.admin.session));
    expect(after.body.data.find((t: { id: string }) => t.id === pro.id).usageCount).toBe(pro.usageCount + 1);
  });

  it('answers 404 Template.NotFound for another organization’s private template and creates nothing', async () => {
    const other = await anOrganization(h);
    const theirs = await h.http
      .post('/api/project-templates')
      .set(inOrg(other.admin, other.id))
      .send({ name: 'Secret', isPublic: false });
    const before = (await h.http.get('/api/projects').set(inOrg(org.admin, org.id))).body.total;
    const res = await h.http
      .post('/api/projects/from-template')
      .set(inOrg(org.admin, org.id))
      .send({ templateId: theirs.body.data.id, name: 'Nope' });
    expectEnvelopeError(res, 404, 'Template.NotFound');
    expect((await h.http.get('/api/projects').set(inOrg(org.admin, org.id))).body.total).toBe(before);
  });
});
