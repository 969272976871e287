// API keys of the caller's account, its daily usage and quota requests (API key or console session).
import { Router } from 'express';
import type { AppContext } from '../../../shared/context.js';
import { createApiKey, deleteApiKey, listApiKeys, setApiKeyStatus } from '../../../shared/identity/api-keys.js';
import { usageHistory } from '../../../shared/identity/daily-usage.js';
import { listOwnQuotaRequests, submitQuotaRequest } from '../../../shared/identity/quota-requests.js';
import { body, pathId, query } from '../../http/validate.js';
import { authenticate, principalOf } from '../../middleware/auth.js';
import { presentApiKey, presentQuotaRequest } from './api-keys.presenters.js';
import { createApiKeyBody, quotaRequestBody, usageQuery } from './api-keys.schemas.js';

export function apiKeyRoutes(ctx: AppContext): Router {
  const router = Router();
  router.use(authenticate(ctx));

  router.get('/', async (_req, res) => {
    res.json((await listApiKeys(ctx, principalOf(res).accountId)).map(presentApiKey));
  });

  router.post('/', async (req, res) => {
    const input = body(req, createApiKeyBody, 'ApiKey.Invalid');
    const { record, token } = await createApiKey(ctx, principalOf(res).accountId, input);
    res.json({ ...presentApiKey(record), token });
  });

  router.get('/usage', async (req, res) => {
    const { days } = query(req, usageQuery, 'ApiKey.InvalidQuery');
    res.json(await usageHistory(ctx, principalOf(res).accountId, days));
  });

  router.post('/quota-requests', async (req, res) => {
    const input = body(req, quotaRequestBody, 'QuotaRequest.Invalid');
    res.json(presentQuotaRequest(await submitQuotaRequest(ctx, principalOf(res).accountId, input)));
  });

  router.get('/quota-requests/mine', async (_req, res) => {
    res.json((await listOwnQuotaRequests(ctx, principalOf(res).accountId)).map(presentQuotaRequest));
  });

  for (const [action, status] of [
    ['enable', 'enabled'],
    ['disable', 'disabled'],
  ] as const) {
    router.post(`/:keyId/${action}`, async (req, res) => {
      await setApiKeyStatus(ctx, principalOf(res).accountId, pathId(req, 'keyId', 'ApiKey.InvalidId'), status);
      res.status(200).end();
    });
  }

  router.delete('/:keyId', async (req, res) => {
    await deleteApiKey(ctx, principalOf(res).accountId, pathId(req, 'keyId', 'ApiKey.InvalidId'));
    res.status(200).end();
  });

  return router;
}
