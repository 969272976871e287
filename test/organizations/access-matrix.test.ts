// SPEC section 4, route by route: a caller from another organization gets 404 for every id of this one; an
// organization Member (and a project Member) cannot change roles, projects, quotas, templates or invites, nor see or
// revoke the project's keys (403); any member may read the rest; no credentials is 401. Every answer is in the envelope.
import { seedSystemTemplates } from '../../shared/organizations/project-templates.js';
import { createHarness, type Harness } from '../support/harness.js';
import { bearer, type TestUser } from '../support/identity.js';
import {
  aMember,
  anInviteToken,
  anOrganization,
  aProject,
  expectEnvelopeError,
  type TestOrg,
} from '../support/org-fixtures.js';

let h: Harness;
let org: TestOrg;
let member: TestUser;
let projectMember: TestUser;
let outsider: TestOrg;
let projectId: string;
let inviteId: string;
let importId: string;
let templateId: string;
let keyId: string;

type Case = { name: string; method: 'get' | 'post' | 'put' | 'delete'; path: () => string; body?: () => object };

beforeAll(async () => {
  h = await createHarness();
  await seedSystemTemplates(h.ctx.db);
  org = await anOrganization(h);
  outsider = await anOrganization(h, undefined, 'Elsewhere');
  member = await aMember(h, org);
  projectMember = await aMember(h, org);
  projectId = (await aProject(h, org)).id;
  await h.http
    .post(`/api/projects/${projectId}/members`)
    .set(bearer(org.admin.session))
    .send({ userId: projectMember.accountId, role: 'Member' })
    .expect(201);
  await h.http
    .post(`/api/projects/${projectId}/quota`)
    .set(bearer(org.admin.session))
    .send({ dailyRequestLimit: 10 })
    .expect(200);
  const key = await h.http
    .post('/api/v1/api-keys')
    .set(bearer(org.admin.session))
    .send({ name: 'project key', projectId })
    .expect(200);
  keyId = key.body.id;
  inviteId = (await anInviteToken(h, org)).id;
  const imported = await h.http
    .post('/api/organization/bulk-invite')
    .set(bearer(org.admin.session))
    .set('x-organization-id', org.id)
    .attach('file', Buffer.from('email,name,role\nz@example.com,Z,Member\n'), 'p.csv');
  importId = imported.body.data.id;
  const templates = await h.http.get('/api/project-templates').set(bearer(org.admin.session));
  templateId = templates.body.data[0].id;
});
afterAll(async () => h.close());

const orgWrites: Case[] = [
  {
    name: 'change a member role',
    method: 'put',
    path: () => `/api/organization/members/${org.admin.accountId}/role`,
    body: () => ({ role: 'Member' }),
  },
  { name: 'remove a member', method: 'delete', path: () => `/api/organization/members/${org.admin.accountId}` },
  { name: 'create an invite token', method: 'post', path: () => '/api/organization/invite-tokens', body: () => ({}) },
  { name: 'list invite tokens', method: 'get', path: () => '/api/organization/invite-tokens' },
  { name: 'revoke an invite token', method: 'delete', path: () => `/api/organization/invite-tokens/${inviteId}` },
  { name: 'read a bulk import', method: 'get', path: () => `/api/organization/bulk-invite/${importId}` },
  { name: 'bulk invite', method: 'post', path: () => '/api/organization/bulk-invite' },
  {
    name: 'create a project',
    method: 'post',
    path: () => '/api/projects',
    body: () => ({ name: 'x', organizationId: org.id }),
  },
  {
    name: 'create a project from a template',
    method: 'post',
    path: () => '/api/projects/from-template',
    body: () => ({ name: 'x', templateId, organizationId: org.id }),
  },
  { name: 'create a template', method: 'post', path: () => '/api/project-templates', body: () => ({ name: 'x' }) },
];

const orgReads: Case[] = [
  { name: 'list members', method: 'get', path: () => '/api/organization/members' },
  { name: 'list projects', method: 'get', path: () => '/api/projects' },
  { name: 'list templates', method: 'get', path: () => '/api/project-templates' },
];

const projectWrites: Case[] = [
  { name: 'delete the project', method: 'delete', path: () => `/api/projects/${projectId}` },
  {
    name: 'add a project member',
    method: 'post',
    path: () => `/api/projects/${projectId}/members`,
    body: () => ({ userId: member.accountId }),
  },
  {
    name: 'remove a project member',
    method: 'delete',
    path: () => `/api/projects/${projectId}/members/${projectMember.accountId}`,
  },
  {
    name: 'configure the quota',
    method: 'post',
    path: () => `/api/projects/${projectId}/quota`,
    body: () => ({ dailyRequestLimit: 0 }),
  },
  // Other accounts' keys: managed (and so seen) by the project's Owner or an organization Admin only.
  { name: 'list every key of the project', method: 'get', path: () => `/api/projects/${projectId}/api-keys` },
  { name: 'revoke a key of the project', method: 'delete', path: () => `/api/projects/${projectId}/api-keys/${keyId}` },
];

const projectReads: Case[] = [
  { name: 'read the project', method: 'get', path: () => `/api/projects/${projectId}` },
  { name: 'list project members', method: 'get', path: () => `/api/projects/${projectId}/members` },
  { name: 'read the quota', method: 'get', path: () => `/api/projects/${projectId}/quota` },
  { name: 'read the quota usage', method: 'get', path: () => `/api/projects/${projectId}/quota-usage` },
];

function call(c: Case, user: TestUser | undefined, orgId: string) {
  let req = h.http[c.method](c.path()).set('x-organization-id', orgId);
  if (user) req = req.set(bearer(user.session));
  return c.body ? req.send(c.body()) : req;
}

describe.each([...orgWrites, ...projectWrites])('$name', (c) => {
  it('is 403 for an organization Member', async () => {
    const res = await call(c, member, org.id);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      data: null,
      code: 403,
      error: { code: expect.stringMatching(/\.Forbidden$/), message: expect.any(String) },
    });
  });
  it('is 404 for someone from another organization', async () => {
    const res = await call(c, outsider.admin, org.id);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toMatch(/^(Organization|Project)\.NotFound$/);
  });
  it('is 401 without credentials', async () => {
    expectEnvelopeError(await call(c, undefined, org.id), 401, 'Auth.Unauthorized');
  });
});

describe.each(projectWrites)('$name as a project Member (not Owner)', (c) => {
  it('is 403', async () => {
    expect((await call(c, projectMember, org.id)).status).toBe(403);
  });
});

describe.each([...orgReads, ...projectReads])('$name', (c) => {
  it('is allowed for an organization Member', async () => {
    const res = await call(c, member, org.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 200, error: null });
  });
  it('is 404 for someone from another organization', async () => {
    const res = await call(c, outsider.admin, org.id);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toMatch(/^(Organization|Project)\.NotFound$/);
  });
  it('is 401 without credentials', async () => {
    expectEnvelopeError(await call(c, undefined, org.id), 401, 'Auth.Unauthorized');
  });
});

it('gives the outsider the same 404 for their own organization’s header on this organization’s project', async () => {
  const res = await h.http
    .get(`/api/projects/${projectId}`)
    .set(bearer(outsider.admin.session))
    .set('x-organization-id', outsider.id);
  expectEnvelopeError(res, 404, 'Project.NotFound');
});
