// POST /v1/web/search (through the configured search provider) and POST /v1/web/fetch (a batch for the
// web-fetch workers, awaited with a deadline); errors in the `{error:{message,type}}` shape.
import { fetchPages } from '../../../shared/web/web-fetch.js';
import { webSearch } from '../../../shared/web/web-search.js';
import { body } from '../../http/validate.js';
import { gatewayCallerOf } from '../../middleware/gateway-auth.js';
import { defineRoutes } from '../route.js';
import { gatewayCaller } from './gateway-route.js';
import { webFetchAnswer, webSearchAnswer } from './web.responses.js';
import { utcDay, webFetchBody, webSearchBody } from './web.schemas.js';

export const webRoutes = defineRoutes([
  {
    method: 'post',
    path: '/web/search',
    summary: 'Web search',
    ...gatewayCaller,
    gatewayAccounting: 'paid',
    body: webSearchBody,
    response: webSearchAnswer,
    handler: (ctx) => async (req, res) => {
      const input = body(req, webSearchBody, 'WebSearch.Invalid');
      const answer = await webSearch(ctx, gatewayCallerOf(res), {
        query: input.query,
        maxResults: input.maxResults,
        includeImages: input.includeImages,
        ...(input.startDate ? { startDate: utcDay(input.startDate) } : {}),
        ...(input.endDate ? { endDate: utcDay(input.endDate) } : {}),
      });
      res.json(answer);
    },
  },
  {
    method: 'post',
    path: '/web/fetch',
    summary: 'Fetch and extract up to 20 URLs',
    ...gatewayCaller,
    gatewayAccounting: 'paid',
    rateLimited:
      'WebFetch.TooManyBatches: the organization had WEB_FETCH_BATCHES_PER_ORGANIZATION fetches in progress all the while this one waited for its turn (WEB_FETCH_WAIT_MS; nothing charged).',
    body: webFetchBody,
    response: webFetchAnswer,
    handler: (ctx) => async (req, res) => {
      const input = body(req, webFetchBody, 'WebFetch.Invalid');
      res.json({ items: await fetchPages(ctx, gatewayCallerOf(res), input.urls) });
    },
  },
]);
