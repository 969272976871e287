// Brute-force limits on login, password change and invite acceptance (docs/identity.md, "Guessing limits").

import { createHarness, type Harness, waitUntil } from '../support/harness.js';
import { bearer, createUser, uniqueEmail } from '../support/identity.js';
import { anInviteToken, anOrganization, expectEnvelopeError } from '../support/org-fixtures.js';

const PER_ACCOUNT = 3;
const PER_ADDRESS = 5;

let h: Harness;
let direct: Harness;
beforeAll(async () => {
  h = await createHarness({
    AUTH_FAILURES_PER_ACCOUNT: String(PER_ACCOUNT),
    AUTH_FAILURES_PER_ADDRESS: String(PER_ADDRESS),
    AUTH_FAILURE_WINDOW_MS: '600000',
    TRUST_PROXY: 'true',
  });
  // No proxy is trusted here: X-Forwarded-For is ignored and the socket's address is counted.
  direct = await createHarness({ AUTH_FAILURES_PER_ADDRESS: String(PER_ADDRESS), AUTH_FAILURE_WINDOW_MS: '600000' });
});
afterAll(async () => {
  await h.close();
  await direct.close();
});

let lastAddress = 0;
const newAddress = () => {
  lastAddress++;
  return `198.51.${Math.floor(lastAddress / 250)}.${(lastAddress % 250) + 1}`;
};

const login = (email: string, password: string, address = newAddress(), on = h) =>
  on.http.post('/api/v1/auth/login').set('x-forwarded-for', address).send({ email, password });

const problem = (res: { text: string }) => JSON.parse(res.text);

function expectTooMany(res: { status: number; text: string; headers: Record<string, string> }, windowSeconds = 600) {
  expect(res.status).toBe(429);
  expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
  expect(problem(res)).toMatchObject({ title: 'Auth.TooManyAttempts', status: 429 });
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
}

describe('login', () => {
  it('answers 429 with Retry-After once an account has had its failures, from any address, even for the right password', async () => {
    const user = await createUser(h);
    for (let i = 0; i < PER_ACCOUNT; i++) expect((await login(user.email, 'wrong-password')).status).toBe(401);
    expectTooMany(await login(user.email, 'wrong-password'));
    expectTooMany(await login(user.email, user.password));
    expectTooMany(await login(user.email.toUpperCase(), user.password));
  });

  it('limits an unknown e-mail exactly like a known one: same statuses, same bodies', async () => {
    const user = await createUser(h);
    const unknown = uniqueEmail('nobody');
    const known: { status: number; text: string }[] = [];
    const ghost: { status: number; text: string }[] = [];
    for (let i = 0; i <= PER_ACCOUNT; i++) {
      known.push(await login(user.email, 'wrong-password'));
      ghost.push(await login(unknown, 'wrong-password'));
    }
    expect(known.map((r) => r.status)).toEqual([401, 401, 401, 429]);
    expect(ghost.map((r) => r.status)).toEqual(known.map((r) => r.status));
    expect(ghost.map((r) => problem(r))).toEqual(known.map((r) => problem(r)));
  });

  it('answers 429 once an address has had its failures, whatever e-mails it tries', async () => {
    const address = newAddress();
    for (let i = 0; i < PER_ADDRESS; i++) {
      expect((await login(uniqueEmail('spray'), 'wrong-password', address)).status).toBe(401);
    }
    const user = await createUser(h);
    expectTooMany(await login(user.email, user.password, address));
    // Another address is not affected, and the account has no failures of its own.
    expect((await login(user.email, user.password)).status).toBe(200);
  });

  it('resets the account’s failures after a successful login', async () => {
    const user = await createUser(h);
    for (let i = 0; i < PER_ACCOUNT - 1; i++) expect((await login(user.email, 'wrong-password')).status).toBe(401);
    expect((await login(user.email, user.password)).status).toBe(200);
    for (let i = 0; i < PER_ACCOUNT; i++) expect((await login(user.email, 'wrong-password')).status).toBe(401);
    expectTooMany(await login(user.email, 'wrong-password'));
  });

  it('lets exactly the allowed number of concurrent guesses through', async () => {
    const user = await createUser(h);
    const answers = await Promise.all(Array.from({ length: 12 }, () => login(user.email, 'wrong-password')));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(PER_ACCOUNT).fill(401), ...Array(12 - PER_ACCOUNT).fill(429)]);
  });

  it('counts the socket address, not X-Forwarded-For, when no proxy is trusted', async () => {
    for (let i = 0; i < PER_ADDRESS; i++) {
      expect((await login(uniqueEmail('spoof'), 'wrong-password', newAddress(), direct)).status).toBe(401);
    }
    expectTooMany(await login(uniqueEmail('spoof'), 'wrong-password', newAddress(), direct));
  });
});

describe('the window', () => {
  let short: Harness;
  beforeAll(async () => {
    short = await createHarness({
      AUTH_FAILURES_PER_ACCOUNT: '2',
      AUTH_FAILURES_PER_ADDRESS: '4',
      AUTH_FAILURE_WINDOW_MS: '2000',
      TRUST_PROXY: 'true',
    });
  });
  afterAll(async () => short.close());

  // The guesses go out together: each is counted when it starts, so all of them land well inside the window even
  // on a busy machine, and the limit is reached whatever the password hashing costs.
  it('lifts an account’s limit once its failures have left the window', async () => {
    const user = await createUser(short);
    const guesses = await Promise.all(Array.from({ length: 4 }, () => login(user.email, 'wrong', newAddress(), short)));
    expect(guesses.map((r) => r.status).sort()).toEqual([401, 401, 429, 429]);
    expectTooMany(guesses.find((r) => r.status === 429) as (typeof guesses)[number], 2);
    const res = await waitUntil(async () => {
      const attempt = await login(user.email, user.password, newAddress(), short);
      return attempt.status === 200 ? attempt : undefined;
    });
    expect(res.body.accessToken).toMatch(/^ocs_/);
  });

  it('lifts an address’s limit once its failures have left the window', async () => {
    const address = newAddress();
    const guesses = await Promise.all(
      Array.from({ length: 6 }, () => login(uniqueEmail('window'), 'wrong', address, short)),
    );
    expect(guesses.map((r) => r.status).sort()).toEqual([401, 401, 401, 401, 429, 429]);
    const user = await createUser(short);
    await waitUntil(async () => (await login(user.email, user.password, address, short)).status === 200);
  });
});

describe('password change', () => {
  it('answers 429 after too many wrong current passwords, and then also to the right one', async () => {
    const user = await createUser(h);
    const change = (currentPassword: string) =>
      h.http
        .post('/api/v1/auth/me/password')
        .set(bearer(user.session))
        .set('x-forwarded-for', newAddress())
        .send({ currentPassword, newPassword: 'another-long-password' });
    for (let i = 0; i < PER_ACCOUNT; i++) {
      const res = await change('not-my-password');
      expect(res.status).toBe(400);
      expect(problem(res).title).toBe('Auth.InvalidCurrentPassword');
    }
    expectTooMany(await change('not-my-password'));
    expectTooMany(await change(user.password));
    // Logging in is limited separately: the account can still sign in.
    expect((await login(user.email, user.password)).status).toBe(200);
  });
});

describe('invite acceptance', () => {
  it('answers 429 in the organization envelope once an address has had its failed acceptances', async () => {
    const address = newAddress();
    const accept = (token: string) =>
      h.http
        .post(`/api/organization/invites/${token}/accept`)
        .set('x-forwarded-for', address)
        .send({ email: uniqueEmail('invitee'), name: 'Invitee', password: 'a-long-password' });
    for (let i = 0; i < PER_ADDRESS; i++) {
      expectEnvelopeError(await accept(`oki_${'x'.repeat(32)}${i}`), 404, 'Invite.NotFound');
    }
    const org = await anOrganization(h);
    const invite = await anInviteToken(h, org);
    const refused = await accept(invite.token);
    expectEnvelopeError(refused, 429, 'Auth.TooManyAttempts');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('answers 429 once one invitee e-mail has had its failed acceptances, from any address', async () => {
    // Probing which e-mails have accounts (409 Invite.AccountExists) is limited like guessing passwords.
    const existing = await createUser(h);
    const org = await anOrganization(h);
    const invite = await anInviteToken(h, org, { maxUsageCount: 10 });
    const accept = () =>
      h.http
        .post(`/api/organization/invites/${invite.token}/accept`)
        .set('x-forwarded-for', newAddress())
        .send({ email: existing.email, name: 'Someone', password: 'a-long-password' });
    for (let i = 0; i < PER_ACCOUNT; i++) expectEnvelopeError(await accept(), 409, 'Invite.AccountExists');
    expectEnvelopeError(await accept(), 429, 'Auth.TooManyAttempts');
  });
});
