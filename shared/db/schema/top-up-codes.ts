// Top-up codes (SPEC section 4): money a platform Admin issued as single-use codes, stored only as a keyed hash.
// Redeeming one writes the organization's Recharge record (`wallet_records.top_up_code_id`) in the same transaction.
import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { at, createdAt, id } from './columns.js';
import { accounts } from './identity.js';
import { organizations } from './organizations.js';

const accountRef = (name: string) => uuid(name).references(() => accounts.id, { onDelete: 'set null' });

export const walletTopUpCodes = pgTable(
  'wallet_top_up_codes',
  {
    id: id(),
    /** HMAC-SHA256 of the code with the server secret: the code itself is shown once and never stored. */
    codeHash: text('code_hash').notNull(),
    /** The code's last four characters, so an Admin can tell codes apart in the list. */
    codeHint: text('code_hint').notNull(),
    /** Codes issued by one request share a batch. */
    batchId: uuid('batch_id').notNull(),
    /** Micro-units of the wallet currency (USD). */
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    description: text('description'),
    expiresAt: at('expires_at').notNull(),
    createdBy: accountRef('created_by'),
    createdAt: createdAt(),
    revokedAt: at('revoked_at'),
    redeemedAt: at('redeemed_at'),
    redeemedBy: accountRef('redeemed_by'),
    /** The organization whose wallet the code went to. */
    organizationId: uuid('organization_id').references(() => organizations.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('wallet_top_up_codes_hash_key').on(t.codeHash),
    index('wallet_top_up_codes_created_idx').on(t.createdAt, t.id),
    index('wallet_top_up_codes_batch_idx').on(t.batchId),
    check('wallet_top_up_codes_amount_positive', sql`${t.amount} > 0`),
  ],
);
