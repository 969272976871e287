import { createHarness, type Harness } from '../support/harness.js';
import { bearer, createUser, signInAdmin, type TestUser } from '../support/identity.js';

let h: Harness;
let admin: { accountId: string; token: string };
let user: TestUser;

beforeAll(async () => {
  h = await createHarness();
  admin = await signInAdmin(h);
  user = await createUser(h, { roles: ['Publisher'], name: 'Pat Publisher' });
});
afterAll(async () => h.close());

const problem = (res: { text: string }) => JSON.parse(res.text);

describe('POST /api/v1/auth/login', () => {
  it('returns a 12 h console session for the right password, with any e-mail case', async () => {
    const res = await h.http
      .post('/api/v1/auth/login')
      .send({ email: user.email.toUpperCase(), password: user.password });
    expect(res.status).toBe(200);
    expect(res.body.accessToken).toMatch(/^ocs_/);
    expect(res.body.tokenType).toBe('Bearer');
    const hours = (Date.parse(res.body.expiresAt) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(11.9);
    expect(hours).toBeLessThanOrEqual(12);
    const me = await h.http.get('/api/v1/auth/me').set(bearer(res.body.accessToken));
    expect(me.body.id).toBe(user.accountId);
  });

  it('answers the same 401 for a wrong password and an unknown e-mail', async () => {
    const wrong = await h.http.post('/api/v1/auth/login').send({ email: user.email, password: 'not-the-password' });
    const unknown = await h.http
      .post('/api/v1/auth/login')
      .send({ email: 'nobody@test.ockhub.local', password: 'whatever-it-is' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(problem(wrong)).toEqual(problem(unknown));
    expect(problem(wrong).title).toBe('Auth.InvalidCredentials');
  });

  it.each([[{ email: 'not-an-email', password: 'x' }], [{ email: 'a@b.co' }], [{}]])(
    'refuses a malformed body %j with 400',
    async (payload) => {
      const res = await h.http.post('/api/v1/auth/login').send(payload);
      expect(res.status).toBe(400);
      expect(problem(res).title).toBe('Auth.InvalidRequest');
    },
  );
});

describe('GET /api/v1/auth/me', () => {
  it('describes the caller by API key, with roles and derived permissions', async () => {
    const res = await h.http.get('/api/v1/auth/me').set(bearer(user.apiKey));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: user.accountId,
      name: 'Pat Publisher',
      email: user.email,
      roles: ['Publisher'],
      permissions: expect.arrayContaining(['catalog:publish', 'api-keys:manage']),
      isAdmin: false,
    });
    expect(res.headers['x-ratelimit-limit']).toBe('1000');
  });

  it('says isAdmin for the seeded Admin', async () => {
    const res = await h.http.get('/api/v1/auth/me').set(bearer(admin.token));
    expect(res.body.isAdmin).toBe(true);
    expect(res.body.email).toBe(h.config.ADMIN_EMAIL);
  });

  it.each([
    ['no header', {}],
    ['a junk bearer', { authorization: 'Bearer nonsense' }],
    ['a well-formed key that does not exist', { authorization: `Bearer ock_${'a'.repeat(36)}AAAAAA` }],
    ['a basic scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
  ])('answers 401 problem for %s', async (_label, headers) => {
    const res = await h.http.get('/api/v1/auth/me').set(headers);
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toMatch(/problem\+json/);
    expect(problem(res).title).toBe('Auth.Unauthorized');
  });
});

describe('PUT /api/v1/auth/me', () => {
  it('changes the display name', async () => {
    const res = await h.http.put('/api/v1/auth/me').set(bearer(user.session)).send({ name: 'Pat Renamed' });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('Pat Renamed');
    expect((await h.http.get('/api/v1/auth/me').set(bearer(user.apiKey))).body.name).toBe('Pat Renamed');
  });

  it('refuses an empty name with 400', async () => {
    const res = await h.http.put('/api/v1/auth/me').set(bearer(user.session)).send({ name: '   ' });
    expect(res.status).toBe(400);
    expect(problem(res).title).toBe('Auth.InvalidProfile');
  });

  it('needs credentials', async () => {
    expect((await h.http.put('/api/v1/auth/me').send({ name: 'x' })).status).toBe(401);
  });
});

describe('POST /api/v1/auth/me/password and logout', () => {
  it('changes the password, keeps the current session and revokes the others', async () => {
    const u = await createUser(h);
    const other = await h.http.post('/api/v1/auth/login').send({ email: u.email, password: u.password });
    const res = await h.http
      .post('/api/v1/auth/me/password')
      .set(bearer(u.session))
      .send({ currentPassword: u.password, newPassword: 'a-brand-new-password' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ changed: true });
    expect((await h.http.get('/api/v1/auth/me').set(bearer(u.session))).status).toBe(200);
    expect((await h.http.get('/api/v1/auth/me').set(bearer(other.body.accessToken))).status).toBe(401);
    expect((await h.http.post('/api/v1/auth/login').send({ email: u.email, password: u.password })).status).toBe(401);
    const fresh = await h.http.post('/api/v1/auth/login').send({ email: u.email, password: 'a-brand-new-password' });
    expect(fresh.status).toBe(200);
  });

  it('refuses a weak new password with Auth.InvalidPassword and a wrong current one with 400', async () => {
    const weak = await h.http
      .post('/api/v1/auth/me/password')
      .set(bearer(user.session))
      .send({ currentPassword: user.password, newPassword: 'short' });
    expect(weak.status).toBe(400);
    expect(problem(weak).title).toBe('Auth.InvalidPassword');
    const wrong = await h.http
      .post('/api/v1/auth/me/password')
      .set(bearer(user.session))
      .send({ currentPassword: 'not-my-password', newPassword: 'long-enough-password' });
    expect(wrong.status).toBe(400);
    expect(problem(wrong).title).toBe('Auth.InvalidCurrentPassword');
  });

  it('logout revokes the console session at once', async () => {
    const u = await createUser(h);
    expect((await h.http.post('/api/v1/auth/logout').set(bearer(u.session))).status).toBe(200);
    expect((await h.http.get('/api/v1/auth/me').set(bearer(u.session))).status).toBe(401);
  });
});
