import { createInviteToken } from '../../shared/organizations/invite-tokens.js';
import { createHarness, type Harness } from '../support/harness.js';
import { bearer, createUser, uniqueEmail } from '../support/identity.js';
import { anInviteToken, anOrganization, expectEnvelopeError, inOrg, type TestOrg } from '../support/org-fixtures.js';

let h: Harness;
let org: TestOrg;
beforeAll(async () => {
  h = await createHarness({ PUBLIC_BASE_URL: 'https://hub.example.test/' });
  org = await anOrganization(h);
});
afterAll(async () => h.close());

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

describe('POST /api/organization/invite-tokens', () => {
  it('creates a token shown once, with an invite URL built from PUBLIC_BASE_URL', async () => {
    const expiresAt = inAnHour();
    const res = await h.http
      .post('/api/organization/invite-tokens')
      .set(inOrg(org.admin, org.id))
      .send({ description: 'Team onboarding', expiresAt, maxUsageCount: 3 });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      code: 201,
      error: null,
      data: {
        id: expect.any(String),
        organizationId: org.id,
        description: 'Team onboarding',
        role: 'Member',
        token: expect.stringMatching(/^oki_[0-9A-Za-z]{32}$/),
        inviteUrl: `https://hub.example.test/api/organization/invites/${res.body.data.token}`,
        maxUsageCount: 3,
        usageCount: 0,
        expiresAt,
        createdAt: expect.any(String),
      },
    });
    const list = await h.http.get('/api/organization/invite-tokens').set(inOrg(org.admin, org.id));
    const listed = list.body.data.find((t: { id: string }) => t.id === res.body.data.id);
    expect(listed).toMatchObject({ maxUsageCount: 3, usageCount: 0 });
    expect(listed.token).toBeUndefined();
    expect(listed.inviteUrl).toBeUndefined();
  });

  it('defaults to one use for seven days', async () => {
    const res = await h.http.post('/api/organization/invite-tokens').set(inOrg(org.admin, org.id)).send({});
    expect(res.body.data.maxUsageCount).toBe(1);
    const days = (Date.parse(res.body.data.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThan(7.01);
  });

  it('binds a token to an e-mail (any letter case): that address may accept it, another one gets 403', async () => {
    const email = uniqueEmail('bound');
    const res = await h.http
      .post('/api/organization/invite-tokens')
      .set(inOrg(org.admin, org.id))
      .send({ email: email.toUpperCase() });
    expect(res.status).toBe(201);
    expect(res.body.data.email).toBe(email);
    const preview = await h.http.get(`/api/organization/invites/${res.body.data.token}`);
    expect(preview.body.data.email).toBe(email);
    const accept = (as: string) =>
      h.http
        .post(`/api/organization/invites/${res.body.data.token}/accept`)
        .send({ email: as, name: 'Bound Person', password: 'a-long-enough-password' });
    expectEnvelopeError(await accept(uniqueEmail('other')), 403, 'Invite.EmailMismatch');
    expect((await accept(email)).status).toBe(201);
  });

  it.each([
    { email: 'not-an-address' },
    { maxUsageCount: 0 },
    { maxUsageCount: 1.5 },
    { expiresAt: 'tomorrow' },
    { expiresAt: '2001-01-01T00:00:00Z' },
    { role: 'Owner' },
  ])('refuses %p with 400 Invite.Invalid', async (body) => {
    const res = await h.http.post('/api/organization/invite-tokens').set(inOrg(org.admin, org.id)).send(body);
    expectEnvelopeError(res, 400, 'Invite.Invalid');
  });
});

describe('POST /api/organization/invites/{token}/accept', () => {
  it('registers a new account as a Member, who can then sign in', async () => {
    const invite = await anInviteToken(h, org);
    const preview = await h.http.get(`/api/organization/invites/${invite.token}`);
    expect(preview.body.data).toMatchObject({
      organizationId: org.id,
      organizationName: 'Acme',
      role: 'Member',
      remainingUses: 1,
    });

    const email = uniqueEmail('invitee');
    const res = await h.http
      .post(`/api/organization/invites/${invite.token}/accept`)
      .send({ email, name: 'New Person', password: 'a-long-enough-password' });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      organizationId: org.id,
      organizationName: 'Acme',
      role: 'Member',
      userId: expect.any(String),
      email,
      accountCreated: true,
    });
    const login = await h.http.post('/api/v1/auth/login').send({ email, password: 'a-long-enough-password' });
    expect(login.status).toBe(200);
    const members = await h.http.get('/api/organization/members').set(bearer(login.body.accessToken));
    expect(members.body.data.map((m: { email: string }) => m.email)).toContain(email);
  });

  it('adds an existing, signed-in account with the token’s role', async () => {
    const invite = await anInviteToken(h, org, { role: 'Admin' });
    const user = await createUser(h);
    const res = await h.http.post(`/api/organization/invites/${invite.token}/accept`).set(bearer(user.session));
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ userId: user.accountId, role: 'Admin', accountCreated: false });
  });

  it('asks an existing account to sign in instead of registering again (409), without using the token', async () => {
    const invite = await anInviteToken(h, org);
    const user = await createUser(h);
    const res = await h.http
      .post(`/api/organization/invites/${invite.token}/accept`)
      .send({ email: user.email.toUpperCase(), name: 'Again', password: 'a-long-enough-password' });
    expectEnvelopeError(res, 409, 'Invite.AccountExists');
    expect((await h.http.get(`/api/organization/invites/${invite.token}`)).body.data.remainingUses).toBe(1);
  });

  it('answers 409 Invite.AlreadyMember for a member, without using the token', async () => {
    const invite = await anInviteToken(h, org);
    const res = await h.http.post(`/api/organization/invites/${invite.token}/accept`).set(bearer(org.admin.session));
    expectEnvelopeError(res, 409, 'Invite.AlreadyMember');
    expect((await h.http.get(`/api/organization/invites/${invite.token}`)).body.data.remainingUses).toBe(1);
  });

  it('validates the registration body and the password strength', async () => {
    const invite = await anInviteToken(h, org);
    const bad = await h.http
      .post(`/api/organization/invites/${invite.token}/accept`)
      .send({ email: 'nope', name: 'X', password: 'a-long-enough-password' });
    expectEnvelopeError(bad, 400, 'Invite.Invalid');
    const weak = await h.http
      .post(`/api/organization/invites/${invite.token}/accept`)
      .send({ email: uniqueEmail(), name: 'X', password: 'short' });
    expectEnvelopeError(weak, 400, 'Auth.InvalidPassword');
  });

  it('answers 410 Invite.Expired for a used-up token', async () => {
    const invite = await anInviteToken(h, org, { maxUsageCount: 1 });
    const first = await createUser(h);
    const second = await createUser(h);
    expect(
      (await h.http.post(`/api/organization/invites/${invite.token}/accept`).set(bearer(first.session))).status,
    ).toBe(201);
    const res = await h.http.post(`/api/organization/invites/${invite.token}/accept`).set(bearer(second.session));
    expectEnvelopeError(res, 410, 'Invite.Expired');
    expectEnvelopeError(await h.http.get(`/api/organization/invites/${invite.token}`), 410, 'Invite.Expired');
  });

  it('answers 410 Invite.Expired once the token expired', async () => {
    // Issued an hour before it expired, an hour ago: a token that had to outlive its creation by a moment failed on a
    // busy machine whenever the request took longer (400, expiresAt must be in the future).
    const hour = 3_600_000;
    const { token } = await createInviteToken(
      h.ctx.db,
      h.config,
      org.id,
      org.admin.accountId,
      { expiresAt: new Date(Date.now() - hour), maxUsageCount: 1 },
      new Date(Date.now() - 2 * hour),
    );
    const user = await createUser(h);
    const res = await h.http.post(`/api/organization/invites/${token}/accept`).set(bearer(user.session));
    expectEnvelopeError(res, 410, 'Invite.Expired');
  });

  it('answers 404 Invite.NotFound for an unknown token', async () => {
    const user = await createUser(h);
    const res = await h.http.post('/api/organization/invites/oki_unknown/accept').set(bearer(user.session));
    expectEnvelopeError(res, 404, 'Invite.NotFound');
  });

  it('admits exactly N of N+1 concurrent accepts of an N-use token', async () => {
    const n = 5;
    const invite = await anInviteToken(h, org, { maxUsageCount: n });
    const users = await Promise.all(Array.from({ length: n + 1 }, () => createUser(h)));
    const results = await Promise.all(
      users.map((u) => h.http.post(`/api/organization/invites/${invite.token}/accept`).set(bearer(u.session))),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(n).fill(201), 410]);
    const list = await h.http.get('/api/organization/invite-tokens').set(inOrg(org.admin, org.id));
    expect(list.body.data.find((t: { id: string }) => t.id === invite.id).usageCount).toBe(n);
    const joined = results.filter((r) => r.status === 201).map((r) => r.body.data.userId);
    const members = await h.http.get('/api/organization/members?size=100').set(inOrg(org.admin, org.id));
    const memberIds = members.body.data.map((m: { userId: string }) => m.userId);
    const loser = users.find((u) => !joined.includes(u.accountId));
    expect(memberIds).toEqual(expect.arrayContaining(joined));
    expect(memberIds).not.toContain(loser?.accountId);
  });
});

describe('DELETE /api/organization/invite-tokens/{id}', () => {
  it('revokes a token: accepting it answers 410', async () => {
    const invite = await anInviteToken(h, org, { maxUsageCount: 10 });
    const res = await h.http.delete(`/api/organization/invite-tokens/${invite.id}`).set(inOrg(org.admin, org.id));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: invite.id, revokedAt: expect.any(String) });
    const again = await h.http.delete(`/api/organization/invite-tokens/${invite.id}`).set(inOrg(org.admin, org.id));
    expect(again.body.data.revokedAt).toBe(res.body.data.revokedAt);
    const user = await createUser(h);
    const accept = await h.http.post(`/api/organization/invites/${invite.token}/accept`).set(bearer(user.session));
    expectEnvelopeError(accept, 410, 'Invite.Expired');
  });

  it('answers 404 for a token of another organization or no token at all', async () => {
    const other = await anOrganization(h);
    const theirs = await anInviteToken(h, other);
    for (const id of [theirs.id, 'nope', '00000000-0000-4000-8000-000000000000']) {
      const res = await h.http.delete(`/api/organization/invite-tokens/${id}`).set(inOrg(org.admin, org.id));
      expectEnvelopeError(res, 404, 'Invite.NotFound');
    }
  });
});
