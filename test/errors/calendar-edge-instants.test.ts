// Dates and date-times at the edges of the calendar (security review #78): zod's ISO checks accept a year 0000 and
// an offset that carries 9999-12-31 into the year 10000, neither of which PostgreSQL's timestamptz can hold
// (there is no year 0; `+010000-…`, JavaScript's ISO form of a five-digit year, is refused). Each reached the query
// and answered 500: the MCP Registry's `updated_since` for anyone without an account, the wallet records, their
// CSV export and the audit log for an organization's members and Admins, an invite token's `expiresAt`. They are
// 400s in the route's family now, and nothing is written; a top-up code's `expiresAt`, already refused by its own
// checks, keeps answering 400.
import { createHarness, type Harness } from '../support/harness.js';
import { bearer, platformAdminOf } from '../support/identity.js';
import { aMember, anOrganization, inOrg, type TestOrg } from '../support/org-fixtures.js';

/** Past 9999-12-31 in UTC, and before 0001-01-01: each a value zod's ISO check accepts. */
const pastTheEnd = ['9999-12-31T23:59:59-23:59', '9999-12-31T12:00:00-12:00'];
const beforeTheStart = ['0000-01-01T00:00:00Z', '0000-06-01T00:00:00+01:00', '0001-01-01T00:00:00+00:01'];
const edgeInstants = [...pastTheEnd, ...beforeTheStart];

let h: Harness;
let org: TestOrg;
let member: Awaited<ReturnType<typeof aMember>>;
beforeAll(async () => {
  h = await createHarness();
  org = await anOrganization(h);
  member = await aMember(h, org);
});
afterAll(async () => h?.close());

const q = (value: string) => encodeURIComponent(value);

describe('instants past the calendar PostgreSQL holds', () => {
  it.each(edgeInstants)('GET /v0.1/servers?updated_since=%s answers 400 to anyone', async (at) => {
    const res = await h.http.get(`/v0.1/servers?updated_since=${q(at)}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: expect.stringContaining('updated_since') });
  });

  it.each([...edgeInstants.map((at) => ['from', at]), ...edgeInstants.map((at) => ['to', at]), ['from', '0000-01-01']])(
    'wallet records and their export with %s=%s: 400 Wallet.InvalidQuery for a member',
    async (edge, at) => {
      for (const path of ['/api/organization/wallet/records', '/api/organization/wallet/records/export']) {
        const res = await h.http.get(`${path}?${edge}=${q(at)}`).set(inOrg(member, org.id));
        expect({ path, status: res.status, code: res.body?.error?.code }).toEqual({
          path,
          status: 400,
          code: 'Wallet.InvalidQuery',
        });
      }
    },
  );

  it.each([...edgeInstants, '0000-01-01'])(
    'the audit log with from=%s: 400 for the organization Admin and the platform Admin',
    async (at) => {
      const own = await h.http.get(`/api/organization/audit-log?from=${q(at)}`).set(inOrg(org.admin, org.id));
      expect(own.status).toBe(400);
      expect(own.body.error).toEqual({ code: expect.any(String), message: expect.stringContaining('from') });
      const admin = await platformAdminOf(h);
      const all = await h.http.get(`/api/v1/admin/audit-log?from=${q(at)}`).set(bearer(admin.session));
      expect(all.status).toBe(400);
      expect(all.body).toMatchObject({ status: 400, detail: expect.stringContaining('from') });
    },
  );

  it.each(edgeInstants)('an invite token expiring at %s: 400, no token issued', async (at) => {
    const list = async () =>
      (await h.http.get('/api/organization/invite-tokens').set(inOrg(org.admin, org.id))).body.data.length;
    const before = await list();
    const res = await h.http
      .post('/api/organization/invite-tokens')
      .set(inOrg(org.admin, org.id))
      .send({ expiresAt: at });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: expect.any(String), message: expect.stringContaining('expiresAt') });
    expect(await list()).toBe(before);
  });

  it.each(beforeTheStart)('a top-up code expiring at %s: 400, no code issued', async (at) => {
    const admin = await platformAdminOf(h);
    const res = await h.http
      .post('/api/v1/admin/top-up-codes')
      .set(bearer(admin.session))
      .send({ amount: 1, expiresAt: at });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400, detail: expect.stringContaining('expiresAt') });
  });

  it('the calendar inside the bounds still works: 0001-01-01 and 9999-12-31 are answered', async () => {
    const servers = await h.http.get(`/v0.1/servers?updated_since=${q('9999-12-31T23:59:59Z')}`);
    expect(servers.status).toBe(200);
    const records = await h.http
      .get(`/api/organization/wallet/records?from=0001-01-01&to=${q('9999-12-31T00:00:00Z')}`)
      .set(inOrg(member, org.id));
    expect(records.status).toBe(200);
    // A whole last day, as a member picking "to 9999-12-31" for no upper bound sends it: its end is the calendar's.
    for (const path of ['/api/organization/wallet/records', '/api/organization/wallet/records/export']) {
      const res = await h.http.get(`${path}?from=0001-01-01&to=9999-12-31`).set(inOrg(member, org.id));
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
    }
  });
});
