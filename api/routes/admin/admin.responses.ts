// What the platform Admin's routes answer (admin.presenters.ts, presentAccount, presentQuotaRequest), as the OpenAPI
// document shows it: provisioned accounts, the directories of accounts and organizations, quota requests with their
// account.
import { z } from 'zod';
import { roles } from '../../../shared/identity/principal.js';
import { itemsPage, timestamp } from '../../openapi/response-parts.js';
import { quotaRequest } from '../api-keys/api-keys.responses.js';
import { walletRecord } from '../wallet/wallet.responses.js';

const money = z.number().meta({ description: 'An amount in the wallet currency (up to six decimals).' });

export const account = z
  .object({
    id: z.uuid(),
    email: z.string(),
    name: z.string(),
    roles: z.array(z.enum(roles)),
    dailyQuota: z.number().int().meta({ description: 'Requests an API key of the account may make per UTC day.' }),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Account' });

export const accountsPage = itemsPage(account);

export const directoryOrganization = z
  .object({
    id: z.uuid(),
    name: z.string(),
    createdAt: timestamp,
    memberCount: z.number().int().nonnegative(),
    wallet: z
      .object({
        balance: money.meta({ description: 'Available: what new requests may hold.' }),
        frozenAmount: money.meta({ description: 'Held by requests in flight.' }),
        currency: z.string(),
      })
      .optional()
      .meta({ description: 'Absent when the organization has no wallet row.' }),
  })
  .meta({ id: 'DirectoryOrganization' });

export const organizationsPage = itemsPage(directoryOrganization);

export const walletRecordsPage = itemsPage(walletRecord);

export const quotaRequestWithAccount = quotaRequest
  .extend({
    account: z.object({
      id: z.uuid(),
      email: z.string(),
      name: z.string(),
      dailyQuota: z.number().int().meta({ description: 'The daily quota now (what an approval would replace).' }),
    }),
  })
  .meta({ id: 'QuotaRequestWithAccount' });
