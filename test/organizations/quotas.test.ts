import { quotaCountersOf } from '../../shared/organizations/project-quotas.js';
import { createHarness, type Harness } from '../support/harness.js';
import { bearer } from '../support/identity.js';
import { aMember, anOrganization, aProject, expectEnvelopeError, type TestOrg } from '../support/org-fixtures.js';

let h: Harness;
let org: TestOrg;
beforeAll(async () => {
  h = await createHarness();
  org = await anOrganization(h);
});
afterAll(async () => h.close());

const postQuota = (projectId: string, body: unknown, session = org.admin.session) =>
  h.http
    .post(`/api/projects/${projectId}/quota`)
    .set(bearer(session))
    .send(body as object);

describe('POST /api/projects/{projectId}/quota', () => {
  it('configures the quota and answers the ProjectQuota', async () => {
    const project = await aProject(h, org);
    const res = await postQuota(project.id, {
      dailyRequestLimit: 100,
      dailyTokenLimit: 50_000,
      monthlyRequestLimit: 2_000,
      monthlyTokenLimit: 1_000_000,
      requestsPerMinuteLimit: 10,
      enforceQuota: true,
      customResetDay: 15,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      code: 200,
      error: null,
      data: {
        projectId: project.id,
        dailyRequestLimit: 100,
        dailyTokenLimit: 50_000,
        monthlyRequestLimit: 2_000,
        monthlyTokenLimit: 1_000_000,
        requestsPerMinuteLimit: 10,
        enforceQuota: true,
        customResetDay: 15,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    });
    const read = await h.http.get(`/api/projects/${project.id}/quota`).set(bearer(org.admin.session));
    expect(read.body.data).toEqual(res.body.data);
  });

  it('keeps absent fields, removes a limit set to null, and defaults to enforced with reset day 1', async () => {
    const project = await aProject(h, org);
    const created = await postQuota(project.id, { dailyRequestLimit: 5 });
    expect(created.body.data).toMatchObject({ dailyRequestLimit: 5, enforceQuota: true, customResetDay: 1 });
    const updated = await postQuota(project.id, { monthlyRequestLimit: 50 });
    expect(updated.body.data).toMatchObject({ dailyRequestLimit: 5, monthlyRequestLimit: 50 });
    const cleared = await postQuota(project.id, { dailyRequestLimit: null });
    expect(cleared.body.data.dailyRequestLimit).toBeUndefined();
    expect(cleared.body.data.monthlyRequestLimit).toBe(50);
  });

  it.each([
    { customResetDay: 0 },
    { customResetDay: 29 },
    { customResetDay: 1.5 },
    { dailyRequestLimit: -1 },
    { monthlyTokenLimit: 2.5 },
    { requestsPerMinuteLimit: '10' },
    { enforceQuota: 'yes' },
    { dailyLimit: 10 },
  ])('refuses %p with 400 Quota.Invalid', async (body) => {
    const project = await aProject(h, org);
    expectEnvelopeError(await postQuota(project.id, body), 400, 'Quota.Invalid');
  });

  it('lets the project’s Owner configure it even as an organization Member', async () => {
    const owner = await aMember(h, org);
    const project = await aProject(h, org);
    await h.http
      .post(`/api/projects/${project.id}/members`)
      .set(bearer(org.admin.session))
      .send({ userId: owner.accountId, role: 'Owner' })
      .expect(201);
    expect((await postQuota(project.id, { dailyRequestLimit: 1 }, owner.session)).status).toBe(200);
  });
});

describe('GET /api/projects/{projectId}/quota', () => {
  it('answers 404 Quota.NotFound while no quota is configured', async () => {
    const project = await aProject(h, org);
    expectEnvelopeError(
      await h.http.get(`/api/projects/${project.id}/quota`).set(bearer(org.admin.session)),
      404,
      'Quota.NotFound',
    );
  });
});

describe('GET /api/projects/{projectId}/quota-usage', () => {
  it('reads the same counters that enforce, for the month (default) and the day', async () => {
    const project = await aProject(h, org);
    await postQuota(project.id, {
      dailyRequestLimit: 10,
      monthlyRequestLimit: 100,
      monthlyTokenLimit: 1_000,
      customResetDay: 1,
    });
    const engine = quotaCountersOf(h.ctx);
    for (let i = 0; i < 3; i++) expect((await engine.admit(project.id)).admitted).toBe(true);
    await engine.recordTokens(project.id, 400);
    const today = new Date().toISOString().slice(0, 10);

    const month = await h.http.get(`/api/projects/${project.id}/quota-usage`).set(bearer(org.admin.session));
    expect(month.status).toBe(200);
    expect(month.body.data).toEqual({
      projectId: project.id,
      period: 'month',
      enforceQuota: true,
      dailyUsage: { requestCount: 3, tokenCount: 400, date: today },
      monthlyUsage: { requestCount: 3, tokenCount: 400, resetDay: 1, windowStart: `${today.slice(0, 8)}01` },
      quotaLimitRemaining: { dailyRequests: 7, monthlyRequests: 97, monthlyTokens: 600 },
    });

    const day = await h.http.get(`/api/projects/${project.id}/quota-usage?period=day`).set(bearer(org.admin.session));
    expect(day.body.data).toEqual({
      projectId: project.id,
      period: 'day',
      enforceQuota: true,
      dailyUsage: { requestCount: 3, tokenCount: 400, date: today },
      quotaLimitRemaining: { dailyRequests: 7 },
    });
  });

  it('shows usage of a project without a quota, with nothing remaining to report', async () => {
    const project = await aProject(h, org);
    const res = await h.http.get(`/api/projects/${project.id}/quota-usage?period=day`).set(bearer(org.admin.session));
    expect(res.body.data).toMatchObject({
      enforceQuota: false,
      dailyUsage: { requestCount: 0, tokenCount: 0 },
      quotaLimitRemaining: {},
    });
  });

  it('refuses an unknown period with 400 Quota.InvalidQuery', async () => {
    const project = await aProject(h, org);
    const res = await h.http.get(`/api/projects/${project.id}/quota-usage?period=week`).set(bearer(org.admin.session));
    expectEnvelopeError(res, 400, 'Quota.InvalidQuery');
  });
});
