// Exact prices: registry prices (USD per 1M tokens, USD per video second) turned into integer micro-USD.
import type { ModelEntry } from './model-registry.js';

export type TokenUsage = {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
};

/** USD amount (at most 6 decimals meaningful) to integer micro-USD; prices are written by operators. */
export const usdToMicros = (usd: number): bigint => BigInt(Math.round(usd * 1_000_000));

// Price per MTok in micro-USD per MTok, times tokens, over 1M → micro-USD. Summed exactly, rounded up once.
export function tokenCostMicros(model: ModelEntry, usage: TokenUsage): bigint {
  const p = model.prices;
  const scaled =
    BigInt(usage.inputTokens) * usdToMicros(p.inputPerMTok ?? 0) +
    BigInt(usage.outputTokens) * usdToMicros(p.outputPerMTok ?? 0) +
    BigInt(usage.cacheReadTokens) * usdToMicros(p.cacheReadPerMTok ?? p.inputPerMTok ?? 0) +
    BigInt(usage.cacheWriteTokens) * usdToMicros(p.cacheWritePerMTok ?? p.inputPerMTok ?? 0);
  return (scaled + 999_999n) / 1_000_000n;
}

export function videoCostMicros(model: ModelEntry, seconds: number): bigint {
  return BigInt(seconds) * usdToMicros(model.prices.perVideoSecond ?? 0);
}

export const totalTokens = (u: TokenUsage) => u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens;
