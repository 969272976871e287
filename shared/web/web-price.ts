// The price of a web search or fetch request.
import type { Config } from '../config/index.js';
import { unitsToMicros } from '../wallet/money.js';

/** SPEC section 3: each web search or fetch request costs 0.001 × WEB_BILLING_MULTIPLIER. */
export const webRequestPriceMicros = (config: Pick<Config, 'WEB_BILLING_MULTIPLIER'>) =>
  unitsToMicros(0.001 * config.WEB_BILLING_MULTIPLIER);
