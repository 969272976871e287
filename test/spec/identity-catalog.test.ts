// SPEC sections 0, 1 and 2, statement by statement: the ones no other test pinned (an audit of the contract against
// the tests). Each test names the SPEC statement it holds the service to.
import { randomBytes } from 'node:crypto';
import { type Actors, createActors, draftBody } from '../support/catalog-factory.js';
import { type GatewayWorld, openGatewayWorld } from '../support/gateway.js';
import { bearer, createUser, signInAdmin, uniqueEmail } from '../support/identity.js';

let w: GatewayWorld;
let a: Actors;
beforeAll(async () => {
  w = await openGatewayWorld({ balance: '5' });
  a = await createActors(w.h);
});
afterAll(async () => w?.close());

const problem = (res: { text: string }) => JSON.parse(res.text);
const paidCall = () =>
  w.h.http
    .post('/v1/messages')
    .set('x-api-key', w.key)
    .send({ model: 'claude-sonnet-5', max_tokens: 16, messages: [{ role: 'user', content: 'hello' }] });

describe('section 0: x-correlation-id on every family', () => {
  it('echoes a valid incoming id on the gateway, a relayed stream, the telemetry lane and a malformed body', async () => {
    const answers = {
      models: await w.h.http.get('/v1/models').set(bearer(w.key)).set('x-correlation-id', 'spec-models'),
      stream: await w.h.http
        .post('/v1/messages')
        .set('x-api-key', w.key)
        .set('x-correlation-id', 'spec-stream')
        .send({ model: 'claude-sonnet-5', max_tokens: 16, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
      telemetry: await w.h.http
        .post('/api/v1/telemetry')
        .set('x-correlation-id', 'spec-telemetry')
        .send({ itemType: 'agent', slug: 'no-such-item', eventType: 'view' }),
      malformed: await w.h.http
        .post('/v1/messages')
        .set('x-correlation-id', 'spec-malformed')
        .set('content-type', 'application/json')
        .send('{"model":'),
    };
    expect(
      Object.fromEntries(Object.entries(answers).map(([k, r]) => [k, [r.status, r.headers['x-correlation-id']]])),
    ).toEqual({
      models: [200, 'spec-models'],
      stream: [200, 'spec-stream'],
      telemetry: [404, 'spec-telemetry'],
      malformed: [400, 'spec-malformed'],
    });
  });

  it('answers an unknown method on a known catalog path with 404 in the problem shape', async () => {
    const res = await w.h.http.delete('/api/v1/auth/login');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(problem(res)).toEqual({
      type: expect.any(String),
      title: 'Route.NotFound',
      status: 404,
      detail: expect.any(String),
    });
  });
});

describe('section 1: passwords of at least 10 characters', () => {
  it('refuses 9 characters and takes 10 when changing the password', async () => {
    const u = await createUser(w.h);
    const change = (newPassword: string) =>
      w.h.http
        .post('/api/v1/auth/me/password')
        .set(bearer(u.session))
        .send({ currentPassword: u.password, newPassword });
    const short = await change('123456789');
    expect([short.status, problem(short).title]).toEqual([400, 'Auth.InvalidPassword']);
    const enough = await change('1234567890');
    expect([enough.status, enough.body]).toEqual([200, { changed: true }]);
  });

  it('counts characters, not UTF-16 units: five emoji (ten units) are five characters, too few', async () => {
    const admin = await signInAdmin(w.h);
    const provision = (password: string) =>
      w.h.http
        .post('/api/v1/admin/accounts')
        .set(bearer(admin.token))
        .send({ email: uniqueEmail('chars'), name: 'Chars', password, roles: [] });
    const emoji = '🔑🔐🔒🔓🔏';
    expect(emoji).toHaveLength(10);
    expect([...emoji]).toHaveLength(5);
    const refused = await provision(emoji);
    expect([refused.status, problem(refused).title]).toEqual([400, 'Auth.InvalidPassword']);
    expect((await provision(`${emoji}${emoji}`)).status).toBe(200);
  });
});

describe('section 1: the daily quota counts /api/v1 only, not the gateway', () => {
  it('leaves the gateway open with the same key once the account has used up its daily quota', async () => {
    const admin = await signInAdmin(w.h);
    const request = await w.h.http
      .post('/api/v1/api-keys/quota-requests')
      .set(bearer(w.org.admin.session))
      .send({ requestedQuota: 2 });
    await w.h.http.post(`/api/v1/admin/quota-requests/${request.body.id}/approve`).set(bearer(admin.token)).expect(200);

    const me = () => w.h.http.get('/api/v1/auth/me').set(bearer(w.key));
    const first = await me();
    expect([first.status, first.headers['x-ratelimit-limit'], first.headers['x-ratelimit-remaining']]).toEqual([
      200,
      '2',
      '1',
    ]);
    // Gateway calls in between consume nothing of it.
    for (let i = 0; i < 3; i++) expect((await paidCall()).status).toBe(200);
    const second = await me();
    expect([second.status, second.headers['x-ratelimit-remaining']]).toEqual([200, '0']);
    const refused = await me();
    expect([refused.status, problem(refused).title]).toEqual([429, 'ApiKey.QuotaExceeded']);

    expect((await paidCall()).status).toBe(200);
    expect((await w.h.http.get('/v1/models').set(bearer(w.key))).status).toBe(200);
  });
});

describe('section 2: a slug is 2-64 characters of ^[a-z0-9]+(-[a-z0-9]+)*$', () => {
  const create = (slug: string) =>
    w.h.http
      .post('/api/v1/publisher/agent/drafts')
      .set(bearer(a.publisher.session))
      .send(draftBody(a, 'agent', { slug }));
  const suffix = () => randomBytes(3).toString('hex');

  it.each([
    ['one character', () => 'a'],
    ['65 characters', () => `${suffix()}${'a'.repeat(65)}`.slice(0, 65)],
    ['a double hyphen', () => `a--${suffix()}`],
    ['a leading hyphen', () => `-a${suffix()}`],
    ['a trailing hyphen', () => `a${suffix()}-`],
    ['an underscore', () => `a_${suffix()}`],
  ])('refuses %s with 400 Draft.Invalid', async (_label, slug) => {
    const res = await create(slug());
    expect([res.status, problem(res).title]).toEqual([400, 'Draft.Invalid']);
  });

  it.each([
    ['two characters', () => `${suffix()}`.slice(0, 2)],
    ['64 characters', () => `${suffix()}${'a'.repeat(64)}`.slice(0, 64)],
    ['digits and single hyphens', () => `0-${suffix()}-9`],
  ])('takes %s', async (_label, slug) => {
    const s = slug();
    const res = await create(s);
    expect([res.status, res.body.slug]).toEqual([200, s]);
  });
});
