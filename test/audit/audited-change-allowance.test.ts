// Regression for finding #155 (round 20): the audit log can never be deleted from, and one free account with a console
// session (which consumes no daily quota) created and deleted API keys without end, two rows per cycle (174 rows,
// 92 KB a second from one session). Every route that writes the audit log is now `audited`: each request of an account
// that is not a platform Admin or Moderator counts towards AUDITED_CHANGES_PER_ACCOUNT_PER_HOUR.
import { count, eq } from 'drizzle-orm';
import { mountedAreas } from '../../api/routes/areas.js';
import { auditedChangesPerHour } from '../../shared/audit/audit-allowance.js';
import { auditLog } from '../../shared/db/schema/index.js';
import { createHarness, type Harness } from '../support/harness.js';
import { bearer, createUser, type TestUser } from '../support/identity.js';

const LIMIT = 6;
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ AUDITED_CHANGES_PER_ACCOUNT_PER_HOUR: String(LIMIT) });
});
afterAll(() => h.close());

const rowsBy = async (accountId: string) =>
  (await h.ctx.db.select({ n: count() }).from(auditLog).where(eq(auditLog.actorAccountId, accountId)))[0]?.n ?? 0;

/** One create-and-delete cycle of an API key: two audited requests; the statuses as answered. */
async function churn(user: TestUser) {
  const created = await h.http.post('/api/v1/api-keys').set(bearer(user.session)).send({ name: 'churn' });
  if (created.status !== 200) return [created.status];
  const deleted = await h.http.delete(`/api/v1/api-keys/${created.body.id}`).set(bearer(user.session));
  return [created.status, deleted.status, deleted];
}

it('refuses an account its audited requests past the hour’s allowance: 429 Account.TooManyChanges, no row', async () => {
  const user = await createUser(h);
  for (let i = 0; i < LIMIT / 2; i++) expect((await churn(user)).slice(0, 2)).toEqual([200, 200]);
  expect(await rowsBy(user.accountId)).toBe(LIMIT);
  const refused = await h.http.post('/api/v1/api-keys').set(bearer(user.session)).send({ name: 'one more' });
  expect(refused.status).toBe(429);
  expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(JSON.parse(refused.text)).toMatchObject({ title: 'Account.TooManyChanges', status: 429 });
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  expect(await rowsBy(user.accountId)).toBe(LIMIT);
  // Another account has its own allowance.
  const other = await createUser(h);
  expect((await churn(other)).slice(0, 2)).toEqual([200, 200]);
});

it('does not limit platform Admins and Moderators', async () => {
  for (const roles of [['Admin'], ['Moderator']] as const) {
    const staff = await createUser(h, { roles: [...roles] });
    for (let i = 0; i < LIMIT; i++) expect((await churn(staff)).slice(0, 2)).toEqual([200, 200]);
  }
});

it('declares `audited` on every route whose handler writes the audit log with the caller as actor', () => {
  const unflagged: string[] = [];
  for (const { prefix, area } of mountedAreas) {
    for (const route of area.routes) {
      const source = route.handler.toString();
      if (source.includes('auditActorOf') && !route.audited) unflagged.push(`${route.method} ${prefix}${route.path}`);
    }
  }
  expect(unflagged).toEqual([]);
});

it('is 300 an hour in production and off elsewhere unless set', () => {
  const base = h.ctx.config;
  expect(
    auditedChangesPerHour({ ...base, NODE_ENV: 'production', AUDITED_CHANGES_PER_ACCOUNT_PER_HOUR: undefined }),
  ).toBe(300);
  expect(
    auditedChangesPerHour({ ...base, NODE_ENV: 'development', AUDITED_CHANGES_PER_ACCOUNT_PER_HOUR: undefined }),
  ).toBe(0);
  expect(auditedChangesPerHour({ ...base, NODE_ENV: 'production', AUDITED_CHANGES_PER_ACCOUNT_PER_HOUR: 0 })).toBe(0);
});
