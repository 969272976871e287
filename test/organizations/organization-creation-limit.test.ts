// Organizations one account may create per day. There is no route to delete one, and each is rows of its own (the
// organization, a membership, a wallet): before this limit one account and a script created them without end.
import { sql } from 'drizzle-orm';
import { organizationsPerDay } from '../../shared/organizations/organization-rates.js';
import { createHarness, type Harness } from '../support/harness.js';
import { bearer, createUser } from '../support/identity.js';
import { expectEnvelopeError } from '../support/org-fixtures.js';

const LIMIT = 3;
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ ORGANIZATIONS_PER_ACCOUNT_PER_DAY: String(LIMIT) });
});
afterAll(() => h.close());

const create = (session: string, name: unknown) =>
  h.http.post('/api/organizations').set(bearer(session)).send({ name });

it('an account creates at most the limit of organizations in a day, even all at once; the next answers 429', async () => {
  const creator = await createUser(h);
  const attempts = await Promise.all(Array.from({ length: LIMIT + 5 }, (_, i) => create(creator.session, `Org ${i}`)));
  expect(attempts.filter((r) => r.status === 201)).toHaveLength(LIMIT);
  const refused = attempts.filter((r) => r.status !== 201);
  expect(refused).toHaveLength(5);
  for (const res of refused) {
    expectEnvelopeError(res, 429, 'Organization.TooManyCreated');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(80_000);
  }
  // Nothing half-made: the account is a member of exactly the created ones, each with its wallet.
  const mine = await h.http.get('/api/organizations').set(bearer(creator.session));
  expect(mine.body.data).toHaveLength(LIMIT);
  const { rows } = await h.ctx.db.execute<{ organizations: number; wallets: number }>(sql`
    SELECT count(*)::int AS organizations, count(w.organization_id)::int AS wallets
    FROM organizations o LEFT JOIN organization_wallets w ON w.organization_id = o.id
    WHERE o.created_by = ${creator.accountId}`);
  expect(rows[0]).toEqual({ organizations: LIMIT, wallets: LIMIT });

  // The allowance is the account's: another account still creates.
  const other = await createUser(h);
  expect((await create(other.session, 'Elsewhere')).status).toBe(201);
});

it('a refused creation (bad input) uses none of the allowance', async () => {
  const creator = await createUser(h);
  for (let i = 0; i < 4; i++) expectEnvelopeError(await create(creator.session, ''), 400, 'Organization.Invalid');
  for (let i = 0; i < LIMIT; i++) expect((await create(creator.session, `Org ${i}`)).status).toBe(201);
  expectEnvelopeError(await create(creator.session, 'One more'), 429, 'Organization.TooManyCreated');
});

it('is 10 a day in production and off elsewhere unless set', () => {
  const base = h.ctx.config;
  expect(organizationsPerDay({ ...base, NODE_ENV: 'production', ORGANIZATIONS_PER_ACCOUNT_PER_DAY: undefined })).toBe(
    10,
  );
  expect(organizationsPerDay({ ...base, NODE_ENV: 'development', ORGANIZATIONS_PER_ACCOUNT_PER_DAY: undefined })).toBe(
    0,
  );
  expect(organizationsPerDay({ ...base, NODE_ENV: 'production', ORGANIZATIONS_PER_ACCOUNT_PER_DAY: 0 })).toBe(0);
});
