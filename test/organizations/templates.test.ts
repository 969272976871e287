import { seedSystemTemplates } from '../../shared/organizations/project-templates.js';
import { createHarness, type Harness } from '../support/harness.js';
import { bearer } from '../support/identity.js';
import { aMember, anOrganization, expectEnvelopeError, inOrg, type TestOrg } from '../support/org-fixtures.js';

let h: Harness;
let org: TestOrg;
beforeAll(async () => {
  h = await createHarness();
  await seedSystemTemplates(h.ctx.db);
  org = await anOrganization(h);
});
afterAll(async () => h.close());

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

describe('DELETE /api/project-templates/{id}', () => {
  const create = (who: TestOrg, name: string, isPublic = true) =>
    h.http.post('/api/project-templates').set(inOrg(who.admin, who.id)).send({ name, isPublic });
  const remove = (who: { session: string }, orgId: string, id: string) =>
    h.http.delete(`/api/project-templates/${id}`).set(inOrg(who, orgId));

  it('deletes one of the organization’s own templates; projects made from it keep their quota', async () => {
    const made = await create(org, 'Short-lived', true);
    const project = await h.http
      .post('/api/projects/from-template')
      .set(inOrg(org.admin, org.id))
      .send({ templateId: made.body.data.id, name: 'From short-lived' });
    expect(project.status).toBe(201);

    const res = await remove(org.admin, org.id, made.body.data.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 200, error: null, data: { id: made.body.data.id, name: 'Short-lived' } });
    const list = await h.http.get('/api/project-templates').set(inOrg(org.admin, org.id));
    expect(list.body.data.map((t: { id: string }) => t.id)).not.toContain(made.body.data.id);
    const quota = await h.http.get(`/api/projects/${project.body.data.id}/quota`).set(inOrg(org.admin, org.id));
    expect(quota.status).toBe(200);
    expectEnvelopeError(await remove(org.admin, org.id, made.body.data.id), 404, 'Template.NotFound');
  });

  it('answers 404 for a built-in template, another organization’s public one and a malformed id; 403 to a Member', async () => {
    const templates = await h.http.get('/api/project-templates').set(inOrg(org.admin, org.id));
    const starter = templates.body.data.find((t: { name: string }) => t.name === 'Starter');
    expectEnvelopeError(await remove(org.admin, org.id, starter.id), 404, 'Template.NotFound');
    const other = await anOrganization(h, undefined, 'Other publisher');
    const theirs = await create(other, 'Theirs, public');
    expectEnvelopeError(await remove(org.admin, org.id, theirs.body.data.id), 404, 'Template.NotFound');
    expectEnvelopeError(await remove(org.admin, org.id, 'not-a-uuid'), 404, 'Template.NotFound');
    const member = await aMember(h, other, 'Member');
    expectEnvelopeError(await remove(member, other.id, theirs.body.data.id), 403, 'Organization.Forbidden');
    expectEnvelopeError(await h.http.delete(`/api/project-templates/${theirs.body.data.id}`), 401, 'Auth.Unauthorized');
    const still = await h.http.get('/api/project-templates').set(inOrg(other.admin, other.id));
    expect(still.body.data.map((t: { id: string }) => t.id)).toContain(theirs.body.data.id);
  });
});
