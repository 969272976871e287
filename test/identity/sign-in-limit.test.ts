// Successful sign-ins are limited per account (security review #73). Failed ones always were (attempt-limits), but an
// account's owner, or a script with its password, could sign in without end: every success a password hash on the
// API's few hashing threads (whose queue, once full, answers everyone's login 503) and a session row kept 36 hours.
import { count, eq } from 'drizzle-orm';
import { consoleSessions } from '../../shared/db/schema/index.js';
import { signInsPerHour } from '../../shared/identity/sign-in-limits.js';
import { createHarness, type Harness } from '../support/harness.js';
import { createUser } from '../support/identity.js';

const LIMIT = 4;
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ SIGN_INS_PER_ACCOUNT_PER_HOUR: String(LIMIT) });
});
afterAll(() => h.close());

const sessionsOf = async (accountId: string) =>
  (await h.ctx.db.select({ n: count() }).from(consoleSessions).where(eq(consoleSessions.accountId, accountId)))[0]?.n;

it('an account signs in at most the limit of times an hour; the next answers 429 with Retry-After, before any hash', async () => {
  const user = await createUser(h);
  const login = (password = user.password) => h.http.post('/api/v1/auth/login').send({ email: user.email, password });
  // A wrong password is not a sign-in: it uses no place (the guessing limits count it).
  expect((await login('not-the-password')).status).toBe(401);
  const answers = await Promise.all(Array.from({ length: LIMIT + 6 }, () => login()));
  expect(answers.filter((r) => r.status === 200)).toHaveLength(LIMIT);
  const refused = answers.filter((r) => r.status === 429);
  expect(refused).toHaveLength(6);
  expect(JSON.parse(refused[0]!.text).title).toBe('Auth.TooManySignIns');
  expect(Number(refused[0]!.headers['retry-after'])).toBeGreaterThan(0);
  // createUser's own session, and one per admitted sign-in.
  expect(await sessionsOf(user.accountId)).toBe(1 + LIMIT);

  // The console's cookie sign-in is the same sign-in; another account is not affected.
  const cookie = await h.http
    .post('/api/v1/auth/session')
    .set('origin', h.config.publicBaseUrl)
    .send({ email: user.email, password: user.password });
  expect(cookie.status).toBe(429);
  const other = await createUser(h);
  expect((await h.http.post('/api/v1/auth/login').send({ email: other.email, password: other.password })).status).toBe(
    200,
  );
});

it('defaults to 30 an hour in production and off elsewhere; 0 is off', () => {
  const base = { ...h.config, SIGN_INS_PER_ACCOUNT_PER_HOUR: undefined };
  expect(signInsPerHour({ ...base, NODE_ENV: 'production' })).toBe(30);
  expect(signInsPerHour({ ...base, NODE_ENV: 'development' })).toBe(0);
  expect(signInsPerHour({ ...base, NODE_ENV: 'production', SIGN_INS_PER_ACCOUNT_PER_HOUR: 0 })).toBe(0);
});
