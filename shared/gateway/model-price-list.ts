// The gateway's models as a price list for people (the console's Gateway page): what each costs, in the units it is
// billed in, with the registry's documented fallbacks applied (a cache read at the input price when none is named),
// so the list says what a request is charged, not what the registry file spells.
import type { Config } from '../config/index.js';
import { microsToNumber } from '../wallet/money.js';
import { webRequestPriceMicros } from '../web/web-price.js';
import { modelsNewestFirst } from './model-pages.js';
import { type ModelEntry, type ModelRegistry, type TokenPrices, tokenPricesOf } from './model-registry.js';

export type PricedModel = {
  id: string;
  displayName: string;
  capability: ModelEntry['capability'];
  contextWindowTokens?: number;
  maxOutputTokens?: number;
  supportsThinking?: boolean;
  resolutions?: string[];
  prices: Partial<TokenPrices> & {
    webSearchPerRequest?: number;
    webFetchPerRequest?: number;
    perVideoSecond?: number;
    perRequest?: number;
  };
  longContext?: ModelEntry['longContext'];
  priceMultipliers?: ModelEntry['priceMultipliers'];
};

function pricesOf(m: ModelEntry, config: Pick<Config, 'WEB_BILLING_MULTIPLIER'>): PricedModel['prices'] {
  switch (m.capability) {
    case 'messages':
      return {
        ...tokenPricesOf(m.prices),
        ...(m.prices.webSearchPerRequest !== undefined ? { webSearchPerRequest: m.prices.webSearchPerRequest } : {}),
        ...(m.prices.webFetchPerRequest !== undefined ? { webFetchPerRequest: m.prices.webFetchPerRequest } : {}),
      };
    case 'video':
      return { perVideoSecond: m.prices.perVideoSecond ?? 0 };
    case 'search':
      // Every web search and web fetch request costs the same (SPEC section 3), whatever the registry entry says.
      return { perRequest: microsToNumber(webRequestPriceMicros(config)) };
  }
}

/** The registry's models, newest first, each with the prices a request of it is billed at (USD). */
export function modelPriceList(registry: ModelRegistry, config: Pick<Config, 'WEB_BILLING_MULTIPLIER'>): PricedModel[] {
  return modelsNewestFirst(registry).map((m) => ({
    id: m.id,
    displayName: m.displayName,
    capability: m.capability,
    ...(m.capability === 'messages'
      ? {
          contextWindowTokens: m.contextWindowTokens,
          ...(m.namesOutputLimit ? { maxOutputTokens: m.maxOutputTokens } : {}),
          supportsThinking: m.supportsThinking,
        }
      : {}),
    ...(m.resolutions ? { resolutions: m.resolutions } : {}),
    prices: pricesOf(m, config),
    ...(m.longContext ? { longContext: m.longContext } : {}),
    ...(m.priceMultipliers ? { priceMultipliers: m.priceMultipliers } : {}),
  }));
}
