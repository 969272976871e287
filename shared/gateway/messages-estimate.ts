// The most a Messages request can cost, reserved from the wallet before it runs: input estimated generously
// (3 characters per token, 1,600 tokens per image) at the dearest input price, plus max_tokens of output.
import type { ModelEntry } from './model-registry.js';
import { tokenCostMicros } from './pricing.js';

const IMAGE_TOKENS = 1_600;

function countInput(value: unknown, acc: { chars: number; images: number }): void {
  if (typeof value === 'string') {
    acc.chars += value.length;
  } else if (Array.isArray(value)) {
    for (const v of value) countInput(v, acc);
  } else if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    if (obj.type === 'image' || obj.type === 'document') {
      acc.images += 1;
      return;
    }
    for (const [k, v] of Object.entries(obj)) {
      acc.chars += k.length;
      countInput(v, acc);
    }
  }
}

export function estimateInputTokens(body: { system?: unknown; messages: unknown; tools?: unknown }): number {
  const acc = { chars: 0, images: 0 };
  countInput([body.system, body.messages, body.tools], acc);
  return Math.ceil(acc.chars / 3) + acc.images * IMAGE_TOKENS;
}

export function maxMessagesCostMicros(model: ModelEntry, inputTokens: number, maxTokens: number): bigint {
  const p = model.prices;
  const dearestInput = Math.max(p.inputPerMTok ?? 0, p.cacheWritePerMTok ?? 0);
  return tokenCostMicros(
    { ...model, prices: { ...p, inputPerMTok: dearestInput } },
    { inputTokens, outputTokens: maxTokens, cacheReadTokens: 0, cacheWriteTokens: 0 },
  );
}
