import { aProjectWithKey, consumeRecords, requestLogsOf, walletOf } from '../support/gateway.js';
import { waitUntil } from '../support/harness.js';
import { bearer } from '../support/identity.js';
import { type ClientWorld, openClientWorld } from '../support/listening-gateway.js';
import { expectOpenAiRefusals, openAiPoster } from '../support/openai-route.js';

let w: ClientWorld;

beforeAll(async () => {
  w = await openClientWorld();
});
afterAll(() => w.closeAll());

const good = { model: 'claude-haiku-4-5', messages: [{ role: 'user', content: 'hi' }] };
const post = openAiPoster(() => w, '/v1/chat/completions');
const openAiError = { error: { message: expect.any(String), type: expect.any(String), code: expect.any(String) } };

/** A tool loop asking for thinking, whose last assistant turn is `assistant` calling `lookup`, then its result. */
const toolLoop = (assistant: Record<string, unknown>) => ({
  ...good,
  messages: [
    { role: 'user', content: 'What is the weather?' },
    { ...assistant, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{}' } }] },
    { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
  ],
  tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }],
  max_completion_tokens: 5000,
  reasoning_effort: 'medium',
});

describe('POST /v1/chat/completions', () => {
  it.each([
    ['no model', { messages: good.messages }],
    ['an unknown model', { ...good, model: 'gpt-9000' }],
    ['a video model', { ...good, model: 'seedance-1-0-pro' }],
    ['no messages', { model: good.model }],
    ['an unknown role', { ...good, messages: [{ role: 'robot', content: 'x' }] }],
    ['n = 2', { ...good, n: 2 }],
    ['logprobs', { ...good, logprobs: true }],
    ['temperature 3', { ...good, temperature: 3 }],
    [
      'tool arguments that are not JSON',
      {
        ...good,
        messages: [
          { role: 'user', content: 'x' },
          {
            role: 'assistant',
            tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{nope' } }],
          },
        ],
      },
    ],
    [
      'an image that is neither http(s) nor data',
      {
        ...good,
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'ftp://x/y.png' } }] }],
      },
    ],
  ])('refuses %s with 400 in OpenAI shape, before the upstream', async (_label, body) => {
    const calls = w.sim.state.counters.messages;
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toEqual({ error: { ...openAiError.error, type: 'invalid_request_error' } });
    expect(w.sim.state.counters.messages).toBe(calls);
  });

  // OpenAI refuses a tool_choice no offered function can answer; the gateway dropped it and answered in text.
  it.each([
    ['"required" with no tools', { tool_choice: 'required' }, /^tool_choice: "required" is only allowed when tools/],
    [
      'a named function with no tools',
      { tool_choice: { type: 'function', function: { name: 'lookup' } } },
      /^tool_choice\.function\.name: no function lookup is offered in tools/,
    ],
    [
      'a named function the tools do not offer',
      {
        tools: [{ type: 'function', function: { name: 'search', parameters: { type: 'object' } } }],
        tool_choice: { type: 'function', function: { name: 'lookup' } },
      },
      /^tool_choice\.function\.name: no function lookup is offered in tools/,
    ],
  ])('refuses tool_choice %s with 400 naming it, before anything is held or sent', async (_label, extra, message) => {
    const fresh = await aProjectWithKey(w.h, '5');
    const calls = w.sim.state.counters.messages;
    const res = await post({ ...good, ...extra }, bearer(fresh.key));
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).error).toMatchObject({
      type: 'invalid_request_error',
      message: expect.stringMatching(message),
    });
    expect(w.sim.state.counters.messages).toBe(calls);
    expect(await walletOf(w.h, fresh.org)).toMatchObject({ balance: 5, frozenAmount: 0 });
    expect(await requestLogsOf(w.h, fresh.projectId)).toEqual([]);
  });

  it('translates images, tool results and merged turns into one valid Messages request', async () => {
    const res = await post({
      ...good,
      messages: [
        { role: 'developer', content: 'Be precise.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"a"}' } },
            { id: 'call_2', type: 'function', function: { name: 'lookup', arguments: '{"q":"b"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'first' },
        { role: 'tool', tool_call_id: 'call_2', content: 'second' },
      ],
      tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }],
      stop: 'END',
      temperature: 1.5,
      user: 'u-1',
    });
    expect(res.status).toBe(200);
    const upstream = w.sim.state.requests.filter((r) => r.path === '/v1/messages').at(-1)?.body;
    expect(upstream).toEqual({
      model: 'claude-haiku-4-5',
      max_tokens: 64_000,
      system: [{ type: 'text', text: 'Be precise.' }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'call_1', name: 'lookup', input: { q: 'a' } },
            { type: 'tool_use', id: 'call_2', name: 'lookup', input: { q: 'b' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'call_1', content: 'first' },
            { type: 'tool_result', tool_use_id: 'call_2', content: 'second' },
          ],
        },
      ],
      tools: [{ name: 'lookup', input_schema: { type: 'object' } }],
      stop_sequences: ['END'],
      temperature: 1,
      metadata: { user_id: 'u-1' },
    });
    expect(JSON.parse(res.text).choices[0].message.content).toContain('first');
  });

  it('serves a conversation holding tool calls with no tools offered, which Anthropic would refuse as it is', async () => {
    const res = await post({
      ...good,
      messages: [
        { role: 'user', content: 'What is the weather?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
        { role: 'user', content: 'Sum it up.' },
      ],
      tool_choice: 'auto',
    });
    expect(res.status).toBe(200);
    expect(w.sim.state.requests.filter((r) => r.path === '/v1/messages').at(-1)?.body).toMatchObject({
      tools: [{ name: 'no_tool_offered' }],
      tool_choice: { type: 'none' },
    });
    expect(JSON.parse(res.text).choices[0]).toMatchObject({ finish_reason: 'stop', message: { role: 'assistant' } });
  });

  it('maps reasoning_effort to a thinking budget on a model that takes one', async () => {
    const res = await post({ ...good, max_completion_tokens: 5000, reasoning_effort: 'medium' });
    expect(res.status).toBe(200);
    const upstream = w.sim.state.requests.filter((r) => r.path === '/v1/messages').at(-1)?.body;
    expect(upstream).toMatchObject({ max_tokens: 5000, thinking: { type: 'enabled', budget_tokens: 4096 } });
  });

  it('turns thinking off for a tool loop whose thinking was not carried back, which Anthropic would refuse', async () => {
    const res = await post(toolLoop({ role: 'assistant', content: null, reasoning_content: 'I should look.' }));
    expect(res.status).toBe(200);
    expect(w.sim.state.requests.filter((r) => r.path === '/v1/messages').at(-1)?.body).not.toHaveProperty('thinking');
  });

  it('keeps thinking on across a tool loop whose signed thinking_blocks come back, and replays them as they came', async () => {
    const thought = await post({ ...good, max_completion_tokens: 5000, reasoning_effort: 'medium' });
    const { message } = JSON.parse(thought.text).choices[0];
    expect(message.thinking_blocks).toEqual([
      { type: 'thinking', thinking: message.reasoning_content, signature: expect.stringMatching(/.+/) },
    ]);
    const res = await post(
      toolLoop({
        ...message,
        thinking_blocks: [...message.thinking_blocks, { type: 'thinking', thinking: 'unsigned' }, 'junk'],
      }),
    );
    expect(res.status).toBe(200);
    const upstream = w.sim.state.requests.filter((r) => r.path === '/v1/messages').at(-1)?.body as {
      thinking?: unknown;
      messages: { content: { type: string }[] }[];
    };
    expect(upstream.thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
    // The signed block first, as it came; the unsigned one and the junk dropped.
    expect(upstream.messages[1]?.content).toEqual([
      message.thinking_blocks[0],
      { type: 'text', text: message.content },
      { type: 'tool_use', id: 'call_1', name: 'lookup', input: {} },
    ]);
  });

  it('streams each signed thinking block whole as a thinking_blocks delta, beside the reasoning_content deltas', async () => {
    const res = await post({ ...good, stream: true, max_completion_tokens: 5000, reasoning_effort: 'medium' });
    expect(res.status).toBe(200);
    const deltas = res.text
      .split('\n\n')
      .filter((e) => e.startsWith('data: {'))
      .map((e) => JSON.parse(e.slice(6)).choices[0]?.delta ?? {});
    const reasoning = deltas.map((d) => d.reasoning_content ?? '').join('');
    const blocks = deltas.flatMap((d) => d.thinking_blocks ?? []);
    expect(reasoning.length).toBeGreaterThan(0);
    expect(blocks).toEqual([{ type: 'thinking', thinking: reasoning, signature: expect.stringMatching(/.+/) }]);
  });

  it.each([
    ['required', 'required'],
    ['a named function', { type: 'function', function: { name: 'lookup' } }],
  ])('turns thinking off when tool_choice %s forces a tool, which Anthropic would refuse', async (_label, choice) => {
    const res = await post({
      ...good,
      tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }],
      tool_choice: choice,
      max_completion_tokens: 5000,
      reasoning_effort: 'high',
    });
    expect(res.status).toBe(200);
    expect(w.sim.state.requests.filter((r) => r.path === '/v1/messages').at(-1)?.body).not.toHaveProperty('thinking');
    expect(JSON.parse(res.text).choices[0].finish_reason).toBe('tool_calls');
  });

  it("answers an upstream failure in OpenAI's shape and charges nothing", async () => {
    const before = await waitUntil(async () => {
      const wallet = await walletOf(w.h, w.org);
      return wallet.frozenAmount === 0 ? wallet : undefined;
    });
    const res = await post({ ...good, messages: [{ role: 'user', content: '[upstream-error]' }] });
    expect(res.status).toBe(500);
    expect(JSON.parse(res.text)).toEqual({ error: { ...openAiError.error, type: 'server_error' } });
    const rejected = await post({ ...good, messages: [{ role: 'user', content: [{ type: 'text', text: '' }] }] });
    expect(rejected.status).toBe(400);
    expect(await walletOf(w.h, w.org)).toEqual(before);
  });

  it('turns an upstream failure mid-stream into an error chunk and bills what was produced', async () => {
    const res = await post({
      ...good,
      stream: true,
      messages: [{ role: 'user', content: 'please [stream-error] now' }],
    });
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/^data: \{"error":/m);
    expect(res.text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    const failed = await waitUntil(async () => {
      const logs = await requestLogsOf(w.h, w.projectId);
      return logs.find((l) => l.status === 'failed' && l.operation === 'chat_completions' && l.httpStatus === 200);
    });
    expect(failed.costMicros).toBeGreaterThan(0n);
  });

  it('logs each completion as a chat_completions request with one Consume record', async () => {
    // a stream is settled just after its last byte: start from a wallet with nothing in flight
    await waitUntil(async () => ((await walletOf(w.h, w.org)).frozenAmount === 0 ? true : undefined));
    const before = (await consumeRecords(w.h, w.org)).length;
    const res = await post(good);
    expect(res.status).toBe(200);
    const id = JSON.parse(res.text).id as string;
    expect(id).toMatch(/^chatcmpl-/);
    expect(await consumeRecords(w.h, w.org)).toHaveLength(before + 1);
  });

  it('answers 429 in OpenAI shape once the project quota is used, 402 for an empty wallet, 401 and 403', async () => {
    await expectOpenAiRefusals(w, post, good);
  });

  it('answers 404 for other methods', async () => {
    const get = await fetch(`${w.baseURL}/v1/chat/completions`, { headers: bearer(w.key) });
    expect(get.status).toBe(404);
    expect(await get.json()).toEqual(openAiError);
  });
});
