// The wallet routes of the organization family: balance, recharge, records and refunds, with their access rules.
import { randomUUID } from 'node:crypto';
import { reconcileWallets } from '../../shared/wallet/reconciliation.js';
import { createHarness, type Harness } from '../support/harness.js';
import { bearer, createUser, platformAdminOf, signInAdmin } from '../support/identity.js';
import { aMember, anOrganization, expectEnvelopeError, inOrg, type TestOrg } from '../support/org-fixtures.js';
import { usd } from '../support/wallet-factory.js';
import { spend } from '../support/wallet-spend.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

const balanceOf = async (org: TestOrg) =>
  (await h.http.get('/api/organization/wallet').set(inOrg(org.admin, org.id))).body.data.balance;

const RECHARGE = '/api/organization/wallet/recharge';
/** Recharging creates money: only a platform Admin (account role Admin) may, in any organization. */
const asPlatformAdmin = async (org: TestOrg) => inOrg(await platformAdminOf(h), org.id);
const recordsOf = async (org: TestOrg) =>
  (await h.http.get('/api/organization/wallet/records').set(inOrg(org.admin, org.id))).body.data;

async function rechargeOf(org: TestOrg, amount: number | string) {
  const res = await h.http
    .post(RECHARGE)
    .set(await asPlatformAdmin(org))
    .send({ amount });
  expect(res.status).toBe(201);
  return res.body.data;
}

describe('GET /api/organization/wallet', () => {
  it('shows the wallet a new organization gets: balance 0, USD, active', async () => {
    const org = await anOrganization(h);
    const res = await h.http.get('/api/organization/wallet').set(inOrg(org.admin, org.id));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: { organizationId: org.id, balance: 0, frozenAmount: 0, currency: 'USD', isActive: true },
      code: 200,
      error: null,
    });
  });

  it('lets any member read the balance, answers 401 without credentials and 404 to a stranger', async () => {
    const org = await anOrganization(h);
    const member = await aMember(h, org);
    expect((await h.http.get('/api/organization/wallet').set(inOrg(member, org.id))).status).toBe(200);
    expectEnvelopeError(await h.http.get('/api/organization/wallet'), 401, 'Auth.Unauthorized');
    const stranger = await createUser(h);
    const res = await h.http.get('/api/organization/wallet').set(inOrg(stranger, org.id));
    expectEnvelopeError(res, 404, 'Organization.NotFound');
  });
});

describe('POST /api/organization/wallet/recharge', () => {
  it('lets a platform Admin add the exact amount to any wallet and answers the Recharge record', async () => {
    const org = await anOrganization(h);
    const res = await h.http
      .post(RECHARGE)
      .set(await asPlatformAdmin(org))
      .send({ amount: 12.345678, description: 'top-up' });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(String),
      type: 'Recharge',
      amount: 12.345678,
      previousBalance: 0,
      currentBalance: 12.345678,
      description: 'top-up',
      createdAt: expect.any(String),
    });
    await rechargeOf(org, '0.1');
    expect(await balanceOf(org)).toBe(12.445678);
  });

  it('refuses the organization Admin who owns the wallet with 403, and writes nothing', async () => {
    const org = await anOrganization(h);
    const secondAdmin = await aMember(h, org, 'Admin');
    for (const owner of [org.admin, secondAdmin]) {
      const res = await h.http.post(RECHARGE).set(inOrg(owner, org.id)).send({ amount: 1_000_000 });
      expectEnvelopeError(res, 403, 'Auth.Forbidden');
      expect(res.body.error.message).toMatch(/only a platform Admin .* redeem a top-up code/);
    }
    expect(await balanceOf(org)).toBe(0);
    expect(await recordsOf(org)).toEqual([]);
    const problems = (await reconcileWallets(h.ctx.db)).problems.filter((p) => p.organizationId === org.id);
    expect(problems).toEqual([]);
  });

  it('records a repeated request with the same Idempotency-Key once', async () => {
    const org = await anOrganization(h);
    const headers = { ...(await asPlatformAdmin(org)), 'idempotency-key': 'invoice-42' };
    const first = await h.http.post(RECHARGE).set(headers).send({ amount: 5 });
    const again = await h.http.post(RECHARGE).set(headers).send({ amount: 5 });
    expect([first.status, again.status]).toEqual([201, 200]);
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(await balanceOf(org)).toBe(5);
  });

  it.each([-1, 0, '0', 'abc', 1.1234567, '2.0000001', '1e3', null, true, [], {}])(
    'refuses the amount %p with 400 Wallet.Invalid and changes nothing',
    async (amount) => {
      const org = await anOrganization(h);
      const res = await h.http
        .post(RECHARGE)
        .set(await asPlatformAdmin(org))
        .send({ amount });
      expectEnvelopeError(res, 400, 'Wallet.Invalid');
      expect(await balanceOf(org)).toBe(0);
    },
  );

  it('refuses a missing amount, and invalid JSON, with 400 in the envelope', async () => {
    const org = await anOrganization(h);
    const missing = await h.http
      .post(RECHARGE)
      .set(await asPlatformAdmin(org))
      .send({});
    expectEnvelopeError(missing, 400, 'Wallet.Invalid');
    const broken = await h.http
      .post(RECHARGE)
      .set({ ...(await asPlatformAdmin(org)), 'content-type': 'application/json' })
      .send('{"amount":');
    expectEnvelopeError(broken, 400, 'Request.InvalidJson');
  });

  it('answers 403 to a Member and a stranger, 401 without credentials, 404 for an unknown organization', async () => {
    const org = await anOrganization(h);
    const member = await aMember(h, org);
    const stranger = await createUser(h);
    for (const user of [member, stranger]) {
      expectEnvelopeError(
        await h.http.post(RECHARGE).set(inOrg(user, org.id)).send({ amount: 1 }),
        403,
        'Auth.Forbidden',
      );
    }
    expectEnvelopeError(await h.http.post(RECHARGE).send({ amount: 1 }), 401, 'Auth.Unauthorized');
    const admin = await platformAdminOf(h);
    const unknown = await h.http.post(RECHARGE).set(inOrg(admin, randomUUID())).send({ amount: 1 });
    expectEnvelopeError(unknown, 404, 'Wallet.NotFound');
    const garbled = await h.http.post(RECHARGE).set(inOrg(admin, 'not-an-id')).send({ amount: 1 });
    expectEnvelopeError(garbled, 404, 'Organization.NotFound');
    expect(await balanceOf(org)).toBe(0);
  });
});

describe('GET /api/organization/wallet/records', () => {
  it('pages the records newest first and filters by type', async () => {
    const org = await anOrganization(h);
    await rechargeOf(org, 10);
    await spend(h.ctx, org.id, usd('0.25'), { operation: 'web search' });
    await rechargeOf(org, 1);
    const member = await aMember(h, org);
    const all = await h.http.get('/api/organization/wallet/records?page=1&size=2').set(inOrg(member, org.id));
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ code: 200, error: null, total: 3, page: 1, size: 2 });
    expect(all.body.data.map((r: { type: string; currentBalance: number }) => [r.type, r.currentBalance])).toEqual([
      ['Recharge', 10.75],
      ['Consume', 9.75],
    ]);
    const consumed = await h.http.get('/api/organization/wallet/records?type=Consume').set(inOrg(member, org.id));
    expect(consumed.body).toMatchObject({ total: 1, page: 1, size: 20 });
    expect(consumed.body.data[0]).toMatchObject({
      type: 'Consume',
      amount: 0.25,
      previousBalance: 10,
      requestLogId: expect.any(String),
    });
  });

  it('answers every page of an unfiltered ledger (a range of its sequence) as the counted listing does', async () => {
    const org = await anOrganization(h);
    await rechargeOf(org, 10);
    for (let i = 0; i < 11; i += 1) await spend(h.ctx, org.id, usd('0.01'), { operation: 'web search' });
    await rechargeOf(org, 1);
    const member = await aMember(h, org);
    const read = async (qs: string) => {
      const res = await h.http.get(`/api/organization/wallet/records?${qs}`).set(inOrg(member, org.id));
      expect(res.status).toBe(200);
      return { total: res.body.total, ids: res.body.data.map((r: { id: string }) => r.id) };
    };
    const seen: string[] = [];
    for (const page of [1, 2, 3, 4]) {
      const ranged = await read(`page=${page}&size=5`);
      // A period that holds every record takes the counted path (count and offset) over the same records.
      expect(ranged).toEqual(await read(`page=${page}&size=5&from=2000-01-01`));
      expect(ranged.total).toBe(13);
      seen.push(...ranged.ids);
    }
    // Pages 1-3 hold 5, 5 and 3 records, page 4 none: each record once.
    expect(seen).toHaveLength(13);
    expect(new Set(seen).size).toBe(13);
    const stranger = await anOrganization(h);
    const empty = await h.http.get('/api/organization/wallet/records').set(inOrg(stranger.admin, stranger.id));
    expect(empty.body).toMatchObject({ total: 0, data: [] });
  });

  it.each(['type=Bonus', 'page=0', 'size=0', 'size=101', 'page=abc'])('refuses ?%s with 400', async (qs) => {
    const org = await anOrganization(h);
    const res = await h.http.get(`/api/organization/wallet/records?${qs}`).set(inOrg(org.admin, org.id));
    expectEnvelopeError(res, 400, 'Wallet.InvalidQuery');
  });

  it('answers 401 without credentials and 404 to a stranger', async () => {
    const org = await anOrganization(h);
    expectEnvelopeError(await h.http.get('/api/organization/wallet/records'), 401, 'Auth.Unauthorized');
    const stranger = await createUser(h);
    const res = await h.http.get('/api/organization/wallet/records').set(inOrg(stranger, org.id));
    expectEnvelopeError(res, 404, 'Organization.NotFound');
  });
});

describe('POST /api/organization/wallet/records/{id}/refund', () => {
  async function consumption(amount = '2') {
    const org = await anOrganization(h);
    await rechargeOf(org, 5);
    const { record } = await spend(h.ctx, org.id, usd(amount));
    return { org, recordId: record.id };
  }
  const refundUrl = (id: string) => `/api/organization/wallet/records/${id}/refund`;

  it('lets a platform Admin refund part of a consumption once; a repeat answers the same refund', async () => {
    const admin = await signInAdmin(h);
    const { org, recordId } = await consumption();
    const send = (body: object) => h.http.post(refundUrl(recordId)).set(bearer(admin.token)).send(body);
    const res = await send({ amount: 1.5, reason: 'upstream outage' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      type: 'Refund',
      amount: 1.5,
      refundOf: recordId,
      description: 'upstream outage',
    });
    expect(res.body.data).toMatchObject({ previousBalance: 3, currentBalance: 4.5 });
    const repeat = await send({ amount: 1.5, reason: 'upstream outage' });
    expect(repeat.status).toBe(200);
    expect(repeat.body.data.id).toBe(res.body.data.id);
    expectEnvelopeError(await send({ amount: 0.5, reason: 'more' }), 409, 'Wallet.AlreadyRefunded');
    expect(await balanceOf(org)).toBe(4.5);
  });

  it('refunds the whole consumption when no amount is given, never more than it', async () => {
    const admin = await signInAdmin(h);
    const { org, recordId } = await consumption('2');
    const tooMuch = await h.http
      .post(refundUrl(recordId))
      .set(bearer(admin.token))
      .send({ amount: 2.000001, reason: 'x' });
    expectEnvelopeError(tooMuch, 400, 'Wallet.RefundTooLarge');
    const whole = await h.http.post(refundUrl(recordId)).set(bearer(admin.token)).send({ reason: 'goodwill' });
    expect(whole.body.data.amount).toBe(2);
    expect(await balanceOf(org)).toBe(5);
  });

  it('refuses bad input with 400 and unknown or foreign records with 404', async () => {
    const admin = await signInAdmin(h);
    const { org, recordId } = await consumption();
    const post = (id: string, body: object, headers: object = {}) =>
      h.http
        .post(refundUrl(id))
        .set({ ...bearer(admin.token), ...headers })
        .send(body);
    expectEnvelopeError(await post(recordId, {}), 400, 'Wallet.InvalidRefund');
    expectEnvelopeError(await post(recordId, { reason: 'x', amount: -1 }), 400, 'Wallet.InvalidRefund');
    expectEnvelopeError(await post(recordId, { reason: 'x', amount: '1.1234567' }), 400, 'Wallet.InvalidRefund');
    expectEnvelopeError(await post(randomUUID(), { reason: 'x' }), 404, 'Wallet.RecordNotFound');
    expectEnvelopeError(await post('not-a-uuid', { reason: 'x' }), 404, 'Wallet.RecordNotFound');
    const other = await anOrganization(h);
    expectEnvelopeError(
      await post(recordId, { reason: 'x' }, { 'x-organization-id': other.id }),
      404,
      'Wallet.RecordNotFound',
    );
    const recharges = await h.http.get('/api/organization/wallet/records?type=Recharge').set(inOrg(org.admin, org.id));
    expectEnvelopeError(await post(recharges.body.data[0].id, { reason: 'x' }), 400, 'Wallet.NotRefundable');
    expect(await balanceOf(org)).toBe(3);
  });

  it('is for platform Admins only: 403 for an organization Admin, 401 without credentials', async () => {
    const { org, recordId } = await consumption();
    const res = await h.http.post(refundUrl(recordId)).set(inOrg(org.admin, org.id)).send({ reason: 'mine' });
    expectEnvelopeError(res, 403, 'Auth.Forbidden');
    expectEnvelopeError(await h.http.post(refundUrl(recordId)).send({ reason: 'x' }), 401, 'Auth.Unauthorized');
    expect(await balanceOf(org)).toBe(3);
  });
});
