// POST /v1/web/search as a domain service: charge the request (wallet, then project quota), ask the configured
// search provider, and settle exactly once: the web price when the upstream answered, nothing when it failed.
import type { AppContext } from '../context.js';
import { AppError } from '../errors/app-error.js';
import { closeCharge, openCharge } from '../gateway/accounting.js';
import type { GatewayCaller } from '../gateway/gateway-caller.js';
import { loadModelRegistry } from '../gateway/model-registry.js';
import { isOutboundRequestError } from '../http/index.js';
import { searchProvider } from '../providers/search/configured-search-provider.js';
import type { SearchAnswer, SearchQuery } from '../providers/search/search-provider.js';
import { webRequestPriceMicros } from './web-price.js';

/** The registry's search entry the request log names: `web-search`, else the first model of capability search. */
function searchModelId(ctx: AppContext): string | undefined {
  const registry = loadModelRegistry(ctx.config.MODEL_REGISTRY);
  return (registry.get('web-search') ?? registry.models.find((m) => m.capability === 'search'))?.id;
}

export async function webSearch(ctx: AppContext, caller: GatewayCaller, query: SearchQuery): Promise<SearchAnswer> {
  const price = webRequestPriceMicros(ctx.config);
  const model = searchModelId(ctx);
  const charge = await openCharge(ctx, caller, {
    operation: 'web_search',
    reserveMicros: price,
    ...(model ? { model } : {}),
  });
  let answer: SearchAnswer;
  try {
    answer = await searchProvider(ctx.config).search(query);
  } catch (err) {
    const failure =
      err instanceof AppError
        ? err
        : new AppError(
            'Upstream.Unavailable',
            503,
            // The outbound error names the upstream's host: it stays in the cause (the server log).
            isOutboundRequestError(err)
              ? 'The search upstream could not be reached; try again shortly.'
              : 'The search upstream failed.',
            { headers: { 'retry-after': '1' }, cause: err },
          );
    ctx.logger.warn({ err: failure }, 'search upstream failed');
    await closeCharge(ctx, charge, {
      status: 'failed',
      httpStatus: failure.status,
      costMicros: 0n,
      errorMessage: failure.message,
    });
    throw failure;
  }
  await closeCharge(ctx, charge, { status: 'succeeded', httpStatus: 200, costMicros: price });
  return answer;
}
