import { createHarness, type Harness } from '../support/harness.js';
import { bearer, createUser } from '../support/identity.js';
import { aMember, anOrganization, expectEnvelopeError, inOrg } from '../support/org-fixtures.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

describe('POST /api/organizations', () => {
  it('creates an organization with the caller as its Admin, in the envelope', async () => {
    const user = await createUser(h);
    const res = await h.http.post('/api/organizations').set(bearer(user.session)).send({ name: '  Acme Labs ' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      data: { id: expect.any(String), name: 'Acme Labs', role: 'Admin', createdAt: expect.any(String) },
      code: 201,
      error: null,
    });
    const members = await h.http.get('/api/organization/members').set(inOrg(user, res.body.data.id));
    expect(members.body.data).toEqual([expect.objectContaining({ userId: user.accountId, role: 'Admin' })]);
  });

  it('works with an API key as well as a console session', async () => {
    const user = await createUser(h);
    const res = await h.http.post('/api/organizations').set(bearer(user.apiKey)).send({ name: 'Keyed' });
    expect(res.status).toBe(201);
  });

  it.each([{}, { name: '' }, { name: 'x'.repeat(101) }, { name: 42 }])(
    'refuses %p with 400 Organization.Invalid',
    async (body) => {
      const user = await createUser(h);
      const res = await h.http.post('/api/organizations').set(bearer(user.session)).send(body);
      expectEnvelopeError(res, 400, 'Organization.Invalid');
    },
  );

  it('answers 401 in the envelope without credentials', async () => {
    const res = await h.http.post('/api/organizations').send({ name: 'Nope' });
    expectEnvelopeError(res, 401, 'Auth.Unauthorized');
  });

  it('answers invalid JSON with 400 in the envelope', async () => {
    const user = await createUser(h);
    const res = await h.http
      .post('/api/organizations')
      .set(bearer(user.session))
      .set('content-type', 'application/json')
      .send('{"name":');
    expectEnvelopeError(res, 400, 'Request.InvalidJson');
  });
});

describe('GET /api/organizations', () => {
  it('lists only the caller’s organizations, with the caller’s role in each', async () => {
    const a = await anOrganization(h, undefined, 'First');
    const b = await anOrganization(h, undefined, 'Second');
    const member = await aMember(h, a);
    await anOrganization(h, member, 'Own');
    const res = await h.http.get('/api/organizations').set(bearer(member.session));
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(2);
    const roles = Object.fromEntries(res.body.data.map((o: { name: string; role: string }) => [o.name, o.role]));
    expect(roles).toEqual({ First: 'Member', Own: 'Admin' });
    expect(res.body.data.map((o: { id: string }) => o.id)).not.toContain(b.id);
  });
});

describe('the current organization rule', () => {
  it('uses the only organization when X-Organization-Id is absent', async () => {
    const org = await anOrganization(h);
    const res = await h.http.get('/api/organization/members').set(bearer(org.admin.session));
    expect(res.status).toBe(200);
    expect(res.body.data[0].userId).toBe(org.admin.accountId);
  });

  it('answers 400 Organization.NotSelected for a caller with no organization', async () => {
    const user = await createUser(h);
    const res = await h.http.get('/api/organization/members').set(bearer(user.session));
    expectEnvelopeError(res, 400, 'Organization.NotSelected');
  });

  it('answers 400 Organization.NotSelected for a caller with several and no header, and follows the header', async () => {
    const first = await anOrganization(h);
    const second = await anOrganization(h, first.admin, 'Other');
    const without = await h.http.get('/api/organization/members').set(bearer(first.admin.session));
    expectEnvelopeError(without, 400, 'Organization.NotSelected');
    expect(without.body.error.message).toMatch(/X-Organization-Id header \(GET \/api\/organizations lists their ids\)/);
    const withHeader = await h.http.get('/api/organization/members').set(inOrg(first.admin, second.id));
    expect(withHeader.status).toBe(200);
  });

  it('answers 404 when the header names an organization the caller is not in, or no organization at all', async () => {
    const mine = await anOrganization(h);
    const theirs = await anOrganization(h);
    for (const id of [theirs.id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const res = await h.http.get('/api/organization/members').set(inOrg(mine.admin, id));
      expectEnvelopeError(res, 404, 'Organization.NotFound');
    }
  });

  it('answers unknown organization routes with 404 in the envelope', async () => {
    const org = await anOrganization(h);
    const res = await h.http.get('/api/organization/nothing-here').set(inOrg(org.admin, org.id));
    expectEnvelopeError(res, 404, 'Route.NotFound');
  });
});
