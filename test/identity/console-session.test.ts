import { createHarness, type Harness } from '../support/harness.js';
import { bearer, createUser, TEST_PASSWORD, uniqueEmail } from '../support/identity.js';
import { aMember, anInviteToken, anOrganization } from '../support/org-fixtures.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

// What a browser adds to a request from a console page of this origin (Fetch Metadata).
const sameOrigin = { 'sec-fetch-site': 'same-origin' };
const cookieOf = (res: { headers: Record<string, unknown> }) =>
  (res.headers['set-cookie'] as string[] | undefined)?.[0];
const jarOf = (res: { headers: Record<string, unknown> }) => (cookieOf(res) ?? '').split(';')[0] as string;

async function signIn(email: string, password = TEST_PASSWORD) {
  return h.http.post('/api/v1/auth/session').set(sameOrigin).send({ email, password });
}

describe('the console session cookie', () => {
  it('signs in with the token only in an HttpOnly, SameSite=Strict cookie, which then authenticates', async () => {
    const user = await createUser(h, { roles: ['Publisher'] });
    const res = await signIn(user.email);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      expiresAt: expect.any(String),
      account: expect.objectContaining({ id: user.accountId, email: user.email, roles: ['Publisher'] }),
    });
    expect(JSON.stringify(res.body)).not.toContain('ocs_');
    const cookie = cookieOf(res) ?? '';
    expect(cookie).toMatch(/^ockhub_session=ocs_/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).toMatch(/Expires=/);
    const me = await h.http.get('/api/v1/auth/me').set('cookie', jarOf(res));
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(user.accountId);
    // A session does not spend the account's daily API-key quota.
    expect(me.headers['x-ratelimit-remaining']).toBe(String(me.headers['x-ratelimit-limit']));
  });

  it('answers 401 Auth.InvalidCredentials for a wrong password and 400 for a body without e-mail', async () => {
    const user = await createUser(h);
    const wrong = await signIn(user.email, 'not the password');
    expect(wrong.status).toBe(401);
    expect(wrong.body.title).toBe('Auth.InvalidCredentials');
    expect(cookieOf(wrong)).toBeUndefined();
    const bad = await h.http.post('/api/v1/auth/session').set(sameOrigin).send({ password: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.title).toBe('Auth.InvalidRequest');
  });

  it('refuses a sign-in posted from another site (login CSRF) with 403 Auth.CrossSiteRequest', async () => {
    const user = await createUser(h);
    for (const headers of [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }, {}]) {
      const res = await h.http
        .post('/api/v1/auth/session')
        .set(headers)
        .send({ email: user.email, password: TEST_PASSWORD });
      expect(res.status).toBe(403);
      expect(res.body.title).toBe('Auth.CrossSiteRequest');
      expect(cookieOf(res)).toBeUndefined();
    }
  });

  it('refuses a state-changing request with the cookie unless the browser says it comes from this origin', async () => {
    const user = await createUser(h);
    const jar = jarOf(await signIn(user.email));
    const create = () => h.http.post('/api/v1/api-keys').set('cookie', jar);
    for (const headers of [{}, { origin: 'https://evil.example' }, { 'sec-fetch-site': 'same-site' }]) {
      const res = await create().set(headers).send({ name: 'csrf' });
      expect(res.status).toBe(403);
      expect(res.body.title).toBe('Auth.CrossSiteRequest');
    }
    expect((await h.http.get('/api/v1/api-keys').set('cookie', jar)).body).toHaveLength(1);
    const fetchMetadata = await create().set({ 'sec-fetch-site': 'same-origin' }).send({ name: 'ok' });
    expect(fetchMetadata.status).toBe(200);
    // Without Fetch Metadata (older browsers), Origin must be the public base URL or the host addressed.
    const publicOrigin = await create().set('origin', h.config.publicBaseUrl).send({ name: 'ok too' });
    expect(publicOrigin.status).toBe(200);
    const hostOrigin = await create()
      .set({ host: 'console.test', origin: 'http://console.test' })
      .send({ name: 'and this' });
    expect(hostOrigin.status).toBe(200);
    // The organization family, too: same rule, its own error shape.
    const org = h.http.post('/api/organizations').set('cookie', jar);
    const refused = await org.send({ name: 'Cross' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('Auth.CrossSiteRequest');
  });

  it('lets a bearer header win over the cookie, and never takes an API key from the cookie', async () => {
    const user = await createUser(h);
    const other = await createUser(h);
    const jar = jarOf(await signIn(user.email));
    const me = await h.http.get('/api/v1/auth/me').set('cookie', jar).set(bearer(other.session));
    expect(me.body.id).toBe(other.accountId);
    const forged = await h.http.get('/api/v1/auth/me').set('cookie', `ockhub_session=${user.apiKey}`);
    expect(forged.status).toBe(401);
    expect((await h.http.get('/api/v1/auth/me').set('cookie', 'ockhub_session=ocs_forged')).status).toBe(401);
  });

  it('signs out: the session is revoked, the cookie cleared, and a second sign-out is harmless', async () => {
    const user = await createUser(h);
    const jar = jarOf(await signIn(user.email));
    const res = await h.http.delete('/api/v1/auth/session').set('cookie', jar).set(sameOrigin);
    expect(res.status).toBe(204);
    expect(cookieOf(res)).toMatch(/^ockhub_session=;/);
    expect((await h.http.get('/api/v1/auth/me').set('cookie', jar)).status).toBe(401);
    expect((await h.http.delete('/api/v1/auth/session').set(sameOrigin)).status).toBe(204);
    // From another site the sign-out is refused (it would log the victim out).
    const jar2 = jarOf(await signIn(user.email));
    const cross = await h.http.delete('/api/v1/auth/session').set('cookie', jar2).set('origin', 'https://evil.example');
    expect(cross.status).toBe(403);
    expect((await h.http.get('/api/v1/auth/me').set('cookie', jar2)).status).toBe(200);
  });

  it('opens the queue dashboard to an Admin with the console cookie, and refuses a Publisher', async () => {
    const admin = await createUser(h, { roles: ['Admin'] });
    const publisher = await createUser(h, { roles: ['Publisher'] });
    const adminJar = jarOf(await signIn(admin.email));
    expect((await h.http.get('/admin/queues/api/queues').set('cookie', adminJar)).status).toBe(200);
    const publisherJar = jarOf(await signIn(publisher.email));
    expect((await h.http.get('/admin/queues/api/queues').set('cookie', publisherJar)).status).toBe(403);
    const cross = await h.http
      .put('/admin/queues/api/queues/alerts/pause')
      .set('cookie', adminJar)
      .set('origin', 'https://evil.example');
    expect(cross.status).toBe(403);
  });

  it('accepts an invite as the signed-in cookie holder', async () => {
    const org = await anOrganization(h);
    await aMember(h, org);
    const invite = await anInviteToken(h, org);
    const user = await createUser(h, { email: uniqueEmail('joiner') });
    const jar = jarOf(await signIn(user.email));
    const res = await h.http
      .post(`/api/organization/invites/${invite.token}/accept`)
      .set('cookie', jar)
      .set(sameOrigin)
      .send({});
    expect(res.status).toBe(201);
    const orgs = await h.http.get('/api/organizations').set('cookie', jar);
    expect(orgs.body.data.map((o: { id: string }) => o.id)).toContain(org.id);
  });
});
