import { createHarness, type Harness } from '../support/harness.js';
import { bearer, createUser, type TestUser } from '../support/identity.js';

let h: Harness;
let owner: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  h = await createHarness();
  owner = await createUser(h);
  stranger = await createUser(h);
});
afterAll(async () => h.close());

const problem = (res: { text: string }) => JSON.parse(res.text);
const newKey = async (token: string, name = 'ci key') =>
  (await h.http.post('/api/v1/api-keys').set(bearer(token)).send({ name })).body;

describe('POST /api/v1/api-keys', () => {
  it('returns the record and the full token, once', async () => {
    const res = await h.http.post('/api/v1/api-keys').set(bearer(owner.session)).send({ name: 'deploy bot' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: 'deploy bot',
      prefix: res.body.token.slice(0, 12),
      status: 'enabled',
      createdAt: expect.any(String),
      usage: { today: 0, total: 0 },
      token: expect.stringMatching(/^ock_[0-9A-Za-z]{42}$/),
    });
    const list = await h.http.get('/api/v1/api-keys').set(bearer(owner.session));
    const listed = list.body.find((k: { id: string }) => k.id === res.body.id);
    expect(listed).toBeDefined();
    expect(listed.token).toBeUndefined();
    expect(JSON.stringify(list.body)).not.toContain(res.body.token);
    expect((await h.http.get('/api/v1/auth/me').set(bearer(res.body.token))).status).toBe(200);
  });

  it('refuses a missing name and a malformed projectId with 400', async () => {
    expect(problem(await h.http.post('/api/v1/api-keys').set(bearer(owner.session)).send({})).title).toBe(
      'ApiKey.Invalid',
    );
    const bad = await h.http.post('/api/v1/api-keys').set(bearer(owner.session)).send({ name: 'x', projectId: 'nope' });
    expect(bad.status).toBe(400);
  });

  it('refuses a project the caller cannot use with 404', async () => {
    const res = await h.http
      .post('/api/v1/api-keys')
      .set(bearer(owner.session))
      .send({ name: 'x', projectId: '00000000-0000-4000-8000-000000000000' });
    expect(res.status).toBe(404);
    expect(problem(res).title).toBe('Project.NotFound');
  });

  it('needs credentials', async () => {
    expect((await h.http.post('/api/v1/api-keys').send({ name: 'x' })).status).toBe(401);
    expect((await h.http.get('/api/v1/api-keys')).status).toBe(401);
  });
});

describe('GET /api/v1/api-keys', () => {
  it("lists only the caller's keys with today's usage", async () => {
    const key = await newKey(owner.session, 'counted');
    await h.http.get('/api/v1/auth/me').set(bearer(key.token));
    await h.http.get('/api/v1/auth/me').set(bearer(key.token));
    const res = await h.http.get('/api/v1/api-keys').set(bearer(key.token));
    const listed = res.body.find((k: { id: string }) => k.id === key.id);
    // the list request itself is the third use of the key today
    expect(listed.usage).toEqual({ today: 3, total: 3 });
    expect(listed.lastUsedAt).toEqual(expect.any(String));
    expect(res.body.every((k: { id: string }) => k.id !== undefined)).toBe(true);
    const theirs = await h.http.get('/api/v1/api-keys').set(bearer(stranger.session));
    expect(theirs.body.map((k: { id: string }) => k.id)).not.toContain(key.id);
  });
});

describe('enable, disable, delete', () => {
  it('a disabled key is refused on the very next request and works again once enabled', async () => {
    const key = await newKey(owner.session);
    expect((await h.http.get('/api/v1/auth/me').set(bearer(key.token))).status).toBe(200);
    const disabled = await h.http.post(`/api/v1/api-keys/${key.id}/disable`).set(bearer(owner.session));
    expect(disabled.status).toBe(200);
    expect(disabled.text).toBe('');
    expect((await h.http.get('/api/v1/auth/me').set(bearer(key.token))).status).toBe(401);
    const listed = (await h.http.get('/api/v1/api-keys').set(bearer(owner.session))).body.find(
      (k: { id: string }) => k.id === key.id,
    );
    expect(listed.status).toBe('disabled');
    expect((await h.http.post(`/api/v1/api-keys/${key.id}/enable`).set(bearer(owner.session))).status).toBe(200);
    expect((await h.http.get('/api/v1/auth/me').set(bearer(key.token))).status).toBe(200);
  });

  it('a deleted key is refused at once and disappears from the list', async () => {
    const key = await newKey(owner.session);
    expect((await h.http.get('/api/v1/auth/me').set(bearer(key.token))).status).toBe(200);
    expect((await h.http.delete(`/api/v1/api-keys/${key.id}`).set(bearer(owner.session))).status).toBe(200);
    expect((await h.http.get('/api/v1/auth/me').set(bearer(key.token))).status).toBe(401);
    const list = (await h.http.get('/api/v1/api-keys').set(bearer(owner.session))).body;
    expect(list.map((k: { id: string }) => k.id)).not.toContain(key.id);
    expect((await h.http.delete(`/api/v1/api-keys/${key.id}`).set(bearer(owner.session))).status).toBe(404);
  });

  it("answers 404 for another account's key, exactly as for a missing one", async () => {
    const key = await newKey(owner.session);
    const theirs = await h.http.post(`/api/v1/api-keys/${key.id}/disable`).set(bearer(stranger.session));
    const missing = await h.http
      .post('/api/v1/api-keys/00000000-0000-4000-8000-000000000000/disable')
      .set(bearer(stranger.session));
    expect(theirs.status).toBe(404);
    expect(problem(theirs)).toEqual({ ...problem(missing) });
    expect((await h.http.get('/api/v1/auth/me').set(bearer(key.token))).status).toBe(200);
  });

  it('refuses a malformed key id with 400', async () => {
    const res = await h.http.post('/api/v1/api-keys/not-a-uuid/enable').set(bearer(owner.session));
    expect(res.status).toBe(400);
    expect(problem(res).title).toBe('ApiKey.InvalidId');
  });
});
