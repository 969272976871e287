// Exact prices: registry prices (USD per 1M tokens, USD per request, USD per video second) turned into integer
// micro-USD.
import type { ModelEntry } from './model-registry.js';

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

// Price per MTok in micro-USD per MTok, times tokens, over 1M → micro-USD. Summed exactly, rounded up once.
// `multipliers` (millionths, from a request's price-raising options: shared/gateway/price-options.ts) multiply the
// token prices, not the per-request prices, inside the same exact sum, so the total is still rounded up once.
export function tokenCostMicros(model: ModelEntry, usage: TokenUsage, multipliers: readonly bigint[] = []): bigint {
  const p = model.prices;
  const write5m = p.cacheWritePerMTok ?? p.inputPerMTok ?? 0;
  const write1h = p.cacheWrite1hPerMTok ?? write5m;
  const oneHour = Math.min(usage.cacheWrite1hTokens ?? 0, usage.cacheWriteTokens);
  const scaled =
    BigInt(usage.inputTokens) * usdToMicros(p.inputPerMTok ?? 0) +
    BigInt(usage.outputTokens) * usdToMicros(p.outputPerMTok ?? 0) +
    BigInt(usage.cacheReadTokens) * usdToMicros(p.cacheReadPerMTok ?? p.inputPerMTok ?? 0) +
    BigInt(usage.cacheWriteTokens - oneHour) * usdToMicros(write5m) +
    BigInt(oneHour) * usdToMicros(write1h);
  const requests =
    BigInt(usage.webSearchRequests ?? 0) * usdToMicros(p.webSearchPerRequest ?? 0) +
    BigInt(usage.webFetchRequests ?? 0) * usdToMicros(p.webFetchPerRequest ?? 0);
  let numerator = scaled;
  let denominator = 1_000_000n;
  for (const m of multipliers) {
    numerator *= m;
    denominator *= 1_000_000n;
  }
  return (numerator + denominator - 1n) / denominator + requests;
}

/** The dearest price a token of input can be billed at: plain, cache write (either TTL) or cache read. */
export function dearestInputPerMTok(model: ModelEntry): number {
  const p = model.prices;
  return Math.max(p.inputPerMTok ?? 0, p.cacheWritePerMTok ?? 0, p.cacheWrite1hPerMTok ?? 0, p.cacheReadPerMTok ?? 0);
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
