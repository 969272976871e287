// API keys of the caller's account, its daily usage and quota requests (API key or console session).
import { z } from 'zod';
import {
  createApiKey,
  deleteApiKey,
  listApiKeys,
  MAX_API_KEYS_PER_ACCOUNT,
  setApiKeyStatus,
} from '../../../shared/identity/api-keys.js';
import { usageHistory } from '../../../shared/identity/daily-usage.js';
import { listOwnQuotaRequests, submitQuotaRequest } from '../../../shared/identity/quota-requests.js';
import { pathParam, uuidParam } from '../../http/path-params.js';
import { body, query } from '../../http/validate.js';
import { auditActorOf } from '../../middleware/audit-actor.js';
import { principalOf, signedIn } from '../../middleware/auth.js';
import type { Area, Route } from '../route.js';
import { presentApiKey, presentQuotaRequest } from './api-keys.presenters.js';
import { apiKey, createdApiKey, quotaRequest, usageDays } from './api-keys.responses.js';
import { createApiKeyBody, quotaRequestBody, usageQuery } from './api-keys.schemas.js';

const account = { access: 'bearer', dailyQuota: 'counted' } as const;
const keyId = { keyId: uuidParam({ invalid: 'ApiKey.InvalidId' }) };

const statusRoutes = (['enable', 'disable'] as const).map(
  (action): Route => ({
    method: 'post',
    path: `/:keyId/${action}`,
    summary: action === 'enable' ? 'Enable a key' : 'Disable a key',
    ...account,
    params: keyId,
    content: 'none',
    returns: 'No body.',
    handler: (ctx) => async (req, res) => {
      const status = action === 'enable' ? 'enabled' : 'disabled';
      await setApiKeyStatus(ctx, principalOf(res).accountId, pathParam(req, 'keyId'), status);
      res.status(200).end();
    },
  }),
);

export const apiKeysArea: Area = {
  tag: 'API keys',
  before: signedIn,
  routes: [
    {
      method: 'get',
      path: '/',
      summary: 'List the API keys of the account',
      ...account,
      returns: `The account's keys, newest first (at most ${MAX_API_KEYS_PER_ACCOUNT}).`,
      response: z.array(apiKey),
      handler: (ctx) => async (_req, res) => {
        res.json((await listApiKeys(ctx, principalOf(res).accountId)).map(presentApiKey));
      },
    },
    {
      method: 'post',
      path: '/',
      audited: true,
      summary: 'Create an API key (the token is shown once)',
      ...account,
      body: createApiKeyBody,
      response: createdApiKey,
      conflicts: `ApiKey.LimitReached: the account already holds ${MAX_API_KEYS_PER_ACCOUNT} keys, enabled or disabled.`,
      handler: (ctx) => async (req, res) => {
        const input = body(req, createApiKeyBody, 'ApiKey.Invalid');
        const { record, token } = await createApiKey(ctx, principalOf(res).accountId, input, {
          actor: auditActorOf(req, res),
        });
        res.json({ ...presentApiKey(record), token });
      },
    },
    {
      method: 'get',
      path: '/usage',
      summary: 'Daily usage of the account quota',
      ...account,
      query: usageQuery,
      response: usageDays,
      handler: (ctx) => async (req, res) => {
        const { days } = query(req, usageQuery, 'ApiKey.InvalidQuery');
        res.json(await usageHistory(ctx, principalOf(res).accountId, days));
      },
    },
    {
      method: 'post',
      path: '/quota-requests',
      summary: 'Ask for a higher daily quota',
      ...account,
      body: quotaRequestBody,
      response: quotaRequest,
      handler: (ctx) => async (req, res) => {
        const input = body(req, quotaRequestBody, 'QuotaRequest.Invalid');
        res.json(presentQuotaRequest(await submitQuotaRequest(ctx, principalOf(res).accountId, input)));
      },
    },
    {
      method: 'get',
      path: '/quota-requests/mine',
      summary: 'My quota requests',
      ...account,
      response: z.array(quotaRequest),
      handler: (ctx) => async (_req, res) => {
        res.json((await listOwnQuotaRequests(ctx, principalOf(res).accountId)).map(presentQuotaRequest));
      },
    },
    ...statusRoutes,
    {
      method: 'delete',
      path: '/:keyId',
      audited: true,
      summary: 'Delete a key',
      ...account,
      params: keyId,
      content: 'none',
      returns: 'No body; the key is refused at once and for ever.',
      handler: (ctx) => async (req, res) => {
        await deleteApiKey(ctx, principalOf(res).accountId, pathParam(req, 'keyId'), auditActorOf(req, res));
        res.status(200).end();
      },
    },
  ],
};
