// Exact prices: registry prices (USD per 1M tokens, USD per request, USD per video second) turned into integer
// micro-USD.
import { type ModelEntry, type TokenPrices, tokenPricesOf } from './model-registry.js';

export type TokenUsage = {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  /** Every cache write, 5-minute and 1-hour alike. */
  cacheWriteTokens: number;
  /** The part of `cacheWriteTokens` written with the 1-hour TTL (priced at `cacheWrite1hPerMTok`). */
  cacheWrite1hTokens?: number;
  /** Server-side tool requests (`usage.server_tool_use`), priced per request. */
  webSearchRequests?: number;
  webFetchRequests?: number;
};

/** USD amount (at most 6 decimals meaningful) to integer micro-USD; prices are written by operators. */
export const usdToMicros = (usd: number): bigint => BigInt(Math.round(usd * 1_000_000));

/** The input a (sub-)inference is judged by for a long-context tier, as the vendor counts it: input, cache read and
 * cache write tokens. */
export const billedInputTokens = (u: TokenUsage) => u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens;

/** The token prices of a (sub-)inference of `model` that read `inputTokens`: the long-context tier's over its threshold
 * (every token of it, not only those past the threshold), else the standard ones. */
export function tokenPricesFor(model: ModelEntry, inputTokens: number): TokenPrices {
  const tier = model.longContext;
  return tier && inputTokens > tier.aboveInputTokens ? tier.prices : tokenPricesOf(model.prices);
}

/** The cost of one (sub-)inference's usage at the model's prices, its long-context tier's when its input is over the
 * threshold. */
export function tokenCostMicros(model: ModelEntry, usage: TokenUsage, multipliers: readonly bigint[] = []): bigint {
  return costAtMicros(tokenPricesFor(model, billedInputTokens(usage)), model, usage, multipliers);
}

/**
 * The cost of `usage` at the token prices `p` and the model's per-request (web search and fetch) prices, which no
 * tier changes. Price per MTok in micro-USD per MTok, times tokens, over 1M → micro-USD. Summed exactly, rounded up
 * once. `multipliers` (millionths, from a request's price-raising options: shared/gateway/price-options.ts) multiply
 * the token prices, not the per-request prices, inside the same exact sum, so the total is still rounded up once.
 */
export function costAtMicros(
  p: TokenPrices,
  model: ModelEntry,
  usage: TokenUsage,
  multipliers: readonly bigint[] = [],
): bigint {
  const oneHour = Math.min(usage.cacheWrite1hTokens ?? 0, usage.cacheWriteTokens);
  const scaled =
    BigInt(usage.inputTokens) * usdToMicros(p.inputPerMTok) +
    BigInt(usage.outputTokens) * usdToMicros(p.outputPerMTok) +
    BigInt(usage.cacheReadTokens) * usdToMicros(p.cacheReadPerMTok) +
    BigInt(usage.cacheWriteTokens - oneHour) * usdToMicros(p.cacheWritePerMTok) +
    BigInt(oneHour) * usdToMicros(p.cacheWrite1hPerMTok);
  const requests =
    BigInt(usage.webSearchRequests ?? 0) * usdToMicros(model.prices.webSearchPerRequest ?? 0) +
    BigInt(usage.webFetchRequests ?? 0) * usdToMicros(model.prices.webFetchPerRequest ?? 0);
  let numerator = scaled;
  let denominator = 1_000_000n;
  for (const m of multipliers) {
    numerator *= m;
    denominator *= 1_000_000n;
  }
  return (numerator + denominator - 1n) / denominator + requests;
}

export function videoCostMicros(model: ModelEntry, seconds: number): bigint {
  return BigInt(seconds) * usdToMicros(model.prices.perVideoSecond ?? 0);
}

export const totalTokens = (u: TokenUsage) => u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens;

/** Adds two usages (a response's own and the iterations its top-level usage leaves out). */
export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
    cacheWrite1hTokens: (a.cacheWrite1hTokens ?? 0) + (b.cacheWrite1hTokens ?? 0),
    webSearchRequests: (a.webSearchRequests ?? 0) + (b.webSearchRequests ?? 0),
    webFetchRequests: (a.webFetchRequests ?? 0) + (b.webFetchRequests ?? 0),
  };
}
