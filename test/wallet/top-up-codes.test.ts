// Top-up codes: a platform Admin issues them (problem+json family), an organization Admin redeems one into the
// wallet (envelope family); a code is spent exactly once, also under 50 concurrent redemptions.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { walletTopUpCodes } from '../../shared/db/schema/index.js';
import { reconcileWallets } from '../../shared/wallet/reconciliation.js';
import { issueTopUpCodes } from '../../shared/wallet/top-up-codes.js';
import { createHarness, type Harness } from '../support/harness.js';
import { bearer, createUser, platformAdminOf } from '../support/identity.js';
import { aMember, anOrganization, expectEnvelopeError, inOrg, type TestOrg } from '../support/org-fixtures.js';
import { usd } from '../support/wallet-factory.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

const CODES = '/api/v1/admin/top-up-codes';
const REDEEM = '/api/organization/wallet/redeem';
const asAdmin = async () => bearer((await platformAdminOf(h)).session);

type IssuedCode = { id: string; code: string; amount: number; status: string; expiresAt: string; batchId: string };

async function issue(body: Record<string, unknown> = { amount: 25 }): Promise<IssuedCode[]> {
  const res = await h.http
    .post(CODES)
    .set(await asAdmin())
    .send(body);
  expect(res.status).toBe(201);
  return res.body.codes;
}

const redeem = (org: TestOrg, code: string, user = org.admin) =>
  h.http.post(REDEEM).set(inOrg(user, org.id)).send({ code });

const walletOf = async (org: TestOrg) =>
  (await h.http.get('/api/organization/wallet').set(inOrg(org.admin, org.id))).body.data;

const rechargesOf = async (org: TestOrg) =>
  (await h.http.get('/api/organization/wallet/records?type=Recharge').set(inOrg(org.admin, org.id))).body.data;

function expectProblem(
  res: { status: number; body: unknown; headers: Record<string, string> },
  status: number,
  code: string,
) {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({ title: code, status });
}

describe('POST /api/v1/admin/top-up-codes', () => {
  it('issues the asked number of distinct codes, each shown once, with amount, expiry and batch', async () => {
    const expiresAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const res = await h.http
      .post(CODES)
      .set(await asAdmin())
      .send({ amount: '12.5', count: 3, expiresAt, description: 'conference voucher' });
    expect(res.status).toBe(201);
    const { batchId, codes } = res.body as { batchId: string; codes: IssuedCode[] };
    expect(codes).toHaveLength(3);
    expect(new Set(codes.map((c) => c.code)).size).toBe(3);
    for (const code of codes) {
      expect(code).toMatchObject({
        id: expect.any(String),
        batchId,
        amount: 12.5,
        currency: 'USD',
        status: 'active',
        description: 'conference voucher',
        expiresAt,
        codeHint: code.code.slice(-4),
      });
      expect(code.code).toMatch(/^OTC(-[0-9A-HJKMNP-TV-Z]{5}){5}$/);
    }
    // Stored only as a keyed hash: no column holds the code.
    const [row] = await h.ctx.db.select().from(walletTopUpCodes).where(eq(walletTopUpCodes.id, codes[0]!.id));
    expect(JSON.stringify(row, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain(
      codes[0]!.code.replace(/-/g, '').slice(3),
    );
    expect(row?.codeHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('defaults to one code valid for 30 days', async () => {
    const [code] = await issue({ amount: 1 });
    const days = (Date.parse(code!.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
  });

  it.each([
    { amount: 0 },
    { amount: -5 },
    { amount: '1.0000001' },
    {},
    { amount: 1, count: 0 },
    { amount: 1, count: 101 },
    { amount: 1, count: 2.5 },
    { amount: 1, expiresAt: new Date(Date.now() - 60_000).toISOString() },
    { amount: 1, expiresAt: new Date(Date.now() + 400 * 86_400_000).toISOString() },
    { amount: 1, expiresAt: 'tomorrow' },
  ])('refuses %j with 400 TopUpCode.Invalid and issues nothing', async (body) => {
    const before = (await h.ctx.db.select().from(walletTopUpCodes)).length;
    const res = await h.http
      .post(CODES)
      .set(await asAdmin())
      .send(body);
    expectProblem(res, 400, 'TopUpCode.Invalid');
    expect((await h.ctx.db.select().from(walletTopUpCodes)).length).toBe(before);
  });

  it('is for platform Admins: 401 without credentials, 403 for an organization Admin', async () => {
    expectProblem(await h.http.post(CODES).send({ amount: 1 }), 401, 'Auth.Unauthorized');
    const org = await anOrganization(h);
    expectProblem(await h.http.post(CODES).set(bearer(org.admin.session)).send({ amount: 1 }), 403, 'Auth.Forbidden');
    expectProblem(await h.http.get(CODES).set(bearer(org.admin.session)), 403, 'Auth.Forbidden');
  });
});

describe('GET /api/v1/admin/top-up-codes', () => {
  it('lists codes newest first with their status, never the code itself', async () => {
    const [first] = await issue({ amount: 3 });
    const [second] = await issue({ amount: 4, count: 2 });
    const res = await h.http.get(`${CODES}?batchId=${second!.batchId}`).set(await asAdmin());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 2, page: 1, pageSize: 20, hasNext: false });
    expect(res.body.items.map((c: { amount: number }) => c.amount)).toEqual([4, 4]);
    expect(JSON.stringify(res.body)).not.toContain(second!.code);
    expect(res.body.items[0]).not.toHaveProperty('code');
    const org = await anOrganization(h);
    await redeem(org, first!.code).expect(201);
    const redeemed = await h.http.get(`${CODES}?status=redeemed&pageSize=100`).set(await asAdmin());
    const listed = redeemed.body.items.find((c: { id: string }) => c.id === first!.id);
    expect(listed).toMatchObject({ status: 'redeemed', organizationId: org.id, recordId: expect.any(String) });
    expect(redeemed.body.items.every((c: { status: string }) => c.status === 'redeemed')).toBe(true);
  });

  it('refuses a bad filter with 400', async () => {
    expectProblem(await h.http.get(`${CODES}?status=spent`).set(await asAdmin()), 400, 'TopUpCode.InvalidQuery');
    expectProblem(await h.http.get(`${CODES}?batchId=x`).set(await asAdmin()), 400, 'TopUpCode.InvalidQuery');
  });
});

describe('POST /api/v1/admin/top-up-codes/{id}/revoke', () => {
  it('revokes an unredeemed code, which then cannot be redeemed; a redeemed code cannot be revoked', async () => {
    const [code, spent] = await issue({ amount: 2, count: 2 });
    const revoked = await h.http.post(`${CODES}/${code!.id}/revoke`).set(await asAdmin());
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: code!.id, status: 'revoked', revokedAt: expect.any(String) });
    expect((await h.http.post(`${CODES}/${code!.id}/revoke`).set(await asAdmin())).status).toBe(200);
    const org = await anOrganization(h);
    expectEnvelopeError(await redeem(org, code!.code), 410, 'TopUpCode.Revoked');
    await redeem(org, spent!.code).expect(201);
    expectProblem(await h.http.post(`${CODES}/${spent!.id}/revoke`).set(await asAdmin()), 409, 'TopUpCode.Redeemed');
    expect((await walletOf(org)).balance).toBe(2);
  });

  it('answers 404 for an unknown code, 400 for a malformed id, 403 for a non-Admin', async () => {
    expectProblem(await h.http.post(`${CODES}/${randomUUID()}/revoke`).set(await asAdmin()), 404, 'TopUpCode.NotFound');
    expectProblem(await h.http.post(`${CODES}/nope/revoke`).set(await asAdmin()), 400, 'TopUpCode.InvalidId');
    const user = await createUser(h);
    expectProblem(
      await h.http.post(`${CODES}/${randomUUID()}/revoke`).set(bearer(user.session)),
      403,
      'Auth.Forbidden',
    );
  });
});

describe('POST /api/organization/wallet/redeem', () => {
  it('credits the wallet with one Recharge record that names the code id, never the code', async () => {
    const [code] = await issue({ amount: '7.25', description: 'welcome credit' });
    const org = await anOrganization(h);
    const res = await redeem(org, code!.code);
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(String),
      type: 'Recharge',
      amount: 7.25,
      previousBalance: 0,
      currentBalance: 7.25,
      description: 'welcome credit',
      topUpCodeId: code!.id,
      createdAt: expect.any(String),
    });
    expect(JSON.stringify(await rechargesOf(org))).not.toContain(code!.code);
    expect(await walletOf(org)).toMatchObject({ balance: 7.25, frozenAmount: 0 });
  });

  it('reads a code typed in lower case with spaces; a repeat by the same organization answers the same record', async () => {
    const [code] = await issue({ amount: 3 });
    const org = await anOrganization(h);
    const typed = code!.code.toLowerCase().replace(/-/g, ' ');
    const first = await redeem(org, typed);
    expect(first.status).toBe(201);
    const again = await redeem(org, code!.code);
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(first.body.data.id);
    expectEnvelopeError(await redeem(await anOrganization(h), code!.code), 409, 'TopUpCode.Redeemed');
    expect(await rechargesOf(org)).toHaveLength(1);
    expect((await walletOf(org)).balance).toBe(3);
  });

  it('answers 404 for an unknown or malformed code, 410 for an expired one, 400 without a code', async () => {
    const org = await anOrganization(h);
    expectEnvelopeError(await redeem(org, 'OTC-00000-00000-00000-00000-00000'), 404, 'TopUpCode.NotFound');
    expectEnvelopeError(await redeem(org, 'free money please'), 404, 'TopUpCode.NotFound');
    const admin = await platformAdminOf(h);
    const longAgo = new Date(Date.now() - 86_400_000);
    const { codes } = await issueTopUpCodes(
      h.ctx.db,
      h.config,
      { amount: usd('1'), count: 1, expiresAt: new Date(longAgo.getTime() + 60_000), createdBy: admin.accountId },
      longAgo,
    );
    expectEnvelopeError(await redeem(org, codes[0]!.code), 410, 'TopUpCode.Expired');
    expectEnvelopeError(await h.http.post(REDEEM).set(inOrg(org.admin, org.id)).send({}), 400, 'TopUpCode.Invalid');
    expect((await walletOf(org)).balance).toBe(0);
  });

  it('is for organization Admins: 403 for a Member, 404 for a stranger, 401 without credentials', async () => {
    const [code] = await issue({ amount: 1 });
    const org = await anOrganization(h);
    const member = await aMember(h, org);
    expectEnvelopeError(await redeem(org, code!.code, member), 403, 'Organization.Forbidden');
    const stranger = await createUser(h);
    expectEnvelopeError(await redeem(org, code!.code, stranger), 404, 'Organization.NotFound');
    expectEnvelopeError(await h.http.post(REDEEM).send({ code: code!.code }), 401, 'Auth.Unauthorized');
    const secondAdmin = await aMember(h, org, 'Admin');
    expect((await redeem(org, code!.code, secondAdmin)).status).toBe(201);
  });

  it('spends a code exactly once under 50 concurrent redemptions by five organizations; the ledger reconciles', async () => {
    const [code] = await issue({ amount: '10.000001' });
    const orgs = await Promise.all(Array.from({ length: 5 }, () => anOrganization(h)));
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => redeem(orgs[i % orgs.length]!, code!.code)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    const winner = orgs[statuses.indexOf(201) % orgs.length]!;
    const winnerId = answers[statuses.indexOf(201)]!.body.data.id;
    answers.forEach((answer, i) => {
      const org = orgs[i % orgs.length]!;
      if (answer.status === 201) return;
      if (org === winner) {
        expect(answer.status).toBe(200);
        expect(answer.body.data.id).toBe(winnerId);
      } else {
        expectEnvelopeError(answer, 409, 'TopUpCode.Redeemed');
      }
    });
    const recharges = await Promise.all(orgs.map(rechargesOf));
    expect(recharges.flat()).toHaveLength(1);
    expect((await walletOf(winner)).balance).toBe(10.000001);
    for (const org of orgs.filter((o) => o !== winner)) expect((await walletOf(org)).balance).toBe(0);
    const ids = new Set(orgs.map((o) => o.id));
    expect((await reconcileWallets(h.ctx.db)).problems.filter((p) => ids.has(p.organizationId))).toEqual([]);
  });
});
