// What `npm start` says about the seeded Admin's password is checked against the account: the seed sets the
// password only when it creates the Admin, so an ADMIN_PASSWORD given to a later start is not the password.
import { adminPasswordHint } from '../../shared/config/development-defaults.js';
import { adminHasPassword, bootstrapAdmin } from '../../shared/identity/admin-bootstrap.js';
import { createHarness, type Harness } from '../support/harness.js';
import { uniqueEmail } from '../support/identity.js';

let h: Harness;
beforeAll(async () => {
  // An Admin of its own: the jest worker's database is shared with other files, which sign in as the usual one.
  h = await createHarness({ ADMIN_EMAIL: uniqueEmail('seeded-admin'), ADMIN_PASSWORD: 'the-first-password' });
});
afterAll(async () => h.close());

it('tells whether the seeded Admin signs in with a password, and the hint says when ADMIN_PASSWORD is not it', async () => {
  expect(await adminHasPassword(h.ctx, 'the-first-password')).toBe(false); // not created yet
  expect((await bootstrapAdmin(h.ctx)).created).toBe(true);
  expect(await adminHasPassword(h.ctx, 'the-first-password')).toBe(true);
  // A later start with another ADMIN_PASSWORD finds the account and leaves its password alone.
  expect((await bootstrapAdmin(h.ctx)).created).toBe(false);
  const later = { ADMIN_PASSWORD: 'a-later-password' };
  const current = await adminHasPassword(h.ctx, later.ADMIN_PASSWORD);
  expect([current, adminPasswordHint(later, current)]).toEqual([
    false,
    expect.stringMatching(/^its password is not ADMIN_PASSWORD: the seed sets it only when it creates the account/),
  ]);
});
