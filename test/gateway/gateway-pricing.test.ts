import { IMAGE_TOKENS, messagesBound, messagesReservationMicros } from '../../shared/gateway/messages-estimate.js';
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
    expect(() => registry.resolve('gpt-nope', 'messages')).toThrow(
      /^Unknown messages model: gpt-nope\. The messages models here: .*claude-sonnet-5.* \(GET \/v1\/models lists every model\)\.$/,
    );
    expect(() => registry.resolve('seedance-1-0-pro', 'messages')).toThrow(/Unknown/);
  });
});

describe('the reservation estimate', () => {
  const limits = { contextWindowTokens: sonnet.contextWindowTokens, serverToolPasses: sonnet.serverToolPasses };
  const base = { model: 'claude-sonnet-5', max_tokens: 1000 };

  it('never reserves less than the real cost of a request that uses all of max_tokens', () => {
    const body = { ...base, system: 'be brief', messages: [{ role: 'user', content: 'hello there, how are you?' }] };
    const reserved = messagesReservationMicros(body, [sonnet]);
    const real = tokenCostMicros(sonnet, {
      inputTokens: 12,
      outputTokens: 1000,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
    expect(reserved).toBeGreaterThanOrEqual(real);
  });

  it('counts every text at one token per UTF-8 byte, so text packed into few characters is not underestimated', () => {
    // 1,000 characters of 4-byte code points: a byte-level tokenizer may need up to 4,000 tokens
    const text = '\u{1F600}'.repeat(1000);
    const bound = messagesBound({ ...base, messages: [{ role: 'user', content: text }] }, limits);
    expect(bound.inputTokens).toBeGreaterThanOrEqual(4000);
  });

  it('counts text wherever it sits: unknown block types, new fields of known blocks, output formats', () => {
    const hidden = 'x'.repeat(50_000);
    for (const body of [
      { ...base, messages: [{ role: 'user', content: [{ type: 'new_block_2030', payload: hidden }] }] },
      { ...base, messages: [{ role: 'system', content: hidden }] },
      { ...base, messages: [], output_config: { format: { type: 'json_schema', schema: { description: hidden } } } },
      { ...base, messages: [], tools: [{ name: 't', input_schema: { type: 'object', description: hidden } }] },
    ]) {
      expect(messagesBound(body, limits).inputTokens).toBeGreaterThanOrEqual(50_000);
    }
  });

  it('counts a fixed bound only for an image the upstream reads as one; the same shape elsewhere is text', () => {
    const hidden = 'h'.repeat(60_000);
    const disguised = {
      type: 'image',
      text: hidden,
      source: { type: 'base64', media_type: 'image/png', data: hidden },
    };
    for (const body of [
      // as a tool call's input (chat completions' tool_calls arguments arrive here), and in a tool's schema
      {
        ...base,
        messages: [
          { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input: { x: disguised } }] },
        ],
      },
      { ...base, messages: [], tools: [{ name: 't', input_schema: { type: 'object', properties: { x: disguised } } }] },
      // a real image block's fields other than its source
      {
        ...base,
        messages: [
          {
            role: 'user',
            content: [{ type: 'image', text: hidden, source: { type: 'url', url: 'https://a.example/i.png' } }],
          },
        ],
      },
    ]) {
      expect(messagesBound(body, limits).inputTokens).toBeGreaterThanOrEqual(60_000);
    }
    const inToolResult = {
      type: 'tool_result',
      tool_use_id: 't1',
      content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'A'.repeat(100_000) } }],
    };
    const inDocument = {
      type: 'document',
      source: { type: 'content', content: [inToolResult.content[0]] },
      cache_control: { type: 'ephemeral', ttl: '1h' },
    };
    for (const block of [inToolResult, inDocument]) {
      const bound = messagesBound({ ...base, messages: [{ role: 'user', content: [block] }] }, limits);
      expect(bound.inputTokens).toBeGreaterThanOrEqual(IMAGE_TOKENS);
      expect(bound.inputTokens).toBeLessThan(IMAGE_TOKENS + 1_000);
    }
    expect(messagesBound({ ...base, messages: [{ role: 'user', content: [inDocument] }] }, limits).cacheWrite1h).toBe(
      true,
    );
  });

  it('bounds an image by its resized size and what it cannot measure by the whole context window', () => {
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'A'.repeat(100_000) } };
    const imageBound = messagesBound({ ...base, messages: [{ role: 'user', content: [image] }] }, limits);
    expect(imageBound.inputTokens).toBeGreaterThanOrEqual(IMAGE_TOKENS);
    expect(imageBound.inputTokens).toBeLessThan(IMAGE_TOKENS + 1_000);
    const unmeasurable = [
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' } },
      { type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' } },
      { type: 'document', source: { type: 'file', file_id: 'file_1' } },
      { type: 'container_upload', file_id: 'file_2' },
      { type: 'redacted_thinking', data: 'opaque' },
      { type: 'web_search_tool_result', tool_use_id: 's', content: [{ encrypted_content: 'opaque' }] },
    ];
    for (const block of unmeasurable) {
      const bound = messagesBound({ ...base, messages: [{ role: 'user', content: [block] }] }, limits);
      expect(bound.inputTokens).toBe(limits.contextWindowTokens);
    }
    const unknownField = messagesBound({ ...base, messages: [], thread: { previous_message_id: 'msg_1' } }, limits);
    expect(unknownField.inputTokens).toBe(limits.contextWindowTokens);
  });

  it('never exceeds the context window for one pass, however large the body', () => {
    const body = { ...base, messages: [{ role: 'user', content: 'y'.repeat(3_000_000) }] };
    expect(messagesBound(body, limits).inputTokens).toBe(limits.contextWindowTokens);
  });

  it('reserves every pass of a server-side tool loop and its web requests', () => {
    const search = { ...base, messages: [], tools: [{ type: 'web_search_20250305', name: 'web_search' }] };
    const unbounded = messagesBound(search, limits);
    expect(unbounded.passes).toBe(1 + limits.serverToolPasses);
    expect(unbounded.outputTokens).toBe(1000 * unbounded.passes);
    expect(unbounded.webSearchRequests).toBeGreaterThanOrEqual(limits.serverToolPasses);
    const capped = messagesBound(
      { ...search, tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 2 }] },
      limits,
    );
    expect(capped).toMatchObject({ passes: 3, webSearchRequests: 2 });
    expect(capped.inputTokens).toBeGreaterThanOrEqual(2 * limits.contextWindowTokens);
    // client tools run no loop
    const client = messagesBound({ ...base, messages: [], tools: [{ type: 'bash_20250124', name: 'bash' }] }, limits);
    expect(client.passes).toBe(1);
  });

  it('adds a pass per compaction and per fallback attempt, with the largest max_tokens', () => {
    const bound = messagesBound(
      {
        ...base,
        messages: [],
        context_management: { edits: [{ type: 'clear_thinking_20251015' }, { type: 'compact_20260112' }] },
        fallbacks: [{ model: 'other', max_tokens: 5000 }],
      },
      limits,
    );
    expect(bound.passes).toBe(3);
    expect(bound.outputTokens).toBe(15_000);
  });

  it('prices input at a cache-write price only when the body asks for caching', () => {
    const plain = { ...base, messages: [{ role: 'user', content: 'hi' }] };
    const cached = { ...plain, cache_control: { type: 'ephemeral', ttl: '1h' } };
    expect(messagesReservationMicros(cached, [sonnet])).toBeGreaterThan(messagesReservationMicros(plain, [sonnet]));
  });

  // Automatic caching's top-level `ttl: "1h"` bills 1-hour writes (2× input on Sonnet), as a block's does: it was held
  // at the 5-minute price (1.25×), so a settlement within the bound passed the hold (security review #119).
  it('holds a top-level cache_control with ttl "1h" at the 1-hour write price, as the same ttl on a block', () => {
    const text = 'x'.repeat(100_000);
    const topLevel = {
      ...base,
      max_tokens: 1,
      messages: [{ role: 'user', content: text }],
      cache_control: { type: 'ephemeral', ttl: '1h' },
    };
    const onBlock = {
      ...base,
      max_tokens: 1,
      messages: [{ role: 'user', content: [{ type: 'text', text, cache_control: { type: 'ephemeral', ttl: '1h' } }] }],
    };
    const bound = messagesBound(topLevel, limits);
    expect(bound.cacheWrite1h).toBe(true);
    const everyInputTokenA1hWrite = tokenCostMicros(sonnet, {
      inputTokens: 0,
      outputTokens: 1,
      cacheReadTokens: 0,
      cacheWriteTokens: bound.inputTokens,
      cacheWrite1hTokens: bound.inputTokens,
    });
    expect(messagesReservationMicros(topLevel, [sonnet])).toBeGreaterThanOrEqual(everyInputTokenA1hWrite);
    // The block's form carries a few more bytes of framing, so it holds a little more, never less per token.
    expect(messagesReservationMicros(onBlock, [sonnet])).toBeGreaterThanOrEqual(
      messagesReservationMicros(topLevel, [sonnet]),
    );
  });

  it('walks the body once, however many models may serve it (security review round 7)', () => {
    // Counts how often the walk lists the keys of one message: once per model, before the fix (quadratic).
    let listed = 0;
    const message = new Proxy(
      { role: 'user', content: 'hello' },
      {
        ownKeys(target) {
          listed += 1;
          return Reflect.ownKeys(target);
        },
      },
    );
    const haiku = registry.resolve('claude-haiku-4-5', 'messages');
    const models = Array.from({ length: 1_000 }, (_, i) => (i % 2 === 0 ? sonnet : haiku));
    const body = { ...base, messages: [message], fallbacks: models.slice(1).map((m) => ({ model: m.id })) };
    const reserved = messagesReservationMicros(body, models);
    expect(listed).toBe(1);
    expect(reserved).toBe(
      messagesReservationMicros({ ...body, messages: [{ role: 'user', content: 'hello' }] }, [sonnet]),
    );
  });

  it('takes a max_uses past safe integers as none declared, never a bound no BigInt holds', () => {
    const huge = (name: string) => ({ type: 'web_search_20250305', name, max_uses: 1e308 });
    const body = { ...base, messages: [], tools: [huge('a'), huge('b')] };
    expect(messagesBound(body, limits).webSearchRequests).toBe(2 * limits.serverToolPasses * 10);
    expect(messagesReservationMicros(body, [sonnet])).toBeGreaterThan(0n);
  });

  it('walks a deeply nested body without exhausting the stack', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(messagesBound({ ...base, messages: [deep] }, limits).inputTokens).toBeGreaterThan(200_000);
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
    expect(meter.billable()).toMatchObject({
      inputTokens: 42,
      outputTokens: 9,
      cacheReadTokens: 7,
      cacheWriteTokens: 0,
    });
  });

  const cutMeter = () => {
    const meter = new StreamUsageMeter();
    meter.feed(
      sse('message_start', { type: 'message_start', message: { usage: { input_tokens: 10, output_tokens: 1 } } }),
    );
    return meter;
  };
  const textDelta = (text: string) =>
    sse('content_block_delta', { type: 'content_block_delta', delta: { type: 'text_delta', text } });

  it('bills a stream cut short for the text it produced: a token per 3 UTF-8 bytes received', () => {
    const meter = cutMeter();
    meter.feed(textDelta('x'.repeat(40)));
    expect(meter.completed).toBe(false);
    expect(meter.billable()).toMatchObject({
      inputTokens: 10,
      outputTokens: 14,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
  });

  it('bills CJK text of a cut stream at a token per character, whatever the caller asked the model to write', () => {
    const meter = cutMeter();
    meter.feed(textDelta('あ'.repeat(4000)));
    meter.feed(
      sse('content_block_delta', { type: 'content_block_delta', delta: { type: 'thinking_delta', thinking: '考' } }),
    );
    expect(meter.billable().outputTokens).toBe(4001);
  });

  it('bills the server tools a cut stream was seen to call, and their results as input of the next pass', () => {
    const meter = cutMeter();
    const block = (index: number, content_block: object) =>
      sse('content_block_start', { type: 'content_block_start', index, content_block });
    meter.feed(block(0, { type: 'server_tool_use', id: 's1', name: 'web_search', input: {} }));
    meter.feed(block(1, { type: 'server_tool_use', id: 's2', name: 'web_fetch', input: {} }));
    meter.feed(block(2, { type: 'server_tool_use', id: 's3', name: 'code_execution', input: {} }));
    const result = {
      type: 'web_search_tool_result',
      tool_use_id: 's1',
      content: [{ encrypted_content: 'E'.repeat(3000) }],
    };
    meter.feed(block(3, result));
    meter.feed(block(4, { type: 'text', text: '' }));
    expect(meter.billable()).toMatchObject({
      inputTokens: 10 + Math.ceil(Buffer.byteLength(JSON.stringify(result)) / 3),
      webSearchRequests: 1,
      webFetchRequests: 1,
    });
  });

  it('lets the final usage of a complete stream win over what was seen', () => {
    const meter = cutMeter();
    meter.feed(
      sse('content_block_start', {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'server_tool_use', name: 'web_search' },
      }),
    );
    meter.feed(textDelta('あ'.repeat(100)));
    meter.feed(sse('message_delta', { type: 'message_delta', usage: { output_tokens: 70 } }));
    expect(meter.billable()).toMatchObject({ inputTokens: 10, outputTokens: 70, webSearchRequests: 0 });
  });

  it('reads usage from a JSON answer, treating nulls as zero', () => {
    expect(usageOf({ input_tokens: 3, output_tokens: 4, cache_read_input_tokens: null })).toMatchObject({
      inputTokens: 3,
      outputTokens: 4,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
  });

  it('reads every current usage field: the cache TTL split, server tool requests and separately counted iterations', () => {
    const usage = usageOf({
      input_tokens: 100,
      output_tokens: 50,
      cache_read_input_tokens: 10,
      cache_creation_input_tokens: 30,
      cache_creation: { ephemeral_5m_input_tokens: 10, ephemeral_1h_input_tokens: 20 },
      server_tool_use: { web_search_requests: 3, web_fetch_requests: 1 },
      iterations: [
        { type: 'message', input_tokens: 100, output_tokens: 50 },
        { type: 'compaction', input_tokens: 7, output_tokens: 5 },
      ],
    });
    expect(usage).toEqual({
      inputTokens: 107,
      outputTokens: 55,
      cacheReadTokens: 10,
      cacheWriteTokens: 30,
      cacheWrite1hTokens: 20,
      webSearchRequests: 3,
      webFetchRequests: 1,
    });
    // 107 × $3 + 55 × $15 + 10 × $0.30 + 10 × $3.75 + 20 × $6 per MTok, rounded up once, + 3 searches × $0.01
    expect(tokenCostMicros(sonnet, usage)).toBe(1_307n + 30_000n);
  });

  it('bills a stream from message_start and the last message_delta, whose cumulative figures win', () => {
    const meter = new StreamUsageMeter();
    meter.feed(
      sse('message_start', {
        type: 'message_start',
        message: {
          model: 'claude-sonnet-5',
          usage: { input_tokens: 20, output_tokens: 1, cache_creation: { ephemeral_1h_input_tokens: 4 } },
        },
      }),
    );
    meter.feed(sse('message_delta', { type: 'message_delta', usage: { output_tokens: 5 } }));
    meter.feed(
      sse('message_delta', {
        type: 'message_delta',
        usage: { output_tokens: 9, input_tokens: null, server_tool_use: { web_search_requests: 2 } },
      }),
    );
    expect(meter.billable()).toMatchObject({
      inputTokens: 20,
      outputTokens: 9,
      cacheWriteTokens: 4,
      cacheWrite1hTokens: 4,
      webSearchRequests: 2,
    });
    expect(meter.servedModel).toBe('claude-sonnet-5');
  });
});
