// POST /v1/web/search (through the configured search provider) and POST /v1/web/fetch (a batch for the
// web-fetch workers, awaited with a deadline); errors in the `{error:{message,type}}` shape.
import { Router } from 'express';
import type { AppContext } from '../../../shared/context.js';
import { fetchPages } from '../../../shared/web/web-fetch.js';
import { webSearch } from '../../../shared/web/web-search.js';
import { body } from '../../http/validate.js';
import { gatewayAuth, gatewayCallerOf } from '../../middleware/gateway-auth.js';
import { utcDay, webFetchBody, webSearchBody } from './web.schemas.js';

export function webRoutes(ctx: AppContext): Router {
  const router = Router();
  const auth = gatewayAuth(ctx, { allowXApiKey: true });

  router.post('/v1/web/search', ...auth, async (req, res) => {
    const input = body(req, webSearchBody, 'WebSearch.Invalid');
    const answer = await webSearch(ctx, gatewayCallerOf(res), {
      query: input.query,
      maxResults: input.maxResults,
      includeImages: input.includeImages,
      ...(input.startDate ? { startDate: utcDay(input.startDate) } : {}),
      ...(input.endDate ? { endDate: utcDay(input.endDate) } : {}),
    });
    res.json(answer);
  });

  router.post('/v1/web/fetch', ...auth, async (req, res) => {
    const input = body(req, webFetchBody, 'WebFetch.Invalid');
    res.json({ items: await fetchPages(ctx, gatewayCallerOf(res), input.urls) });
  });

  return router;
}
