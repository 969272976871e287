import { PromptCache } from '../../scripts/simulated-provider/anthropic/prompt-cache.js';
import type { PromptSegment } from '../../scripts/simulated-provider/anthropic/token-count.js';
import { toolInputFor } from '../../scripts/simulated-provider/anthropic/tool-input.js';

const segment = (key: string, tokens: number, cacheTtl?: '5m' | '1h'): PromptSegment => ({ key, tokens, cacheTtl });

describe('simulated provider: prompt cache and tool inputs', () => {
  it('writes a prefix once, reads it within 5 minutes, and writes it again after expiry', () => {
    let now = 0;
    const cache = new PromptCache(() => now);
    const prompt = [segment('system', 500, '5m'), segment('question', 10)];
    expect(cache.apply('key|model', prompt)).toEqual({
      cacheReadTokens: 0,
      cacheCreation5mTokens: 500,
      cacheCreation1hTokens: 0,
    });
    now = 4 * 60_000;
    expect(cache.apply('key|model', prompt).cacheReadTokens).toBe(500);
    now += 5 * 60_000 - 1;
    expect(cache.apply('key|model', prompt).cacheReadTokens).toBe(500);
    now += 5 * 60_000;
    expect(cache.apply('key|model', prompt)).toMatchObject({ cacheReadTokens: 0, cacheCreation5mTokens: 500 });
    expect(cache.apply('other|model', prompt)).toMatchObject({ cacheReadTokens: 0, cacheCreation5mTokens: 500 });
  });

  it('reads the longest cached prefix and writes only what follows it, by TTL', () => {
    const cache = new PromptCache(() => 0);
    cache.apply('s', [segment('tools', 100, '1h'), segment('q', 5)]);
    const usage = cache.apply('s', [segment('tools', 100, '1h'), segment('doc', 300, '5m'), segment('q2', 7)]);
    expect(usage).toEqual({ cacheReadTokens: 100, cacheCreation5mTokens: 300, cacheCreation1hTokens: 0 });
  });

  it('builds tool input from required properties only, by type, enum, default and nesting', () => {
    expect(
      toolInputFor({
        type: 'object',
        properties: {
          q: { type: 'string' },
          mode: { type: 'string', enum: ['fast', 'slow'] },
          n: { type: 'integer', minimum: 3 },
          when: { type: 'string', format: 'date' },
          tags: { type: 'array', items: { type: 'string' } },
          filter: { type: 'object', properties: { field: { type: 'string', default: 'title' } }, required: ['field'] },
          optional: { type: 'string' },
        },
        required: ['q', 'mode', 'n', 'when', 'tags', 'filter'],
      }),
    ).toEqual({
      q: 'simulated q',
      mode: 'fast',
      n: 3,
      when: '2025-01-01',
      tags: ['simulated tags'],
      filter: { field: 'title' },
    });
  });
});
