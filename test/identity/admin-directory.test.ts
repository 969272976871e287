// The platform Admin's directory: accounts (search, paging), organizations with wallets, an organization's records.
import { randomUUID } from 'node:crypto';
import { recharge } from '../../shared/wallet/ledger.js';
import { createHarness, type Harness } from '../support/harness.js';
import { bearer, createUser, signInAdmin, uniqueEmail } from '../support/identity.js';
import { anOrganization } from '../support/org-fixtures.js';
import { usd } from '../support/wallet-factory.js';
import { spend } from '../support/wallet-spend.js';

let h: Harness;
let admin: { token: string };
beforeAll(async () => {
  h = await createHarness();
  admin = await signInAdmin(h);
});
afterAll(() => h.close());

const asAdmin = () => bearer(admin.token);

describe('GET /api/v1/admin/accounts', () => {
  it('finds accounts by part of the e-mail or name, newest first, paged', async () => {
    const tag = randomUUID().slice(0, 8);
    const a = await createUser(h, { email: uniqueEmail(`dir${tag}a`), roles: ['Publisher'] });
    const b = await createUser(h, { email: uniqueEmail(`dir${tag}b`) });
    const res = await h.http.get(`/api/v1/admin/accounts?search=dir${tag}&pageSize=1`).set(asAdmin());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      items: [expect.objectContaining({ id: b.accountId, email: b.email, roles: [], dailyQuota: 1000 })],
      page: 1,
      pageSize: 1,
      total: 2,
      hasNext: true,
    });
    expect(JSON.stringify(res.body)).not.toMatch(/password/i);
    const second = await h.http.get(`/api/v1/admin/accounts?search=dir${tag}&pageSize=1&page=2`).set(asAdmin());
    expect(second.body.items[0]).toMatchObject({ id: a.accountId, roles: ['Publisher'] });
    // LIKE wildcards in the search are taken literally.
    expect((await h.http.get('/api/v1/admin/accounts?search=%25%25%25').set(asAdmin())).body.total).toBe(0);
  });

  it('answers 400 Admin.InvalidQuery for a bad page, 401 without credentials, 403 to a non-Admin', async () => {
    const res = await h.http.get('/api/v1/admin/accounts?pageSize=500').set(asAdmin());
    expect(res.status).toBe(400);
    expect(res.body.title).toBe('Admin.InvalidQuery');
    expect((await h.http.get('/api/v1/admin/accounts')).status).toBe(401);
    const moderator = await createUser(h, { roles: ['Moderator'] });
    expect((await h.http.get('/api/v1/admin/accounts').set(bearer(moderator.session))).status).toBe(403);
  });
});

describe('GET /api/v1/admin/organizations and their wallet records', () => {
  it('lists every organization with its member count and wallet, and one organization’s records', async () => {
    const org = await anOrganization(h, undefined, `Directory ${randomUUID().slice(0, 8)}`);
    await recharge(h.ctx, org.id, { amount: usd('5') });
    await spend(h.ctx, org.id, usd('1.5'), { operation: 'messages' });
    const res = await h.http
      .get(`/api/v1/admin/organizations?search=${encodeURIComponent('Directory')}`)
      .set(asAdmin());
    expect(res.status).toBe(200);
    const found = res.body.items.find((o: { id: string }) => o.id === org.id);
    expect(found).toEqual({
      id: org.id,
      name: expect.stringMatching(/^Directory /),
      createdAt: expect.any(String),
      memberCount: 1,
      wallet: { balance: 3.5, frozenAmount: 0, currency: 'USD' },
    });
    const records = await h.http
      .get(`/api/v1/admin/organizations/${org.id}/wallet/records?type=Consume`)
      .set(asAdmin());
    expect(records.status).toBe(200);
    expect(records.body).toMatchObject({ page: 1, pageSize: 20, total: 1, hasNext: false });
    expect(records.body.items).toEqual([
      expect.objectContaining({ type: 'Consume', amount: 1.5, currentBalance: 3.5 }),
    ]);
  });

  it('answers 404 Organization.NotFound for an unknown organization and 400 for a bad filter', async () => {
    const missing = await h.http.get(`/api/v1/admin/organizations/${randomUUID()}/wallet/records`).set(asAdmin());
    expect(missing.status).toBe(404);
    expect(missing.body.title).toBe('Organization.NotFound');
    expect((await h.http.get('/api/v1/admin/organizations/not-a-uuid/wallet/records').set(asAdmin())).status).toBe(404);
    const org = await anOrganization(h);
    const bad = await h.http.get(`/api/v1/admin/organizations/${org.id}/wallet/records?type=Gift`).set(asAdmin());
    expect(bad.status).toBe(400);
    expect(bad.body.title).toBe('Admin.InvalidQuery');
  });

  it('refuses organization admins who are not platform Admins (403) and anonymous callers (401)', async () => {
    const org = await anOrganization(h);
    const res = await h.http.get(`/api/v1/admin/organizations/${org.id}/wallet/records`).set(bearer(org.admin.session));
    expect(res.status).toBe(403);
    expect((await h.http.get('/api/v1/admin/organizations')).status).toBe(401);
  });
});
