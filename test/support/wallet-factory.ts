// Test factories for wallets: an organization created through the organizations service (which creates its
// wallet), funded by a recharge.

import { createOrganization } from '../../shared/organizations/organizations.js';
import { recharge } from '../../shared/wallet/ledger.js';
import { parseMicros } from '../../shared/wallet/money.js';
import type { Harness } from './harness.js';
import { createUser, type TestUser } from './identity.js';

/** Micro-units from a decimal literal, e.g. usd('1.5') = 1_500_000n. */
export function usd(amount: string): bigint {
  const micros = parseMicros(amount);
  if (micros === undefined) throw new Error(`not an amount: ${amount}`);
  return micros;
}

/** A new organization (owned by `owner`, else a new account) whose wallet holds `amount`; returns its id. */
export async function fundedWallet(h: Harness, amount = '0', owner?: TestUser): Promise<string> {
  const admin = owner ?? (await createUser(h, { name: 'Wallet Admin' }));
  const organization = await createOrganization(h.ctx, admin.accountId, { name: 'Wallet Org' });
  if (usd(amount) > 0n) await recharge(h.ctx, organization.id, { amount: usd(amount), description: 'test funds' });
  return organization.id;
}
