// Small factories for identity: accounts created through the accounts service (password hashed once per test
// file, hashing being deliberately slow), console sessions and API keys through their services.
import { randomBytes } from 'node:crypto';
import { createAccount } from '../../shared/identity/accounts.js';
import { bootstrapAdmin } from '../../shared/identity/admin-bootstrap.js';
import { createApiKey } from '../../shared/identity/api-keys.js';
import type { Role } from '../../shared/identity/principal.js';
import { createSession } from '../../shared/identity/sessions.js';
import type { Harness } from './harness.js';

export const TEST_PASSWORD = 'correct-horse-battery-staple';
let testHash: Promise<string> | undefined;

export const uniqueEmail = (label = 'user') => `${label}-${randomBytes(5).toString('hex')}@test.ockhub.local`;

export async function signInAdmin(h: Harness): Promise<{ accountId: string; token: string }> {
  const { account } = await bootstrapAdmin(h.ctx);
  const session = await createSession(h.ctx, account.id);
  return { accountId: account.id, token: session.accessToken };
}

export type TestUser = { accountId: string; email: string; password: string; session: string; apiKey: string };

export async function createUser(
  h: Harness,
  options: { roles?: Role[]; email?: string; name?: string; dailyQuota?: number } = {},
): Promise<TestUser> {
  testHash ??= h.ctx.passwords.hash(TEST_PASSWORD);
  const email = options.email ?? uniqueEmail();
  const account = await createAccount(h.ctx, {
    email,
    name: options.name ?? 'Test User',
    passwordHash: await testHash,
    roles: options.roles ?? [],
    ...(options.dailyQuota ? { dailyQuota: options.dailyQuota } : {}),
  });
  const session = await createSession(h.ctx, account.id);
  const { token } = await createApiKey(h.ctx, account.id, { name: 'test key' });
  return { accountId: account.id, email, password: TEST_PASSWORD, session: session.accessToken, apiKey: token };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

const platformAdmins = new WeakMap<Harness, Promise<TestUser>>();

/** This harness's platform Admin (account role `Admin`), made once: the only kind of account that recharges wallets. */
export function platformAdminOf(h: Harness): Promise<TestUser> {
  let admin = platformAdmins.get(h);
  if (!admin) {
    admin = createUser(h, { roles: ['Admin'], name: 'Platform Admin' });
    platformAdmins.set(h, admin);
  }
  return admin;
}
