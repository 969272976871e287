import { estimateInputTokens, maxMessagesCostMicros } from '../../shared/gateway/messages-estimate.js';
import { StreamUsageMeter, usageOf } from '../../shared/gateway/messages-usage.js';
import { loadModelRegistry } from '../../shared/gateway/model-registry.js';
import { tokenCostMicros, videoCostMicros } from '../../shared/gateway/pricing.js';

const registry = loadModelRegistry();
const sonnet = registry.resolve('claude-sonnet-5', 'messages');

describe('prices in micro-USD', () => {
  it('prices input, output, cache reads and cache writes exactly and rounds up once', () => {
    // 1,000 in × $3 + 500 out × $15 + 2,000 cache read × $0.30 + 100 cache write × $3.75 per 1M tokens
    // = 3,000 + 7,500 + 600 + 375 micro-USD
    expect(
      tokenCostMicros(sonnet, { inputTokens: 1000, outputTokens: 500, cacheReadTokens: 2000, cacheWriteTokens: 100 }),
    ).toBe(11_475n);
    // 1 input token at $3/MTok is 3 micro-USD; 1 cache read token at $0.30/MTok is 0.3 → rounded up to 1
    expect(tokenCostMicros(sonnet, { inputTokens: 0, outputTokens: 0, cacheReadTokens: 1, cacheWriteTokens: 0 })).toBe(
      1n,
    );
  });

  it('prices video by the second', () => {
    expect(videoCostMicros(registry.resolve('seedance-1-0-pro', 'video'), 5)).toBe(250_000n);
  });

  it('refuses unknown models and models of another capability with 400', () => {
    expect(() => registry.resolve('gpt-nope', 'messages')).toThrow(/Unknown messages model/);
    expect(() => registry.resolve('seedance-1-0-pro', 'messages')).toThrow(/Unknown/);
  });
});

describe('the reservation estimate', () => {
  it('never reserves less than the real cost of a request that uses all of max_tokens', () => {
    const body = { system: 'be brief', messages: [{ role: 'user', content: 'hello there, how are you today?' }] };
    const estimate = estimateInputTokens(body);
    expect(estimate).toBeGreaterThan(Math.ceil('hello there, how are you today?'.length / 4));
    const reserved = maxMessagesCostMicros(sonnet, estimate, 1000);
    const real = tokenCostMicros(sonnet, {
      inputTokens: 12,
      outputTokens: 1000,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
    expect(reserved).toBeGreaterThanOrEqual(real);
  });

  it('counts an image as 1,600 tokens whatever its bytes', () => {
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'A'.repeat(100_000) } };
    expect(estimateInputTokens({ messages: [{ role: 'user', content: [image] }] })).toBeLessThan(1_700);
  });
});

describe('the stream usage meter', () => {
  const sse = (event: string, data: unknown) => Buffer.from(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);

  it('reads input from message_start and output from message_delta, across chunk boundaries', () => {
    const meter = new StreamUsageMeter();
    const stream = Buffer.concat([
      sse('message_start', {
        type: 'message_start',
        message: { usage: { input_tokens: 42, output_tokens: 1, cache_read_input_tokens: 7 } },
      }),
      sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } }),
      sse('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 9 } }),
      sse('message_stop', { type: 'message_stop' }),
    ]);
    for (let i = 0; i < stream.length; i += 7) meter.feed(stream.subarray(i, i + 7));
    expect(meter.completed).toBe(true);
    expect(meter.billable()).toEqual({ inputTokens: 42, outputTokens: 9, cacheReadTokens: 7, cacheWriteTokens: 0 });
  });

  it('bills a stream cut short for the text it produced', () => {
    const meter = new StreamUsageMeter();
    meter.feed(
      sse('message_start', { type: 'message_start', message: { usage: { input_tokens: 10, output_tokens: 1 } } }),
    );
    meter.feed(
      sse('content_block_delta', { type: 'content_block_delta', delta: { type: 'text_delta', text: 'x'.repeat(40) } }),
    );
    expect(meter.completed).toBe(false);
    expect(meter.billable()).toEqual({ inputTokens: 10, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0 });
  });

  it('reads usage from a JSON answer, treating nulls as zero', () => {
    expect(usageOf({ input_tokens: 3, output_tokens: 4, cache_read_input_tokens: null })).toEqual({
      inputTokens: 3,
      outputTokens: 4,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
  });
});
