// What the API key routes answer (api-keys.presenters.ts), as the OpenAPI document shows it; the token only once.
import { z } from 'zod';
import { apiKeyStatus, quotaRequestStatus } from '../../../shared/db/schema/index.js';
import { timestamp } from '../../openapi/response-parts.js';

const count = z.number().int().nonnegative();
const spent = z.number().nonnegative();

export const apiKey = z
  .object({
    id: z.uuid(),
    name: z.string(),
    prefix: z.string().meta({ description: 'The first 12 characters of the token.' }),
    status: z.enum(apiKeyStatus.enumValues),
    projectId: z.uuid().optional().meta({ description: 'The project the key is bound to (a gateway key).' }),
    createdAt: timestamp,
    lastUsedAt: timestamp.optional(),
    usage: z
      .object({ today: count, total: count })
      .meta({ description: 'Catalog (`/api/v1/**`) requests made with the key: today (UTC) and in all.' }),
    gatewayUsage: z
      .object({
        today: count,
        total: count,
        spentToday: spent.meta({
          description:
            'What today’s (UTC) requests took from the wallet, less what was refunded of them, in its currency.',
        }),
        spentTotal: spent.meta({
          description: 'What all its requests took from the wallet, less what was refunded of them, in its currency.',
        }),
      })
      .optional()
      .meta({
        description:
          'For a key bound to a project: its gateway (`/v1/**`) requests, today (UTC) and in all, and what their ' +
          'Consume records took from the wallet, from the request logs (a request shows once the ledger has ' +
          'written it, well under a second after it ends).',
      }),
  })
  .meta({ id: 'ApiKey' });

export const createdApiKey = apiKey
  .extend({ token: z.string().meta({ description: 'The `ock_` token: shown this once, never again.' }) })
  .meta({ id: 'CreatedApiKey' });

export const usageDays = z.object({
  dailyQuota: z.number().int(),
  days: z.array(z.object({ date: z.iso.date(), requestCount: count })),
});

export const quotaRequest = z
  .object({
    id: z.uuid(),
    requestedQuota: z.number().int(),
    reason: z.string().optional(),
    status: z.enum(quotaRequestStatus.enumValues),
    createdAt: timestamp,
    decidedAt: timestamp.optional(),
  })
  .meta({ id: 'QuotaRequest' });
