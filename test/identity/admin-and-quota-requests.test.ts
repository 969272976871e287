import { createHarness, type Harness } from '../support/harness.js';
import { bearer, createUser, signInAdmin, type TestUser, uniqueEmail } from '../support/identity.js';

let h: Harness;
let admin: { accountId: string; token: string };
let user: TestUser;

beforeAll(async () => {
  h = await createHarness();
  admin = await signInAdmin(h);
  user = await createUser(h, { dailyQuota: 1000 });
});
afterAll(async () => h.close());

const problem = (res: { text: string }) => JSON.parse(res.text);

describe('quota requests', () => {
  it('records a request, replaces a pending one, and lists mine newest first', async () => {
    const u = await createUser(h);
    const first = await h.http
      .post('/api/v1/api-keys/quota-requests')
      .set(bearer(u.apiKey))
      .send({ requestedQuota: 5000, reason: 'CI runs' });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      id: expect.any(String),
      requestedQuota: 5000,
      reason: 'CI runs',
      status: 'pending',
      createdAt: expect.any(String),
    });
    const second = await h.http
      .post('/api/v1/api-keys/quota-requests')
      .set(bearer(u.apiKey))
      .send({ requestedQuota: 8000 });
    expect(second.body.requestedQuota).toBe(8000);
    const mine = await h.http.get('/api/v1/api-keys/quota-requests/mine').set(bearer(u.session));
    expect(mine.body.filter((r: { status: string }) => r.status === 'pending')).toHaveLength(1);
    expect(mine.body[0].requestedQuota).toBe(8000);
  });

  it.each([0, 1_000_001, 2.5, '100', -1])(
    'refuses requestedQuota %p with QuotaRequest.Invalid',
    async (requestedQuota) => {
      const res = await h.http
        .post('/api/v1/api-keys/quota-requests')
        .set(bearer(user.session))
        .send({ requestedQuota });
      expect(res.status).toBe(400);
      expect(problem(res).title).toBe('QuotaRequest.Invalid');
    },
  );

  it.each([1, 1_000_000])('takes requestedQuota %p, the ends of 1..1,000,000', async (requestedQuota) => {
    const u = await createUser(h);
    const res = await h.http.post('/api/v1/api-keys/quota-requests').set(bearer(u.apiKey)).send({ requestedQuota });
    expect([res.status, res.body.requestedQuota, res.body.status]).toEqual([200, requestedQuota, 'pending']);
  });

  it('needs credentials', async () => {
    expect((await h.http.get('/api/v1/api-keys/quota-requests/mine')).status).toBe(401);
  });
});

describe('Admin decisions on quota requests', () => {
  it('approving sets the daily quota, visible on the very next request', async () => {
    const u = await createUser(h, { dailyQuota: 10 });
    expect((await h.http.get('/api/v1/auth/me').set(bearer(u.apiKey))).headers['x-ratelimit-limit']).toBe('10');
    const request = (
      await h.http.post('/api/v1/api-keys/quota-requests').set(bearer(u.apiKey)).send({ requestedQuota: 2500 })
    ).body;

    const pending = await h.http.get('/api/v1/admin/quota-requests?status=pending').set(bearer(admin.token));
    expect(pending.status).toBe(200);
    const listed = pending.body.find((r: { id: string }) => r.id === request.id);
    // With the daily quota it has now: the console shows it beside the asked one.
    expect(listed.account).toEqual({ id: u.accountId, email: u.email, name: 'Test User', dailyQuota: 10 });

    const approved = await h.http.post(`/api/v1/admin/quota-requests/${request.id}/approve`).set(bearer(admin.token));
    expect(approved.status).toBe(200);
    expect(approved.body.status).toBe('approved');
    expect(approved.body.decidedAt).toEqual(expect.any(String));
    expect((await h.http.get('/api/v1/auth/me').set(bearer(u.apiKey))).headers['x-ratelimit-limit']).toBe('2500');

    const again = await h.http.post(`/api/v1/admin/quota-requests/${request.id}/reject`).set(bearer(admin.token));
    expect(again.status).toBe(409);
    expect(problem(again).title).toBe('QuotaRequest.AlreadyDecided');
  });

  it('lists by ?status: a decided request leaves the pending list for its own; an unknown status is 400', async () => {
    const u = await createUser(h);
    const request = (
      await h.http.post('/api/v1/api-keys/quota-requests').set(bearer(u.apiKey)).send({ requestedQuota: 300 })
    ).body;
    const ids = async (status: string) =>
      (await h.http.get(`/api/v1/admin/quota-requests?status=${status}`).set(bearer(admin.token))).body.map(
        (r: { id: string; status: string }) => `${r.id} ${r.status}`,
      );
    expect(await ids('pending')).toContain(`${request.id} pending`);
    await h.http.post(`/api/v1/admin/quota-requests/${request.id}/reject`).set(bearer(admin.token)).expect(200);
    expect(await ids('pending')).not.toContain(`${request.id} pending`);
    expect(await ids('rejected')).toContain(`${request.id} rejected`);
    expect((await ids('approved')).every((entry: string) => entry.endsWith(' approved'))).toBe(true);
    const bad = await h.http.get('/api/v1/admin/quota-requests?status=open').set(bearer(admin.token));
    expect([bad.status, problem(bad).title]).toEqual([400, 'QuotaRequest.InvalidQuery']);
  });

  it('rejecting leaves the quota as it was', async () => {
    const u = await createUser(h, { dailyQuota: 10 });
    const request = (
      await h.http.post('/api/v1/api-keys/quota-requests').set(bearer(u.apiKey)).send({ requestedQuota: 99 })
    ).body;
    const rejected = await h.http.post(`/api/v1/admin/quota-requests/${request.id}/reject`).set(bearer(admin.token));
    expect(rejected.body.status).toBe('rejected');
    expect((await h.http.get('/api/v1/api-keys/usage?days=1').set(bearer(u.session))).body.dailyQuota).toBe(10);
  });

  it('answers 404 for an unknown request and 400 for a malformed id', async () => {
    const missing = await h.http
      .post('/api/v1/admin/quota-requests/00000000-0000-4000-8000-000000000000/approve')
      .set(bearer(admin.token));
    expect(missing.status).toBe(404);
    expect(problem(missing).title).toBe('QuotaRequest.NotFound');
    expect((await h.http.post('/api/v1/admin/quota-requests/xyz/approve').set(bearer(admin.token))).status).toBe(400);
  });

  it('is for Admins only: 403 Auth.Forbidden for others, 401 without credentials', async () => {
    const res = await h.http.get('/api/v1/admin/quota-requests').set(bearer(user.apiKey));
    expect(res.status).toBe(403);
    expect(problem(res).title).toBe('Auth.Forbidden');
    expect((await h.http.get('/api/v1/admin/quota-requests')).status).toBe(401);
  });
});

describe('Admin provisioning and roles', () => {
  it('provisions an account that can log in', async () => {
    const email = uniqueEmail('provisioned');
    const res = await h.http
      .post('/api/v1/admin/accounts')
      .set(bearer(admin.token))
      .send({ email, name: 'Mo Derator', password: 'provisioned-password', roles: ['Moderator'] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email, name: 'Mo Derator', roles: ['Moderator'], dailyQuota: 1000 });
    expect(res.body.passwordHash).toBeUndefined();
    const login = await h.http.post('/api/v1/auth/login').send({ email, password: 'provisioned-password' });
    expect(login.status).toBe(200);
  });

  it('refuses a taken e-mail (409), a weak password, a bad e-mail and an unknown role (400)', async () => {
    const taken = await h.http
      .post('/api/v1/admin/accounts')
      .set(bearer(admin.token))
      .send({ email: user.email.toUpperCase(), name: 'Dup', password: 'long-enough-pass' });
    expect(taken.status).toBe(409);
    expect(problem(taken).title).toBe('Account.EmailTaken');
    const weak = await h.http
      .post('/api/v1/admin/accounts')
      .set(bearer(admin.token))
      .send({ email: uniqueEmail(), name: 'Weak', password: 'short' });
    expect(problem(weak).title).toBe('Auth.InvalidPassword');
    const badEmail = await h.http
      .post('/api/v1/admin/accounts')
      .set(bearer(admin.token))
      .send({ email: 'nope', name: 'x', password: 'long-enough-pass' });
    expect(badEmail.status).toBe(400);
    const badRole = await h.http
      .post('/api/v1/admin/accounts')
      .set(bearer(admin.token))
      .send({ email: uniqueEmail(), name: 'x', password: 'long-enough-pass', roles: ['Wizard'] });
    expect(badRole.status).toBe(400);
  });

  it('sets roles, effective on the next request of that account', async () => {
    const u = await createUser(h);
    expect((await h.http.get('/api/v1/auth/me').set(bearer(u.apiKey))).body.roles).toEqual([]);
    const res = await h.http
      .put(`/api/v1/admin/accounts/${u.accountId}/roles`)
      .set(bearer(admin.token))
      .send({ roles: ['Publisher', 'Moderator'] });
    expect(res.status).toBe(200);
    expect(res.body.roles).toEqual(['Publisher', 'Moderator']);
    const me = await h.http.get('/api/v1/auth/me').set(bearer(u.apiKey));
    expect(me.body.roles).toEqual(['Publisher', 'Moderator']);
    expect(me.body.permissions).toEqual(expect.arrayContaining(['catalog:publish', 'catalog:moderate']));
  });

  it('answers 404 for an unknown account and 403 for non-Admins', async () => {
    const missing = await h.http
      .put('/api/v1/admin/accounts/00000000-0000-4000-8000-000000000000/roles')
      .set(bearer(admin.token))
      .send({ roles: [] });
    expect(missing.status).toBe(404);
    const forbidden = await h.http.post('/api/v1/admin/accounts').set(bearer(user.session)).send({});
    expect(forbidden.status).toBe(403);
  });
});
