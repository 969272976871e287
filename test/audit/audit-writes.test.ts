// Each audited action writes exactly one audit row, in the transaction of the change; a failed action writes none;
// the table refuses UPDATE, DELETE and TRUNCATE.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { auditLog } from '../../shared/db/schema/index.js';
import { seedSystemTemplates } from '../../shared/organizations/project-templates.js';
import { createHarness, type Harness } from '../support/harness.js';
import { bearer, createUser, type TestUser } from '../support/identity.js';
import {
  aMember,
  anInviteToken,
  anOrganization,
  aProject,
  expectEnvelopeError,
  inOrg,
  type TestOrg,
} from '../support/org-fixtures.js';
import { usd } from '../support/wallet-factory.js';
import { spend } from '../support/wallet-spend.js';

let h: Harness;
let platformAdmin: TestUser;
beforeAll(async () => {
  h = await createHarness({ TRUST_PROXY: 'true' });
  platformAdmin = await createUser(h, { roles: ['Admin'] });
});
afterAll(async () => h.close());

const rowsFor = (targetId: string) =>
  h.ctx.db.select().from(auditLog).where(eq(auditLog.targetId, targetId)).orderBy(auditLog.occurredAt);

/** An organization whose Admin is also a platform Admin, so it may recharge whoever the recharge is for. */
const anOrganizationOfAdmin = async () => anOrganization(h, await createUser(h, { roles: ['Admin'] }));

describe('account roles', () => {
  it('records who set which roles, with the credential, the address and the correlation id', async () => {
    const user = await createUser(h, { roles: ['Publisher'] });
    const res = await h.http
      .put(`/api/v1/admin/accounts/${user.accountId}/roles`)
      .set(bearer(platformAdmin.session))
      .set('x-forwarded-for', '203.0.113.77')
      .send({ roles: ['Publisher', 'Moderator'] });
    expect(res.status).toBe(200);
    const rows = await rowsFor(user.accountId);
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row).toMatchObject({
      action: 'account.roles.set',
      actorAccountId: platformAdmin.accountId,
      actorCredentialKind: 'session',
      organizationId: null,
      targetType: 'account',
      before: { roles: ['Publisher'] },
      after: { roles: ['Publisher', 'Moderator'] },
      clientAddress: '203.0.113.77',
      correlationId: res.headers['x-correlation-id'],
    });
    expect(row?.actorCredentialId).toEqual(expect.any(String));
  });

  it('records the API key an Admin used', async () => {
    const user = await createUser(h);
    await h.http
      .put(`/api/v1/admin/accounts/${user.accountId}/roles`)
      .set(bearer(platformAdmin.apiKey))
      .send({ roles: ['Publisher'] });
    const [row] = await rowsFor(user.accountId);
    expect(row?.actorCredentialKind).toBe('api-key');
    const keys = await h.http.get('/api/v1/api-keys').set(bearer(platformAdmin.session));
    expect(keys.body.map((k: { id: string }) => k.id)).toContain(row?.actorCredentialId);
  });

  it('writes nothing for a refused change', async () => {
    const user = await createUser(h);
    const bad = await h.http
      .put(`/api/v1/admin/accounts/${user.accountId}/roles`)
      .set(bearer(platformAdmin.session))
      .send({ roles: ['Emperor'] });
    expect(bad.status).toBe(400);
    const stranger = await h.http
      .put(`/api/v1/admin/accounts/${user.accountId}/roles`)
      .set(bearer(user.session))
      .send({ roles: ['Admin'] });
    expect(stranger.status).toBe(403);
    const missing = randomUUID();
    const gone = await h.http
      .put(`/api/v1/admin/accounts/${missing}/roles`)
      .set(bearer(platformAdmin.session))
      .send({ roles: ['Publisher'] });
    expect(gone.status).toBe(404);
    expect(await rowsFor(user.accountId)).toEqual([]);
    expect(await rowsFor(missing)).toEqual([]);
  });
});

describe('account provisioning', () => {
  it('records who provisioned an account with which roles (a new Admin is never silent); a refused one writes none', async () => {
    const email = `provisioned-${randomUUID()}@example.test`;
    const provision = () =>
      h.http
        .post('/api/v1/admin/accounts')
        .set(bearer(platformAdmin.session))
        .send({ email, name: 'Second Admin', password: 'a-strong-password-1', roles: ['Admin'] });
    const res = await provision();
    expect(res.status).toBe(200);
    const created = {
      action: 'account.create',
      actorAccountId: platformAdmin.accountId,
      actorCredentialKind: 'session',
      organizationId: null,
      targetType: 'account',
      before: null,
      after: { roles: ['Admin'] },
      correlationId: res.headers['x-correlation-id'],
    };
    expect(await rowsFor(res.body.id)).toEqual([expect.objectContaining(created)]);
    expect((await provision()).status).toBe(409);
    expect(await rowsFor(res.body.id)).toEqual([expect.objectContaining(created)]);
    const listed = await h.http.get('/api/v1/admin/audit-log?action=account.create').set(bearer(platformAdmin.session));
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((e: { target: { id: string } }) => e.target.id)).toContain(res.body.id);
  });
});

describe('quota requests', () => {
  it.each([
    ['approve', 'quota_request.approve', 5000],
    ['reject', 'quota_request.reject', 1000],
  ])('records a decision (%s) once; deciding again writes nothing', async (verb, action, quotaAfter) => {
    const user = await createUser(h);
    const submitted = await h.http
      .post('/api/v1/api-keys/quota-requests')
      .set(bearer(user.session))
      .send({ requestedQuota: 5000, reason: 'more' });
    const id = submitted.body.id as string;
    const url = `/api/v1/admin/quota-requests/${id}/${verb}`;
    expect((await h.http.post(url).set(bearer(platformAdmin.session))).status).toBe(200);
    expect((await h.http.post(url).set(bearer(platformAdmin.session))).status).toBe(409);
    const rows = await rowsFor(id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action,
      targetType: 'quota_request',
      before: { status: 'pending', accountId: user.accountId, requestedQuota: 5000, dailyQuota: 1000 },
      after: { dailyQuota: quotaAfter },
    });
  });
});

describe('wallet', () => {
  it('records a recharge once, not its replay, nor a refused one', async () => {
    const org = await anOrganizationOfAdmin();
    const recharge = (body: object) =>
      h.http
        .post('/api/organization/wallet/recharge')
        .set(inOrg(org.admin, org.id))
        .set('idempotency-key', 'audit-once')
        .send(body);
    expect((await recharge({ amount: 12.5, description: 'top up' })).status).toBe(201);
    expect((await recharge({ amount: 12.5, description: 'top up' })).status).toBe(200);
    expect((await recharge({ amount: -1 })).status).toBe(400);
    const rows = await rowsFor(org.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: 'wallet.recharge',
      organizationId: org.id,
      actorAccountId: org.admin.accountId,
      targetType: 'wallet',
      before: { balance: '0' },
      after: { balance: '12.5', amount: '12.5', description: 'top up' },
    });
  });

  it('records a refund once, not its replay, nor one that is refused', async () => {
    const org = await anOrganizationOfAdmin();
    await h.http.post('/api/organization/wallet/recharge').set(inOrg(org.admin, org.id)).send({ amount: 5 });
    const { record } = await spend(h.ctx, org.id, usd('2'));
    const refund = (body: object) =>
      h.http.post(`/api/organization/wallet/records/${record.id}/refund`).set(bearer(platformAdmin.session)).send(body);
    expect((await refund({ amount: 3, reason: 'too much' })).status).toBe(400);
    expect((await refund({ amount: 1.5, reason: 'outage' })).status).toBe(201);
    expect((await refund({ amount: 1.5, reason: 'outage' })).status).toBe(200);
    expect((await refund({ amount: 0.5, reason: 'again' })).status).toBe(409);
    const rows = await rowsFor(record.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: 'wallet.refund',
      organizationId: org.id,
      actorAccountId: platformAdmin.accountId,
      targetType: 'wallet_record',
      before: { balance: '3' },
      after: { balance: '4.5', amount: '1.5', description: 'outage' },
    });
  });
});

describe('top-up codes', () => {
  const issue = (body: object) =>
    h.http.post('/api/v1/admin/top-up-codes').set(bearer(platformAdmin.session)).send(body);

  it('records an issue of codes once per batch, and nothing for a refused one', async () => {
    expect((await issue({ amount: 5, count: 0 })).status).toBe(400);
    const issued = await issue({ amount: 5, count: 2 });
    expect(issued.status).toBe(201);
    const rows = await rowsFor(issued.body.batchId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: 'top_up_code.issue',
      actorAccountId: platformAdmin.accountId,
      organizationId: null,
      targetType: 'top_up_code_batch',
      after: { amount: '5', count: 2, codeIds: issued.body.codes.map((c: { id: string }) => c.id) },
    });
  });

  it('records a redemption once under the organization, not its replay, nor a refused one', async () => {
    const org = await anOrganization(h);
    const [code] = (await issue({ amount: 7, count: 1 })).body.codes;
    const redeem = (value: string) =>
      h.http.post('/api/organization/wallet/redeem').set(inOrg(org.admin, org.id)).send({ code: value });
    expect((await redeem('OTC-NOT-A-CODE')).status).toBe(404);
    expect((await redeem(code.code)).status).toBe(201);
    expect((await redeem(code.code)).status).toBe(200);
    const rows = await rowsFor(code.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: 'wallet.redeem',
      organizationId: org.id,
      actorAccountId: org.admin.accountId,
      targetType: 'top_up_code',
      before: { balance: '0' },
      after: { balance: '7', amount: '7' },
    });
  });

  it('records a revocation once; revoking again or a redeemed code records nothing', async () => {
    const [code] = (await issue({ amount: 1, count: 1 })).body.codes;
    const revoke = (id: string) =>
      h.http.post(`/api/v1/admin/top-up-codes/${id}/revoke`).set(bearer(platformAdmin.session)).send({});
    expect((await revoke(code.id)).status).toBe(200);
    expect((await revoke(code.id)).status).toBe(200);
    const rows = await rowsFor(code.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: 'top_up_code.revoke', targetType: 'top_up_code' });
  });
});

describe('organization members', () => {
  let org: TestOrg;
  beforeAll(async () => {
    org = await anOrganization(h);
  });

  it('records a role change and a removal once each', async () => {
    const member = await aMember(h, org);
    const promote = await h.http
      .put(`/api/organization/members/${member.accountId}/role`)
      .set(inOrg(org.admin, org.id))
      .send({ role: 'Admin' });
    expect(promote.status).toBe(200);
    const removed = await h.http.delete(`/api/organization/members/${member.accountId}`).set(inOrg(org.admin, org.id));
    expect(removed.status).toBe(200);
    const rows = await rowsFor(member.accountId);
    expect(rows.map((r) => r.action)).toEqual(['member.join', 'member.role.set', 'member.remove']);
    expect(rows[1]).toMatchObject({ organizationId: org.id, before: { role: 'Member' }, after: { role: 'Admin' } });
    expect(rows[2]).toMatchObject({ organizationId: org.id, before: { role: 'Admin' }, after: { deletedApiKeys: [] } });
  });

  it('writes nothing when the change is refused', async () => {
    const member = await aMember(h, org);
    const notAdmin = await h.http
      .put(`/api/organization/members/${org.admin.accountId}/role`)
      .set(inOrg(member, org.id))
      .send({ role: 'Member' });
    expectEnvelopeError(notAdmin, 403, 'Organization.Forbidden');
    const solo = await anOrganization(h);
    const lastAdmin = await h.http
      .delete(`/api/organization/members/${solo.admin.accountId}`)
      .set(inOrg(solo.admin, solo.id));
    expectEnvelopeError(lastAdmin, 409, 'Member.LastAdmin');
    expect(await rowsFor(org.admin.accountId)).toEqual([]);
    expect(await rowsFor(solo.admin.accountId)).toEqual([]);
  });
});

describe('project members', () => {
  it('records a project role given, changed and taken away', async () => {
    const org = await anOrganization(h);
    const project = await aProject(h, org);
    const member = await aMember(h, org);
    const put = (role: string) =>
      h.http
        .post(`/api/projects/${project.id}/members`)
        .set(inOrg(org.admin, org.id))
        .send({ userId: member.accountId, role });
    expect((await put('Member')).status).toBe(201);
    expect((await put('Owner')).status).toBe(200);
    expect((await put('Boss')).status).toBe(400);
    const removed = await h.http
      .delete(`/api/projects/${project.id}/members/${member.accountId}`)
      .set(inOrg(org.admin, org.id));
    expect(removed.status).toBe(200);
    const missing = await h.http
      .delete(`/api/projects/${project.id}/members/${member.accountId}`)
      .set(inOrg(org.admin, org.id));
    expect(missing.status).toBe(404);
    const rows = await rowsFor(`${project.id}/${member.accountId}`);
    expect(rows.map((r) => [r.action, r.before, r.after])).toEqual([
      ['project_member.role.set', null, { role: 'Member' }],
      ['project_member.role.set', { role: 'Member' }, { role: 'Owner' }],
      ['project_member.remove', { role: 'Owner' }, null],
    ]);
    expect(rows.every((r) => r.organizationId === org.id)).toBe(true);
  });
});

describe('API keys and invite tokens', () => {
  it("records a key's creation and its deletion once each, under the organization of its project", async () => {
    const org = await anOrganization(h);
    const project = await aProject(h, org);
    const created = await h.http
      .post('/api/v1/api-keys')
      .set(bearer(org.admin.session))
      .send({ name: 'doomed', projectId: project.id });
    const keyId = created.body.id as string;
    expect((await h.http.delete(`/api/v1/api-keys/${keyId}`).set(bearer(org.admin.session))).status).toBe(200);
    expect((await h.http.delete(`/api/v1/api-keys/${keyId}`).set(bearer(org.admin.session))).status).toBe(404);
    const rows = await rowsFor(keyId);
    expect(rows.map((r) => r.action)).toEqual(['api_key.create', 'api_key.delete']);
    expect(rows[0]).toMatchObject({
      organizationId: org.id,
      actorAccountId: org.admin.accountId,
      after: { accountId: org.admin.accountId, name: 'doomed', prefix: created.body.prefix, projectId: project.id },
    });
    expect(rows[1]).toMatchObject({
      organizationId: org.id,
      actorAccountId: org.admin.accountId,
      before: { name: 'doomed', projectId: project.id, status: 'enabled' },
    });
  });

  it("records an account key (no organization), a template project's key, and nothing for a refused key", async () => {
    const user = await createUser(h);
    const own = await h.http.post('/api/v1/api-keys').set(bearer(user.session)).send({ name: 'laptop' });
    expect(own.status).toBe(200);
    expect(await rowsFor(own.body.id)).toMatchObject([
      { action: 'api_key.create', organizationId: null, actorAccountId: user.accountId, after: { projectId: null } },
    ]);

    const org = await anOrganization(h);
    await seedSystemTemplates(h.ctx.db);
    const templates = await h.http.get('/api/project-templates').set(inOrg(org.admin, org.id));
    const pro = templates.body.data.find((t: { name: string }) => t.name === 'Professional');
    const made = await h.http
      .post('/api/projects/from-template')
      .set(inOrg(org.admin, org.id))
      .send({ name: 'Templated', templateId: pro.id });
    expect(made.status).toBe(201);
    const keyId = made.body.data.apiKeys[0].id as string;
    expect(await rowsFor(keyId)).toMatchObject([
      { action: 'api_key.create', organizationId: org.id, after: { projectId: made.body.data.id } },
    ]);

    const refused = await h.http
      .post('/api/v1/api-keys')
      .set(bearer(user.session))
      .send({ name: 'elsewhere', projectId: made.body.data.id });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    const creations = await h.ctx.db.select().from(auditLog).where(eq(auditLog.actorAccountId, user.accountId));
    expect(creations).toHaveLength(1);
  });

  it('records an invite token issued, with its role, uses and expiry (an Admin link is never silent); a refused one writes none', async () => {
    const org = await anOrganization(h);
    const expiresAt = '2099-01-01T00:00:00.000Z';
    const issued = await h.http
      .post('/api/organization/invite-tokens')
      .set(inOrg(org.admin, org.id))
      .send({ role: 'Admin', maxUsageCount: 10_000, expiresAt, email: 'Someone@Example.com' });
    expect(issued.status).toBe(201);
    const rows = await rowsFor(issued.body.data.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: 'invite_token.issue',
      organizationId: org.id,
      actorAccountId: org.admin.accountId,
      actorCredentialKind: 'session',
      targetType: 'invite_token',
      after: { role: 'Admin', maxUsageCount: 10_000, expiresAt, emailBound: true },
    });
    // Rows name ids only, never e-mails; nor the token, which is shown once.
    expect(JSON.stringify(rows[0])).not.toMatch(/example\.com|oki_/i);

    const member = await aMember(h, org);
    const refused = await h.http
      .post('/api/organization/invite-tokens')
      .set(inOrg(member, org.id))
      .send({ role: 'Admin' });
    expectEnvelopeError(refused, 403, 'Organization.Forbidden');
    const past = await h.http
      .post('/api/organization/invite-tokens')
      .set(inOrg(org.admin, org.id))
      .send({ expiresAt: '2001-01-01T00:00:00Z' });
    expect(past.status).toBe(400);
    const issues = await h.ctx.db.select().from(auditLog).where(eq(auditLog.organizationId, org.id));
    // The token above, and the one aMember's invite used.
    expect(issues.filter((r) => r.action === 'invite_token.issue')).toHaveLength(2);
  });

  it('records a bulk invite once, naming the tokens it issued and how many of each role; a refused file writes none', async () => {
    const org = await anOrganization(h);
    const upload = (csv: string) =>
      h.http
        .post('/api/organization/bulk-invite')
        .set(inOrg(org.admin, org.id))
        .attach('file', Buffer.from(csv), { filename: 'people.csv', contentType: 'text/csv' });
    expect((await upload('email,name\na@example.com,A\n')).status).toBe(400);
    const res = await upload('email,name,role\na@example.com,A,Admin\nb@example.com,B,Member\nbad,C,Member\n');
    expect(res.status).toBe(201);
    const rows = await rowsFor(res.body.data.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: 'invite_token.issue',
      organizationId: org.id,
      actorAccountId: org.admin.accountId,
      targetType: 'bulk_import',
      after: { count: 2, admins: 1, maxUsageCount: 1, emailBound: true, expiresAt: expect.any(String) },
    });
    const tokens = await h.http.get('/api/organization/invite-tokens').set(inOrg(org.admin, org.id));
    const after = rows[0]?.after as { inviteTokenIds: string[] } | undefined;
    expect(new Set(after?.inviteTokenIds)).toEqual(new Set(tokens.body.data.map((t: { id: string }) => t.id)));
    const all = await h.ctx.db.select().from(auditLog).where(eq(auditLog.organizationId, org.id));
    expect(all).toHaveLength(1);
  });

  it('records an alert settings change with what changed, never the webhook path, header values or the secret', async () => {
    const org = await anOrganization(h);
    const url = '/api/organization/wallet/alerts';
    const hook = 'https://93.184.216.34/services/T000/receiver-own-secret?token=query-secret';
    const changed = await h.http
      .put(url)
      .set(inOrg(org.admin, org.id))
      .send({ webhookUrl: hook, customHeaders: { 'X-Token': 'header-secret' }, thresholds: [7.5, 2] });
    expect(changed.status).toBe(200);
    const rotated = await h.http.put(url).set(inOrg(org.admin, org.id)).send({ rotateWebhookSecret: true });
    expect(rotated.status).toBe(200);
    const member = await aMember(h, org);
    expect((await h.http.put(url).set(inOrg(member, org.id)).send({ webhookUrl: null })).status).toBe(403);

    const rows = (await rowsFor(org.id)).filter((r) => r.action === 'alert_settings.update');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      organizationId: org.id,
      actorAccountId: org.admin.accountId,
      actorCredentialKind: 'session',
      targetType: 'wallet_alert_settings',
      before: { webhookOrigin: null, customHeaderNames: [], thresholds: ['10', '5', '3', '1'] },
      after: { webhookOrigin: 'https://93.184.216.34', customHeaderNames: ['X-Token'], thresholds: ['7.5', '2'] },
    });
    expect(rows[1]).toMatchObject({ before: {}, after: { webhookSecretRotated: true } });
    const written = JSON.stringify(rows);
    expect(written).not.toMatch(/receiver-own-secret|query-secret|header-secret|whsec_/);
  });

  it('records an invite revocation once; revoking again records nothing', async () => {
    const org = await anOrganization(h);
    const invite = await anInviteToken(h, org);
    for (let i = 0; i < 2; i++) {
      const res = await h.http.delete(`/api/organization/invite-tokens/${invite.id}`).set(inOrg(org.admin, org.id));
      expect(res.status).toBe(200);
    }
    const rows = (await rowsFor(invite.id)).filter((r) => r.action !== 'invite_token.issue');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: 'invite_token.revoke',
      organizationId: org.id,
      after: { revokedAt: expect.any(String) },
    });
  });
});

describe('joining by invite', () => {
  it('records who joined with which role through which invite; a registration acts with the invite link itself', async () => {
    const org = await anOrganization(h);
    const invite = await anInviteToken(h, org, { role: 'Admin', maxUsageCount: 3 });
    const accept = `/api/organization/invites/${invite.token}/accept`;
    const registered = await h.http
      .post(accept)
      .set('x-forwarded-for', '198.51.100.9')
      .send({ email: `joiner-${randomUUID()}@example.com`, name: 'Joiner', password: 'correct horse battery staple' });
    expect(registered.status).toBe(201);
    const user = await createUser(h);
    const signedIn = await h.http.post(accept).set(bearer(user.session)).send({});
    expect(signedIn.status).toBe(201);
    // Refused acceptances write nothing: already a member, and a revoked invite.
    expectEnvelopeError(await h.http.post(accept).set(bearer(user.session)).send({}), 409, 'Invite.AlreadyMember');
    await h.http.delete(`/api/organization/invite-tokens/${invite.id}`).set(inOrg(org.admin, org.id));
    const late = await createUser(h);
    expectEnvelopeError(await h.http.post(accept).set(bearer(late.session)).send({}), 410, 'Invite.Expired');

    const joins = (await rowsFor(registered.body.data.userId)).concat(await rowsFor(user.accountId));
    expect(joins).toHaveLength(2);
    expect(joins[0]).toMatchObject({
      action: 'member.join',
      organizationId: org.id,
      actorAccountId: registered.body.data.userId,
      actorCredentialKind: 'invite',
      actorCredentialId: invite.id,
      clientAddress: '198.51.100.9',
      targetType: 'account',
      after: { role: 'Admin', inviteTokenId: invite.id, accountCreated: true },
    });
    expect(joins[1]).toMatchObject({
      action: 'member.join',
      actorAccountId: user.accountId,
      actorCredentialKind: 'session',
      after: { role: 'Admin', inviteTokenId: invite.id, accountCreated: false },
    });
    expect(JSON.stringify(joins)).not.toMatch(/example\.com/);
    expect(JSON.stringify(joins)).not.toContain(invite.token);
    const log = await h.http.get('/api/organization/audit-log?action=member.join').set(inOrg(org.admin, org.id));
    expect(log.body.total).toBe(2);
    expect(log.body.data.map((e: { actor: { credential: { kind: string } } }) => e.actor.credential.kind)).toEqual([
      'session',
      'invite',
    ]);
  });
});

describe('the table', () => {
  it('refuses UPDATE, DELETE and TRUNCATE (append-only, enforced by PostgreSQL)', async () => {
    const user = await createUser(h);
    await h.http
      .put(`/api/v1/admin/accounts/${user.accountId}/roles`)
      .set(bearer(platformAdmin.session))
      .send({ roles: ['Moderator'] });
    const [row] = await rowsFor(user.accountId);
    const id = row?.id as string;
    await expect(h.ctx.db.update(auditLog).set({ action: 'forged' }).where(eq(auditLog.id, id))).rejects.toThrow();
    await expect(h.ctx.db.delete(auditLog).where(eq(auditLog.id, id))).rejects.toThrow();
    await expect(h.ctx.pool.query('truncate audit_log')).rejects.toThrow(/append-only/);
    expect(await rowsFor(user.accountId)).toEqual([row]);
  });
});
