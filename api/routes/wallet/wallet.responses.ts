// What the wallet routes answer inside the envelope's `data` (wallet.presenters.ts), as the OpenAPI document shows
// it: money as decimal numbers in the wallet's currency, nulls omitted.
import { z } from 'zod';
import { walletRecordType } from '../../../shared/db/schema/index.js';
import { timestamp } from '../../openapi/response-parts.js';

const money = z.number().meta({ description: 'An amount in the wallet currency (up to six decimals).' });

export const wallet = z
  .object({
    organizationId: z.uuid(),
    balance: money.meta({ description: 'Available: what new requests may hold.' }),
    frozenAmount: money.meta({ description: 'Held by requests in flight.' }),
    currency: z.string(),
    isActive: z.boolean(),
  })
  .meta({ id: 'Wallet' });

export const walletRecord = z
  .object({
    id: z.uuid(),
    type: z.enum(walletRecordType.enumValues),
    amount: money,
    previousBalance: money,
    currentBalance: money,
    description: z.string().optional(),
    requestLogId: z.string().optional().meta({ description: 'The gateway request a Consume record charged.' }),
    refundOf: z.uuid().optional().meta({ description: 'The Consume record a Refund gives back.' }),
    topUpCodeId: z.uuid().optional().meta({ description: 'The top-up code a Recharge redeemed.' }),
    createdAt: timestamp,
  })
  .meta({ id: 'WalletRecord' });
