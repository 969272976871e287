// Exact prices: registry prices (USD per 1M tokens, USD per request, USD per video second) turned into integer
// micro-USD.
import { type ModelEntry, type TokenPrices, tokenPricesOf } from './model-registry.js';
import { priceOptions } from './price-options.js';

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

/**
 * Every token cost is first an exact fraction of a micro-USD over one denominator, `EXACT_DENOMINATOR`: a price per MTok
 * in micro-USD (over 1M tokens) times the request's price-raising multipliers in millionths (one per option at most,
 * shared/gateway/price-options.ts), each multiplier the request does not have counting as 1. Fractions of several
 * (sub-)inferences, priced at different models with different multipliers, then add exactly and are rounded up once,
 * and the reservation's bound compares them exactly (shared/gateway/messages-estimate.ts).
 */
const MULTIPLIER_SLOTS = priceOptions.length;
const MILLION = 1_000_000n;
export const EXACT_DENOMINATOR = MILLION ** BigInt(1 + MULTIPLIER_SLOTS);
/** What a price with `k` multipliers is scaled by: a million for each slot it leaves empty. */
const padding = Array.from({ length: MULTIPLIER_SLOTS + 1 }, (_, k) => MILLION ** BigInt(MULTIPLIER_SLOTS - k));

/** A token price (USD per MTok) times `multipliers`, in units of 1 / EXACT_DENOMINATOR micro-USD per token. */
export function exactTokenPrice(usdPerMTok: number, multipliers: readonly bigint[] = []): bigint {
  const pad = padding[multipliers.length];
  if (pad === undefined) throw new Error(`at most ${MULTIPLIER_SLOTS} price multipliers`);
  let price = usdToMicros(usdPerMTok) * pad;
  for (const m of multipliers) price *= m;
  return price;
}

/** Rounds an exact cost (over EXACT_DENOMINATOR) up to whole micro-USD. */
export const roundUpMicros = (exact: bigint): bigint => (exact + EXACT_DENOMINATOR - 1n) / EXACT_DENOMINATOR;

/** The exact token cost of `usage` at the token prices `p` (over EXACT_DENOMINATOR; web requests not included). */
export function exactTokenCost(p: TokenPrices, usage: TokenUsage, multipliers: readonly bigint[] = []): bigint {
  const oneHour = Math.min(usage.cacheWrite1hTokens ?? 0, usage.cacheWriteTokens);
  const at = (tokens: number, usdPerMTok: number) => BigInt(tokens) * exactTokenPrice(usdPerMTok, multipliers);
  return (
    at(usage.inputTokens, p.inputPerMTok) +
    at(usage.outputTokens, p.outputPerMTok) +
    at(usage.cacheReadTokens, p.cacheReadPerMTok) +
    at(usage.cacheWriteTokens - oneHour, p.cacheWritePerMTok) +
    at(oneHour, p.cacheWrite1hPerMTok)
  );
}

/** The exact token cost of one (sub-)inference's usage at the model's prices, its long-context tier's when its input is
 * over the threshold (over EXACT_DENOMINATOR; web requests not included). */
export const exactTokenCostAt = (model: ModelEntry, usage: TokenUsage, multipliers: readonly bigint[] = []): bigint =>
  exactTokenCost(tokenPricesFor(model, billedInputTokens(usage)), usage, multipliers);

/** Web search and fetch requests at the model's per-request prices (which no multiplier or tier changes). */
export const requestCostMicros = (model: ModelEntry, usage: TokenUsage): bigint =>
  BigInt(usage.webSearchRequests ?? 0) * usdToMicros(model.prices.webSearchPerRequest ?? 0) +
  BigInt(usage.webFetchRequests ?? 0) * usdToMicros(model.prices.webFetchPerRequest ?? 0);

/** The cost of one (sub-)inference's usage at the model's prices, its long-context tier's when its input is over the
 * threshold: tokens summed exactly and rounded up once, times the multipliers (millionths, from a request's
 * price-raising options), plus its web requests at their per-request prices. */
export function tokenCostMicros(model: ModelEntry, usage: TokenUsage, multipliers: readonly bigint[] = []): bigint {
  return roundUpMicros(exactTokenCostAt(model, usage, multipliers)) + requestCostMicros(model, usage);
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
