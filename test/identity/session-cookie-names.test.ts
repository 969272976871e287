// The session cookies' names and what a request with two of one gets (security review: cookie tossing from a sibling
// subdomain). Over https the console's cookie is `__Host-ockhub_session` and the dashboard's
// `__Secure-ockhub_admin_session`, names no sibling subdomain can set; over plain http they keep their bare names.
import { createHarness, type Harness } from '../support/harness.js';
import { bearer, createUser, signInAdmin, TEST_PASSWORD } from '../support/identity.js';

type Res = { status: number; headers: Record<string, unknown>; body: Record<string, unknown> };

const setCookies = (res: Res) => (res.headers['set-cookie'] as string[] | undefined) ?? [];
const jarOf = (res: Res) => (setCookies(res)[0] ?? '').split(';')[0] as string;
const sameOrigin = { 'sec-fetch-site': 'same-origin' };

// The two ways the service knows it is reached over https: its public address, or a TLS proxy under TRUST_PROXY.
const https: { how: string; env: Record<string, string>; headers: Record<string, string> }[] = [
  { how: 'PUBLIC_BASE_URL is https', env: { PUBLIC_BASE_URL: 'https://console.test' }, headers: {} },
  { how: 'a proxy says https (TRUST_PROXY)', env: { TRUST_PROXY: 'true' }, headers: { 'x-forwarded-proto': 'https' } },
];

describe.each(https)('over https ($how)', ({ env, headers }) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(env);
  });
  afterAll(() => h.close());

  const get = (path: string, cookie: string) => h.http.get(path).set(headers).set('cookie', cookie);
  const signIn = (email: string) =>
    h.http.post('/api/v1/auth/session').set(headers).set(sameOrigin).send({ email, password: TEST_PASSWORD });

  it('signs in to __Host-ockhub_session (Secure, Path=/, no Domain), and signing out clears that very cookie', async () => {
    const user = await createUser(h);
    const res = await signIn(user.email);
    expect(res.status).toBe(200);
    const [cookie, ...more] = setCookies(res);
    expect(more).toEqual([]);
    expect(cookie).toMatch(/^__Host-ockhub_session=ocs_/);
    expect(cookie?.split('; ')).toEqual(expect.arrayContaining(['Path=/', 'Secure', 'HttpOnly', 'SameSite=Strict']));
    expect(cookie).not.toMatch(/Domain=/i);
    const jar = jarOf(res);
    expect((await get('/api/v1/auth/me', jar)).body.id).toBe(user.accountId);
    // The bare name is what a sibling subdomain can toss in: over https it is no credential at all.
    const bare = jar.replace(/^__Host-/, '');
    expect((await get('/api/v1/auth/me', bare)).status).toBe(401);

    const out = await h.http.delete('/api/v1/auth/session').set(headers).set(sameOrigin).set('cookie', jar);
    expect(out.status).toBe(204);
    const [cleared] = setCookies(out);
    expect(cleared).toMatch(/^__Host-ockhub_session=;/);
    expect(cleared?.split('; ')).toEqual(
      expect.arrayContaining(['Path=/', 'Secure', expect.stringMatching(/^Expires=Thu, 01 Jan 1970/)]),
    );
    expect((await get('/api/v1/auth/me', jar)).status).toBe(401);
  });

  it('answers 401 to two __Host-ockhub_session cookies, in the family shape, and clears the cookie', async () => {
    const victim = await createUser(h);
    const attacker = await createUser(h);
    const cookie = `__Host-ockhub_session=${attacker.session}; __Host-ockhub_session=${victim.session}`;
    const me = await get('/api/v1/auth/me', cookie);
    expect(me.status).toBe(401);
    expect(me.body.title).toBe('Auth.Unauthorized');
    const [cleared] = setCookies(me);
    expect(cleared).toMatch(/^__Host-ockhub_session=;/);
    expect(cleared?.split('; ')).toEqual(expect.arrayContaining(['Path=/', 'Secure']));
    const orgs = await get('/api/organizations', cookie);
    expect(orgs.status).toBe(401);
    expect(orgs.body).toEqual({ data: null, code: 401, error: expect.objectContaining({ code: 'Auth.Unauthorized' }) });
    expect(setCookies(orgs)[0]).toMatch(/^__Host-ockhub_session=;/);
  });

  it('sets the queue dashboard cookie as __Secure-ockhub_admin_session (Path=/admin), refuses two, and clears it', async () => {
    const admin = await signInAdmin(h);
    const session = await h.http.post('/admin/session').set(headers).set(bearer(admin.token));
    expect(session.status).toBe(204);
    const [cookie] = setCookies(session);
    expect(cookie).toMatch(/^__Secure-ockhub_admin_session=ocs_/);
    expect(cookie?.split('; ')).toEqual(
      expect.arrayContaining(['Path=/admin', 'Secure', 'HttpOnly', 'SameSite=Strict']),
    );
    const jar = jarOf(session);
    expect((await get('/admin/queues/api/queues', jar)).status).toBe(200);
    expect((await get('/admin/queues/api/queues', jar.replace(/^__Secure-/, ''))).status).toBe(401);

    const other = await createUser(h, { roles: ['Admin'] });
    const twice = await get('/admin/queues/api/queues', `__Secure-ockhub_admin_session=${other.session}; ${jar}`);
    expect(twice.status).toBe(401);
    expect(setCookies(twice)[0]).toMatch(/^__Secure-ockhub_admin_session=;.*Path=\/admin/);

    const out = await h.http.delete('/admin/session').set(headers);
    expect(out.status).toBe(204);
    const [cleared] = setCookies(out);
    expect(cleared).toMatch(/^__Secure-ockhub_admin_session=;/);
    expect(cleared?.split('; ')).toEqual(expect.arrayContaining(['Path=/admin', 'Secure']));
  });
});

describe('over plain http', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(() => h.close());

  it('keeps the bare names, and answers 401 to two ockhub_session cookies rather than picking one', async () => {
    const victim = await createUser(h);
    const attacker = await createUser(h);
    const signedIn = await h.http
      .post('/api/v1/auth/session')
      .set(sameOrigin)
      .send({ email: victim.email, password: TEST_PASSWORD });
    expect(setCookies(signedIn)[0]).toMatch(/^ockhub_session=ocs_/);
    expect(setCookies(signedIn)[0]).not.toMatch(/Secure/);
    // The tossed cookie has the longer Path, so the browser sends it first.
    const cookie = `ockhub_session=${attacker.session}; ${jarOf(signedIn)}`;
    const me = await h.http.get('/api/v1/auth/me').set('cookie', cookie);
    expect(me.status).toBe(401);
    expect(me.body.title).toBe('Auth.Unauthorized');
    expect(setCookies(me)[0]).toMatch(/^ockhub_session=;.*Path=\//);
    // A route open to callers without a credential still refuses them (it would act as the first account).
    const invite = await h.http
      .post('/api/organization/invites/no-such-token/accept')
      .set(sameOrigin)
      .set('cookie', cookie)
      .send({});
    expect(invite.status).toBe(401);
    const dashboard = await h.http
      .get('/admin/queues/api/queues')
      .set('cookie', `ockhub_admin_session=x; ockhub_admin_session=y`);
    expect(dashboard.status).toBe(401);
    expect(setCookies(dashboard)[0]).toMatch(/^ockhub_admin_session=;.*Path=\/admin/);
  });

  it('signs out with two cookies: both sessions revoked, the cookie cleared, 204', async () => {
    const victim = await createUser(h);
    const attacker = await createUser(h);
    const out = await h.http
      .delete('/api/v1/auth/session')
      .set(sameOrigin)
      .set('cookie', `ockhub_session=${attacker.session}; ockhub_session=${victim.session}`);
    expect(out.status).toBe(204);
    expect(setCookies(out)[0]).toMatch(/^ockhub_session=;.*Path=\//);
    for (const token of [attacker.session, victim.session]) {
      expect((await h.http.get('/api/v1/auth/me').set(bearer(token))).status).toBe(401);
    }
  });
});
