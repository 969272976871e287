// The wallet's past for people: balance history (chart), spending today and this month, record filters by period,
// and the CSV export.
import { eq } from 'drizzle-orm';
import { organizationDailySpending } from '../../shared/db/schema/index.js';
import { balanceHistory } from '../../shared/wallet/balance-history.js';
import { recharge } from '../../shared/wallet/ledger.js';
import { writeLedger } from '../../shared/wallet/ledger-writer.js';
import { refund } from '../../shared/wallet/refunds.js';
import { walletSpending } from '../../shared/wallet/spending.js';
import { createHarness, type Harness } from '../support/harness.js';
import { createUser } from '../support/identity.js';
import { rebuiltByBackfill } from '../support/migration-backfill.js';
import {
  aMember,
  anOrganization,
  aProject,
  expectEnvelopeError,
  inOrg,
  type TestOrg,
} from '../support/org-fixtures.js';
import { usd } from '../support/wallet-factory.js';
import { callerOf, charge, spend } from '../support/wallet-spend.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

async function orgWithHistory(): Promise<TestOrg> {
  const org = await anOrganization(h);
  await recharge(h.ctx, org.id, { amount: usd('10'), description: '=HYPERLINK("http://evil")' });
  await spend(h.ctx, org.id, usd('1.25'), { operation: 'messages claude' });
  await spend(h.ctx, org.id, usd('0.5'), { operation: 'web_search, "quoted"' });
  return org;
}

const today = () => new Date().toISOString().slice(0, 10);

describe('GET /api/organization/wallet/balance-history', () => {
  it('answers the opening balance and the closing settled balance of each day with records', async () => {
    const org = await orgWithHistory();
    const res = await h.http.get('/api/organization/wallet/balance-history').set(inOrg(org.admin, org.id));
    expect(res.status).toBe(200);
    const day = `${today()}T00:00:00.000Z`;
    expect(res.body.data).toEqual({
      currency: 'USD',
      interval: 'day',
      from: expect.any(String),
      to: expect.any(String),
      openingBalance: 0,
      points: [{ at: day, balance: 8.25 }],
    });
    expect(Date.parse(res.body.data.to) - Date.parse(res.body.data.from)).toBeGreaterThanOrEqual(30 * 86_400_000);
  });

  it('answers hourly points, and moves the last point when money moves', async () => {
    const org = await orgWithHistory();
    const read = async () =>
      (await h.http.get('/api/organization/wallet/balance-history?days=1&interval=hour').set(inOrg(org.admin, org.id)))
        .body.data;
    const before = await read();
    expect(before.interval).toBe('hour');
    expect(before.points.at(-1).balance).toBe(8.25);
    await spend(h.ctx, org.id, usd('0.25'));
    expect((await read()).points.at(-1).balance).toBe(8);
  });

  it('carries the balance before the window as the opening balance', async () => {
    const org = await orgWithHistory();
    const later = new Date(Date.now() + 3 * 86_400_000);
    const history = await balanceHistory(h.ctx.db, org.id, { days: 1, interval: 'day', now: later });
    expect(history.openingBalance).toBe(8.25);
    expect(history.points).toEqual([]);
  });

  it('answers 400 Wallet.InvalidQuery for a bad interval, too many days or hourly points over a month', async () => {
    const org = await anOrganization(h);
    for (const q of ['interval=week', 'days=0', 'days=367', 'days=40&interval=hour']) {
      const res = await h.http.get(`/api/organization/wallet/balance-history?${q}`).set(inOrg(org.admin, org.id));
      expectEnvelopeError(res, 400, 'Wallet.InvalidQuery');
    }
  });

  it('lets any member read it, 401 without credentials and 404 to a stranger', async () => {
    const org = await orgWithHistory();
    const member = await aMember(h, org);
    expect((await h.http.get('/api/organization/wallet/balance-history').set(inOrg(member, org.id))).status).toBe(200);
    expectEnvelopeError(await h.http.get('/api/organization/wallet/balance-history'), 401, 'Auth.Unauthorized');
    const stranger = await createUser(h);
    const res = await h.http.get('/api/organization/wallet/balance-history').set(inOrg(stranger, org.id));
    expectEnvelopeError(res, 404, 'Organization.NotFound');
  });
});

describe('GET /api/organization/wallet/records with a period', () => {
  it('keeps the records of the days asked for (whole UTC days) and of the instants asked for', async () => {
    const org = await orgWithHistory();
    const list = async (q: string) =>
      (await h.http.get(`/api/organization/wallet/records?${q}`).set(inOrg(org.admin, org.id))).body;
    expect((await list(`from=${today()}&to=${today()}`)).total).toBe(3);
    expect((await list(`from=${today()}&to=${today()}&type=Consume`)).total).toBe(2);
    expect((await list('to=2020-01-01')).total).toBe(0);
    const soon = new Date(Date.now() + 60_000).toISOString();
    expect((await list(`from=${encodeURIComponent(soon)}`)).total).toBe(0);
  });

  it('answers 400 Wallet.InvalidQuery for a malformed date or a period ending before it starts', async () => {
    const org = await anOrganization(h);
    for (const q of ['from=yesterday', 'to=2026-13-01', 'from=2026-02-01&to=2026-01-01']) {
      const res = await h.http.get(`/api/organization/wallet/records?${q}`).set(inOrg(org.admin, org.id));
      expectEnvelopeError(res, 400, 'Wallet.InvalidQuery');
    }
  });
});

describe('GET /api/organization/wallet/records/export', () => {
  it('downloads the filtered records as CSV, newest first, cells quoted and formulas defused', async () => {
    const org = await orgWithHistory();
    const res = await h.http.get('/api/organization/wallet/records/export').set(inOrg(org.admin, org.id));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="wallet-records-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = res.text.trimEnd().split('\r\n');
    expect(lines[0]).toMatch(
      /^id,createdAt,type,amount,previousBalance,currentBalance,description,requestLogId,refundOf,/,
    );
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(
      /^[0-9a-f-]{36},[^,]+,Consume,0\.5,8\.75,8\.25,"web_search, ""quoted""",[0-9a-f-]{36},,[0-9a-f-]{36},,,,$/,
    );
    expect(lines[2]).toMatch(/,Consume,1\.25,10,8\.75,messages claude,/);
    expect(lines[3]).toMatch(/,Recharge,10,0,10,"'=HYPERLINK\(""http:\/\/evil""\)",,,,,,,$/);
    const consumes = await h.http
      .get('/api/organization/wallet/records/export?type=Consume')
      .set(inOrg(org.admin, org.id));
    expect(consumes.text.trimEnd().split('\r\n')).toHaveLength(3);
  });

  it('names the project and API key of each Consume record and of its Refund (per-project and per-key totals)', async () => {
    const org = await anOrganization(h);
    const project = await aProject(h, org, 'alpha');
    const key = await h.http
      .post('/api/v1/api-keys')
      .set(inOrg(org.admin, org.id))
      .send({ name: '=alice-dev', projectId: project.id });
    expect(key.body.projectId).toBe(project.id);
    await recharge(h.ctx, org.id, { amount: usd('10') });
    const caller = { ...callerOf(org.id, project.id), keyId: key.body.id as string };
    const { record: consumed } = await spend(h.ctx, org.id, usd('1.5'), { caller });
    await spend(h.ctx, org.id, usd('0.25'));
    await refund(h.ctx, consumed.id, { amount: usd('0.5'), reason: 'goodwill', createdBy: org.admin.accountId });
    const res = await h.http.get('/api/organization/wallet/records/export').set(inOrg(org.admin, org.id));
    const lines = res.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'id,createdAt,type,amount,previousBalance,currentBalance,description,requestLogId,refundOf,projectId,projectName,apiKeyId,apiKeyName,topUpCodeId',
    );
    const named = `,${project.id},alpha,${key.body.id},'=alice-dev,$`;
    expect(lines[1]).toMatch(new RegExp(`^[0-9a-f-]{36},[^,]+,Refund,0\\.5,.*,${consumed.id}${named}`));
    expect(lines[2]).toMatch(/,Consume,0\.25,/);
    expect(lines[2]).toMatch(/,[0-9a-f-]{36},,,,$/); // a project that no longer exists: its id, no name; no key
    expect(lines[3]).toMatch(new RegExp(`^${consumed.id},[^,]+,Consume,1\\.5,.*${named}`));
    expect(lines[4]).toMatch(/,Recharge,10,0,10,,,,,,,,$/);
  });

  it("names a key only to who may see it, in the export and the record list: an Admin every key, a Member its own and its projects' (security review #145)", async () => {
    const org = await anOrganization(h);
    const [member, owner] = [await aMember(h, org), await aMember(h, org)];
    const alpha = await aProject(h, org, 'alpha');
    const beta = await aProject(h, org, 'beta');
    const join = (projectId: string, userId: string, role: 'Owner' | 'Member') =>
      h.http
        .post(`/api/projects/${projectId}/members`)
        .set(inOrg(org.admin, org.id))
        .send({ userId, role })
        .expect(201);
    await join(alpha.id, member.accountId, 'Member');
    await join(beta.id, owner.accountId, 'Owner');
    const keyOf = async (user: { session: string }, name: string, projectId: string) => {
      const res = await h.http.post('/api/v1/api-keys').set(inOrg(user, org.id)).send({ name, projectId });
      expect(res.status).toBe(200);
      return { id: res.body.id as string, name, projectId };
    };
    const keys = [
      await keyOf(org.admin, 'admin-alpha', alpha.id),
      await keyOf(member, 'member-alpha', alpha.id),
      await keyOf(org.admin, 'admin-beta', beta.id),
    ];
    await recharge(h.ctx, org.id, { amount: usd('10') });
    for (const key of keys) {
      await spend(h.ctx, org.id, usd('0.5'), { caller: { ...callerOf(org.id, key.projectId), keyId: key.id } });
    }
    /** Each key id in the export with the name it carries ('' when none). */
    const namesSeenBy = async (user: { session: string }) => {
      const res = await h.http.get('/api/organization/wallet/records/export').set(inOrg(user, org.id));
      expect(res.status).toBe(200);
      const rows = res.text
        .trimEnd()
        .split('\r\n')
        .slice(1)
        .filter((l) => l.includes(',Consume,'));
      return Object.fromEntries(rows.map((l) => l.split(',').slice(-3, -1) as [string, string]));
    };
    /** The same from the record list (JSON), with each record's project. */
    const listedFor = async (user: { session: string }) => {
      const res = await h.http.get('/api/organization/wallet/records?type=Consume').set(inOrg(user, org.id));
      expect(res.status).toBe(200);
      const records = res.body.data as {
        apiKeyId: string;
        apiKeyName?: string;
        projectId: string;
        projectName: string;
      }[];
      const projectOf = Object.fromEntries(keys.map((k) => [k.id, k.projectId]));
      for (const r of records) {
        expect(r.projectId).toBe(projectOf[r.apiKeyId]);
        expect(r.projectName).toBe(r.projectId === alpha.id ? 'alpha' : 'beta');
      }
      return Object.fromEntries(records.map((r) => [r.apiKeyId, r.apiKeyName ?? '']));
    };
    const [adminAlpha, memberAlpha, adminBeta] = keys.map((k) => k.id) as [string, string, string];
    const seen = {
      admin: { [adminAlpha]: 'admin-alpha', [memberAlpha]: 'member-alpha', [adminBeta]: 'admin-beta' },
      member: { [adminAlpha]: '', [memberAlpha]: 'member-alpha', [adminBeta]: '' },
      owner: { [adminAlpha]: '', [memberAlpha]: '', [adminBeta]: 'admin-beta' },
    };
    for (const [user, names] of [
      [org.admin, seen.admin],
      [member, seen.member],
      [owner, seen.owner],
    ] as const) {
      expect(await namesSeenBy(user)).toEqual(names);
      expect(await listedFor(user)).toEqual(names);
    }
  });

  it('reads in batches: an export longer than one batch has every record once', async () => {
    const org = await anOrganization(h);
    await recharge(h.ctx, org.id, { amount: usd('1000') });
    for (let i = 0; i < 520; i++) await spend(h.ctx, org.id, usd('0.01'));
    const res = await h.http.get('/api/organization/wallet/records/export').set(inOrg(org.admin, org.id));
    const ids = res.text
      .trimEnd()
      .split('\r\n')
      .slice(1)
      .map((l) => l.split(',')[0]);
    expect(ids).toHaveLength(521);
    expect(new Set(ids).size).toBe(521);
  }, 60_000);

  it('answers 400 for a bad filter, 401 without credentials and 404 to a stranger', async () => {
    const org = await anOrganization(h);
    const bad = await h.http.get('/api/organization/wallet/records/export?type=Gift').set(inOrg(org.admin, org.id));
    expectEnvelopeError(bad, 400, 'Wallet.InvalidQuery');
    expectEnvelopeError(await h.http.get('/api/organization/wallet/records/export'), 401, 'Auth.Unauthorized');
    const stranger = await createUser(h);
    const res = await h.http.get('/api/organization/wallet/records/export').set(inOrg(stranger, org.id));
    expectEnvelopeError(res, 404, 'Organization.NotFound');
  });
});

describe('GET /api/organization/wallet/spending', () => {
  const read = async (org: TestOrg, caller = org.admin) =>
    h.http.get('/api/organization/wallet/spending').set(inOrg(caller, org.id));

  it("sums what today's and this month's gateway requests took, and the refunds, per UTC period", async () => {
    const org = await orgWithHistory();
    const { record } = await spend(h.ctx, org.id, usd('0.75'));
    await refund(h.ctx, record.id, {
      organizationId: org.id,
      amount: usd('0.25'),
      reason: 'test',
      createdBy: org.admin.accountId,
    });
    const res = await read(org);
    expect(res.status).toBe(200);
    const now = new Date();
    const dayStart = `${today()}T00:00:00.000Z`;
    const monthStart = `${today().slice(0, 8)}01T00:00:00.000Z`;
    expect(res.body.data).toEqual({
      currency: 'USD',
      today: { from: dayStart, spent: 2.5, refunded: 0.25, requests: 3 },
      month: { from: monthStart, spent: 2.5, refunded: 0.25, requests: 3 },
    });
    // The same sums as the service gives for a later month: nothing of this one.
    const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 2));
    const later = await walletSpending(h.ctx.db, org.id, nextMonth);
    expect(later.month).toEqual({ from: expect.any(Date), spent: 0, refunded: 0, requests: 0 });
  });

  it('counts a failed request, which took nothing, as a request', async () => {
    const org = await anOrganization(h);
    await recharge(h.ctx, org.id, { amount: usd('1') });
    await charge(h.ctx, org.id, usd('0.5'), { cost: 0n });
    await writeLedger(h.ctx, org.id);
    const { data } = (await read(org)).body;
    expect(data.today).toEqual(expect.objectContaining({ spent: 0, requests: 1 }));
  });

  it("reads the ledger writer's per-day roll-up, which migration 0021's backfill rebuilds from the request logs", async () => {
    const org = await orgWithHistory();
    await charge(h.ctx, org.id, usd('0.5'), { cost: 0n });
    await writeLedger(h.ctx, org.id);
    const daysOf = (db: Pick<typeof h.ctx.db, 'select'>) =>
      db
        .select()
        .from(organizationDailySpending)
        .where(eq(organizationDailySpending.organizationId, org.id))
        .orderBy(organizationDailySpending.day);
    const written = await daysOf(h.ctx.db);
    expect(written).toEqual([{ organizationId: org.id, day: today(), requestCount: 3, spent: usd('1.75') }]);
    // Written again, a batch adds nothing (the roll-up counts only the rows its statement inserted).
    await writeLedger(h.ctx, org.id);
    expect(await daysOf(h.ctx.db)).toEqual(written);
    // The backfill on the table emptied, in a transaction rolled back: the same day, count and amount.
    const rebuilt = await rebuiltByBackfill(
      h.ctx.db,
      '0021_organization_daily_spending.sql',
      organizationDailySpending,
      daysOf,
    );
    expect(rebuilt).toEqual(written);
  });

  it('lets any member read it, 401 without credentials and 404 to a stranger', async () => {
    const org = await orgWithHistory();
    const member = await aMember(h, org);
    expect((await read(org, member)).body.data.month.spent).toBe(1.75);
    expectEnvelopeError(await h.http.get('/api/organization/wallet/spending'), 401, 'Auth.Unauthorized');
    expectEnvelopeError(await read(org, await createUser(h)), 404, 'Organization.NotFound');
  });
});
