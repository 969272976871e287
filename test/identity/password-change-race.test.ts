// A password change must end every way in with the old password: a login that checked the old password before the
// change committed, and whose session is written after the change revoked the others, must not keep a session.
// (Found by a security review: someone holding a stolen password who logs in over and over kept a session through
// the owner's password change.)
import { createHarness, type Harness } from '../support/harness.js';
import { bearer, createUser, TEST_PASSWORD } from '../support/identity.js';

let h: Harness;
beforeAll(async () => {
  // One hashing thread: the logins' checks and the change's hashes queue in order, so logins that read the old hash
  // while the change was hashing are checked after it committed.
  h = await createHarness({
    PASSWORD_HASH_THREADS: '1',
    AUTH_FAILURES_PER_ACCOUNT: '0',
    AUTH_FAILURES_PER_ADDRESS: '0',
  });
});
afterAll(() => h.close());

const NEW_PASSWORD = 'a-brand-new-password-2026';

it('no session made with the old password outlives a password change, however the logins interleave', async () => {
  const owner = await createUser(h);
  const change = h.http
    .post('/api/v1/auth/me/password')
    .set(bearer(owner.session))
    .send({ currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD });
  let changed = false;
  const changeDone = change.then((res) => {
    changed = true;
    return res;
  });

  // The attacker's script: logins with the old password, four in flight, until the change has answered.
  const logins: Promise<{ status: number; token?: string }>[] = [];
  const loginOnce = () =>
    h.http
      .post('/api/v1/auth/login')
      .send({ email: owner.email, password: TEST_PASSWORD })
      .then((res) => ({ status: res.status, token: res.body.accessToken as string | undefined }));
  const lane = async () => {
    while (!changed) {
      const attempt = loginOnce();
      logins.push(attempt);
      await attempt;
    }
  };
  await Promise.all([changeDone, lane(), lane(), lane(), lane()]);
  expect((await changeDone).status).toBe(200);

  const results = await Promise.all(logins);
  expect(results.length).toBeGreaterThan(0);
  for (const result of results) expect([200, 401]).toContain(result.status);
  const sessions = results.filter((r) => r.status === 200).map((r) => r.token as string);
  const stillValid = [];
  for (const token of sessions) {
    const me = await h.http.get('/api/v1/auth/me').set(bearer(token));
    if (me.status !== 401) stillValid.push(me.status);
  }
  expect(stillValid).toEqual([]);

  // The new password signs in; the old one no longer does.
  expect((await h.http.post('/api/v1/auth/login').send({ email: owner.email, password: NEW_PASSWORD })).status).toBe(
    200,
  );
  expect((await loginOnce()).status).toBe(401);
});
