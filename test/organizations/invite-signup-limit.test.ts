// Accounts made by accepting invites are limited per client address. Any account can create an organization and
// issue itself an invite link of 10,000 uses, so before this one free account and a script made accounts without
// end: each with its own daily API quota, its own rating of every item (SPEC: one per account) and its own report.
import { signupsPerHour } from '../../shared/identity/signup-limits.js';
import { createActors, createDraft } from '../support/catalog-factory.js';
import { createHarness, type Harness } from '../support/harness.js';
import { bearer, createUser, uniqueEmail } from '../support/identity.js';
import { anInviteToken, anOrganization, expectEnvelopeError } from '../support/org-fixtures.js';

const LIMIT = 3;
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ ACCOUNT_SIGNUPS_PER_ADDRESS_PER_HOUR: String(LIMIT) });
});
afterAll(() => h.close());

const register = (token: string, email = uniqueEmail('sybil')) =>
  h.http
    .post(`/api/organization/invites/${token}/accept`)
    .send({ email, name: 'Sybil', password: 'sybil-password-123' });

async function aPublishedItem() {
  const actors = await createActors(h);
  const draft = await createDraft(h, actors, 'agent');
  const submitted = await h.http
    .post(`/api/v1/publisher/agent/${draft.id}/submit-review`)
    .set(bearer(actors.publisher.session))
    .send({});
  expect(submitted.status).toBe(200);
  const approved = await h.http
    .post(`/api/v1/moderation/agent/${draft.id}/approve`)
    .set(bearer(actors.moderator.session))
    .send({});
  expect(approved.status).toBe(200);
  return draft.slug as string;
}

it('one address registers at most the limit of accounts through invites; the next answers 429 with Retry-After', async () => {
  const slug = await aPublishedItem();
  const attacker = await createUser(h);
  const org = await anOrganization(h, attacker, 'Sybil farm');
  const invite = await anInviteToken(h, org, { maxUsageCount: 10_000 });

  const made = [];
  for (let i = 0; i < LIMIT; i++) {
    const email = uniqueEmail('sybil');
    const res = await register(invite.token, email);
    expect(res.status).toBe(201);
    const login = await h.http.post('/api/v1/auth/login').send({ email, password: 'sybil-password-123' });
    made.push(login.body.accessToken as string);
  }
  // Each account is one more rating of the item.
  for (const session of made) {
    const rated = await h.http.put(`/api/v1/agent/${slug}/rating`).set(bearer(session)).send({ score: 1 });
    expect(rated.status).toBe(200);
  }

  const refusedEmail = uniqueEmail('sybil');
  const refused = await register(invite.token, refusedEmail);
  expectEnvelopeError(refused, 429, 'Auth.TooManySignups');
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  // Nothing was made: no account, no use of the invite.
  expect(
    (await h.http.post('/api/v1/auth/login').send({ email: refusedEmail, password: 'sybil-password-123' })).status,
  ).toBe(401);
  const preview = await h.http.get(`/api/organization/invites/${invite.token}`);
  expect(preview.body.data.remainingUses).toBe(10_000 - LIMIT);
  const item = await h.http.get(`/api/v1/agent/${slug}`);
  expect(item.body.stats.ratingCount).toBe(LIMIT);
});

it('refused or failed acceptances use none of the allowance, and a signed-in account joining makes no account', async () => {
  const other = await createHarness({ ACCOUNT_SIGNUPS_PER_ADDRESS_PER_HOUR: '1' });
  try {
    const org = await anOrganization(other);
    const invite = await anInviteToken(other, org, { maxUsageCount: 10 });
    const accept = (body: Record<string, unknown>, token = invite.token) =>
      other.http.post(`/api/organization/invites/${token}/accept`).send(body);

    expect((await accept({ email: uniqueEmail(), name: 'Weak', password: 'short' })).status).toBe(400);
    expect(
      (await accept({ email: uniqueEmail(), name: 'Lost', password: 'long-enough-pw' }, 'oki_unknown')).status,
    ).toBe(404);
    expect((await accept({ email: org.admin.email, name: 'Taken', password: 'long-enough-pw' })).status).toBe(409);
    const member = await createUser(other);
    const joined = await other.http
      .post(`/api/organization/invites/${invite.token}/accept`)
      .set(bearer(member.session))
      .send({});
    expect(joined.status).toBe(201);

    expect((await accept({ email: uniqueEmail(), name: 'First', password: 'long-enough-pw' })).status).toBe(201);
    expectEnvelopeError(
      await accept({ email: uniqueEmail(), name: 'Second', password: 'long-enough-pw' }),
      429,
      'Auth.TooManySignups',
    );
  } finally {
    await other.close();
  }
});

it('allows 20 an hour in production by default, and none is counted elsewhere unless the setting says so', () => {
  const unset = { ...h.config, ACCOUNT_SIGNUPS_PER_ADDRESS_PER_HOUR: undefined };
  expect(signupsPerHour({ ...unset, NODE_ENV: 'production' })).toBe(20);
  expect(signupsPerHour({ ...unset, NODE_ENV: 'development' })).toBe(0);
  expect(signupsPerHour({ ...unset, NODE_ENV: 'test' })).toBe(0);
  expect(signupsPerHour({ ...unset, NODE_ENV: 'production', ACCOUNT_SIGNUPS_PER_ADDRESS_PER_HOUR: 0 })).toBe(0);
  expect(signupsPerHour(h.config)).toBe(LIMIT);
});
