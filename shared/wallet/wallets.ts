// The wallet row of an organization: created with the organization, read by the routes, locked by every settled change.
import { randomBytes } from 'node:crypto';
import { eq, isNull, sql } from 'drizzle-orm';
import type { Database, DbExecutor } from '../db/client.js';
import { organizations, organizationWallets, walletAlertSettings } from '../db/schema/index.js';
import { AppError, notFound } from '../errors/app-error.js';
import { formatMicros, MICROS_PER_UNIT } from './money.js';

export type Wallet = typeof organizationWallets.$inferSelect;

export const DEFAULT_CURRENCY = 'USD';
/** Seed 03's example thresholds (10, 5, 3, 1 in the wallet currency), in micro-units. */
export const DEFAULT_THRESHOLDS = [10n, 5n, 3n, 1n].map((u) => Number(u * MICROS_PER_UNIT));
export const DEFAULT_MESSAGE_TEMPLATE = 'Your ockhub wallet balance has fallen below {threshold} {currency}.';
export const DEFAULT_MAX_DAILY_ALERTS = 3;

export const walletNotFound = () => notFound('Wallet.NotFound', 'This organization has no wallet.');
/** The 402 of a gateway request whose hold (`heldMicros`, its most possible cost) the available balance cannot cover. */
export const insufficientBalance = (heldMicros: bigint) =>
  new AppError(
    'Wallet.InsufficientBalance',
    402,
    `The organization wallet's available balance does not cover this request, which holds up to ` +
      `${formatMicros(heldMicros)} ${DEFAULT_CURRENCY} while it runs (its most possible cost; what it does not use ` +
      'goes back when it ends). Add money to the wallet (a platform Admin recharges it, an organization Admin redeems ' +
      'a top-up code with POST /api/organization/wallet/redeem), or ask for less: a lower max_tokens, max_uses on ' +
      'server tools (docs/gateway.md, "The reservation bound").',
  );
/**
 * The 402 of a request refused because the wallet holds nothing: a large gateway body before it is read, and
 * count_tokens (free, but SPEC's "a wallet at or below zero: 402" holds for every counted operation).
 */
export const walletEmpty = () =>
  new AppError(
    'Wallet.InsufficientBalance',
    402,
    "The organization wallet's balance is at or below zero, so no gateway request can run (counting tokens costs " +
      'nothing, but needs a wallet with money too). Add money to the wallet: a platform Admin recharges it, an ' +
      'organization Admin redeems a top-up code with POST /api/organization/wallet/redeem.',
  );
export const walletInactive = () => new AppError('Wallet.Inactive', 402, 'The organization wallet is not active.');

/** A Standard Webhooks signing secret: `whsec_` + base64 of 32 random bytes. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * Creates the wallet of a new organization (balance 0, USD) and its default alert settings. Called by the
 * organization's creation inside its transaction; a second call for the same organization changes nothing.
 */
export async function createWallet(tx: DbExecutor, organizationId: string): Promise<void> {
  await tx.insert(organizationWallets).values({ organizationId, currency: DEFAULT_CURRENCY }).onConflictDoNothing();
  await tx
    .insert(walletAlertSettings)
    .values({
      organizationId,
      messageTemplate: DEFAULT_MESSAGE_TEMPLATE,
      thresholds: DEFAULT_THRESHOLDS,
      maxDailyAlerts: DEFAULT_MAX_DAILY_ALERTS,
      webhookSecret: newWebhookSecret(),
    })
    .onConflictDoNothing();
}

export async function getWallet(db: DbExecutor, organizationId: string): Promise<Wallet> {
  const [wallet] = await db
    .select()
    .from(organizationWallets)
    .where(eq(organizationWallets.organizationId, organizationId));
  if (!wallet) throw walletNotFound();
  return wallet;
}

/** Reads and locks the wallet row until the transaction ends: every record-writing change goes through here. */
export async function lockWallet(tx: DbExecutor, organizationId: string): Promise<Wallet> {
  const [wallet] = await tx
    .select()
    .from(organizationWallets)
    .where(eq(organizationWallets.organizationId, organizationId))
    .for('update');
  if (!wallet) throw walletNotFound();
  return wallet;
}

/** Writes the new balance of a locked wallet and the sequence number of the records written with it. */
export async function writeBalance(tx: DbExecutor, organizationId: string, balance: bigint, seq: number) {
  await tx
    .update(organizationWallets)
    .set({ balance, recordSeq: seq, updatedAt: sql`now()` })
    .where(eq(organizationWallets.organizationId, organizationId));
}

/** Seed step: organizations created before wallets existed get theirs (balance 0); repeat runs change nothing. */
export async function ensureWallets(db: Database): Promise<number> {
  const missing = await db
    .select({ id: organizations.id })
    .from(organizations)
    .leftJoin(organizationWallets, eq(organizationWallets.organizationId, organizations.id))
    .where(isNull(organizationWallets.organizationId));
  for (const { id } of missing) await db.transaction((tx) => createWallet(tx, id));
  return missing.length;
}
