// Test factories for wallets: a wallet created through the wallet service, funded by a recharge.
import { randomUUID } from 'node:crypto';
import { recharge } from '../../shared/wallet/ledger.js';
import { parseMicros } from '../../shared/wallet/money.js';
import { createWallet } from '../../shared/wallet/wallets.js';
import type { Harness } from '../support/harness.js';

/** Micro-units from a decimal literal, e.g. usd('1.5') = 1_500_000n. */
export function usd(amount: string): bigint {
  const micros = parseMicros(amount);
  if (micros === undefined) throw new Error(`not an amount: ${amount}`);
  return micros;
}

export async function fundedWallet(h: Harness, amount = '0', organizationId: string = randomUUID()): Promise<string> {
  await createWallet(h.ctx.db, organizationId);
  if (usd(amount) > 0n) await recharge(h.ctx, organizationId, { amount: usd(amount), description: 'test funds' });
  return organizationId;
}
