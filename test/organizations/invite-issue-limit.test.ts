// Invite tokens one organization issues per day. A token is never deleted (a revoked one stays as the record of who
// could join), so before this limit an organization's Admin (any account, in its own organization) wrote them without
// end at request speed.
import { count, eq } from 'drizzle-orm';
import { inviteTokens } from '../../shared/db/schema/index.js';
import { INVITE_TOKENS_PER_ORGANIZATION_PER_DAY } from '../../shared/organizations/organization-rates.js';
import { createHarness, type Harness } from '../support/harness.js';
import { anOrganization, expectEnvelopeError, inOrg, type TestOrg } from '../support/org-fixtures.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const issue = (org: TestOrg, expiresAt = new Date(Date.now() + 3_600_000).toISOString()) =>
  h.http.post('/api/organization/invite-tokens').set(inOrg(org.admin, org.id)).send({ expiresAt, maxUsageCount: 1 });

const stored = async (org: TestOrg) =>
  (await h.ctx.db.select({ n: count() }).from(inviteTokens).where(eq(inviteTokens.organizationId, org.id)))[0]?.n;

it('an organization issues at most 100 invite tokens a day, even all at once; the next answers 429', async () => {
  expect(INVITE_TOKENS_PER_ORGANIZATION_PER_DAY).toBe(100);
  const org = await anOrganization(h, undefined, 'Token mill');
  // A refused issue (an expiry in the past) uses no place.
  expectEnvelopeError(await issue(org, new Date(Date.now() - 1000).toISOString()), 400, 'Invite.Invalid');
  const answers = await Promise.all(
    Array.from({ length: INVITE_TOKENS_PER_ORGANIZATION_PER_DAY + 4 }, () => issue(org)),
  );
  expect(answers.filter((r) => r.status === 201)).toHaveLength(INVITE_TOKENS_PER_ORGANIZATION_PER_DAY);
  for (const refused of answers.filter((r) => r.status !== 201)) {
    expectEnvelopeError(refused, 429, 'Invite.TooManyIssued');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(80_000);
  }
  expect(await stored(org)).toBe(INVITE_TOKENS_PER_ORGANIZATION_PER_DAY);

  // The allowance is the organization's: another one still issues.
  const other = await anOrganization(h, undefined, 'Elsewhere');
  expect((await issue(other)).status).toBe(201);
});
