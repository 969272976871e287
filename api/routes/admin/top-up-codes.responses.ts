// What the top-up code routes answer (top-up-codes.presenters.ts), as the OpenAPI document shows it: the code itself
// only in the answer that issues it.
import { z } from 'zod';
import { topUpCodeStatuses } from '../../../shared/wallet/top-up-code-rules.js';
import { itemsPage, timestamp } from '../../openapi/response-parts.js';

export const topUpCode = z
  .object({
    id: z.uuid(),
    batchId: z.uuid().meta({ description: 'Codes issued by one request share a batch.' }),
    codeHint: z.string().meta({ description: "The code's last four characters." }),
    amount: z.number().meta({ description: 'In the currency, up to six decimals.' }),
    currency: z.literal('USD'),
    status: z.enum(topUpCodeStatuses),
    description: z.string().optional(),
    expiresAt: timestamp,
    createdAt: timestamp,
    createdBy: z.uuid().optional(),
    revokedAt: timestamp.optional(),
    redeemedAt: timestamp.optional(),
    redeemedBy: z.uuid().optional(),
    organizationId: z.uuid().optional().meta({ description: 'The organization whose wallet the code went to.' }),
    recordId: z.uuid().optional().meta({ description: 'The Recharge record the redemption wrote (the list only).' }),
  })
  .meta({ id: 'TopUpCode' });

export const issuedTopUpCodes = z.object({
  batchId: z.uuid(),
  codes: z.array(
    topUpCode
      .extend({ code: z.string().meta({ description: 'The code: shown this once, never again.' }) })
      .meta({ id: 'IssuedTopUpCode' }),
  ),
});

export const topUpCodePage = itemsPage(topUpCode);
