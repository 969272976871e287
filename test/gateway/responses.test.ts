import { consumeRecords, requestLogsOf, SIMULATOR_KEY, walletOf } from '../support/gateway.js';
import { waitUntil } from '../support/harness.js';
import { bearer } from '../support/identity.js';
import { type ClientWorld, openClientWorld } from '../support/listening-gateway.js';
import { expectOpenAiRefusals, openAiPoster } from '../support/openai-route.js';

let w: ClientWorld;

beforeAll(async () => {
  w = await openClientWorld();
});
afterAll(() => w.closeAll());

const good = { model: 'claude-haiku-4-5', input: 'hi' };
const post = openAiPoster(() => w, '/v1/responses');
const openAiError = { error: { message: expect.any(String), type: expect.any(String), code: expect.any(String) } };
const upstreamBody = () => w.sim.state.requests.filter((r) => r.path === '/v1/messages').at(-1)?.body;
const settledWallet = () =>
  waitUntil(async () => {
    const wallet = await walletOf(w.h, w.org);
    return wallet.frozenAmount === 0 ? wallet : undefined;
  });

describe('POST /v1/responses', () => {
  it.each([
    ['no model', { input: 'x' }, /^model: /],
    ['an unknown model', { ...good, model: 'gpt-9000' }, /gpt-9000/],
    ['no input', { model: good.model }, /^input: /],
    ['previous_response_id', { ...good, previous_response_id: 'resp_1' }, /^previous_response_id: .*stateless/],
    ['conversation', { ...good, conversation: 'conv_1' }, /^conversation: /],
    ['background: true', { ...good, background: true }, /^background: /],
    ['a stored prompt', { ...good, prompt: { id: 'pmpt_1' } }, /^prompt: /],
    [
      'a built-in tool',
      { ...good, tools: [{ type: 'file_search', vector_store_ids: ['vs_1'] }] },
      /^tools\.0\.type: only function tools/,
    ],
    ['an mcp tool', { ...good, tools: [{ type: 'mcp', server_label: 'x' }] }, /^tools\.0\.type: /],
    ['tool_choice of a built-in tool', { ...good, tool_choice: { type: 'file_search' } }, /^tool_choice: /],
    ['truncation auto', { ...good, truncation: 'auto' }, /^truncation: /],
    ['top_logprobs', { ...good, top_logprobs: 5 }, /^top_logprobs: /],
    ['logprobs in include', { ...good, include: ['message.output_text.logprobs'] }, /^include\.0: /],
    ['service_tier priority', { ...good, service_tier: 'priority' }, /^service_tier: /],
    ['max_tool_calls', { ...good, max_tool_calls: 3 }, /^max_tool_calls: /],
    ['moderation', { ...good, moderation: { model: 'omni-moderation-latest' } }, /^moderation: /],
    [
      'metadata of 17 pairs',
      { ...good, metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v'])) },
      /^metadata: may hold at most 16 pairs/,
    ],
    [
      'a metadata key of 65 characters',
      { ...good, metadata: { ['k'.repeat(65)]: 'v' } },
      /^metadata\.k+: keys may be at most 64 characters/,
    ],
    ['a metadata value of 513 characters', { ...good, metadata: { k: 'v'.repeat(513) } }, /^metadata\.k: .*512/],
    [
      'an item reference',
      { ...good, input: [{ type: 'item_reference', id: 'msg_1' }] },
      /^input\.0\.id: item references/,
    ],
    [
      'reasoning content that claims to be ours but is malformed',
      { ...good, input: [{ type: 'reasoning', summary: [], encrypted_content: 'ockhub.thinking.v1:a:b:c' }] },
      /^input\.0\.encrypted_content: is not reasoning content this gateway returned/,
    ],
    [
      'a built-in tool call item',
      { ...good, input: [{ type: 'web_search_call', id: 'ws_1', status: 'completed' }] },
      /^input\.0\.type: /,
    ],
    [
      'an input_file by file_id',
      { ...good, input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'file_1', file_data: 'x' }] }] },
      /^input\.0\.content\.0\.file_id: /,
    ],
    [
      'an input_file that is not a PDF data URL',
      {
        ...good,
        input: [{ role: 'user', content: [{ type: 'input_file', file_data: 'data:text/plain;base64,eA==' }] }],
      },
      /^input\.0\.content\.0: a file part/,
    ],
    [
      'an image that is neither http(s) nor data',
      { ...good, input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'ftp://x/y.png' }] }] },
      /^input\.0\.content\.0: an image/,
    ],
    [
      'function_call arguments that are not JSON',
      { ...good, input: [{ type: 'function_call', call_id: 'c1', name: 'f', arguments: '{nope' }] },
      /^input\.0\.arguments: /,
    ],
  ])(
    'refuses %s with 400 in OpenAI shape naming it, before anything is held or sent',
    async (_label, body, message) => {
      const before = await settledWallet();
      const calls = w.sim.state.counters.messages;
      const res = await post(body);
      expect(res.status).toBe(400);
      const parsed = JSON.parse(res.text);
      expect(parsed).toEqual({ error: { ...openAiError.error, type: 'invalid_request_error' } });
      expect(parsed.error.message).toMatch(message);
      expect(w.sim.state.counters.messages).toBe(calls);
      expect(await walletOf(w.h, w.org)).toEqual(before);
    },
  );

  it('accepts and ignores metadata, store, include of harmless items, truncation disabled and service_tier auto', async () => {
    const res = await post({
      ...good,
      metadata: Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`${i}`.padEnd(64, 'k'), 'v'.repeat(512)])),
      store: true,
      include: ['reasoning.encrypted_content'],
      truncation: 'disabled',
      service_tier: 'auto',
      parallel_tool_calls: true,
      prompt_cache_key: 'k',
      safety_identifier: 's',
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toMatchObject({
      status: 'completed',
      store: false,
      metadata: { [`0${'k'.repeat(63)}`]: 'v'.repeat(512) },
    });
    expect(upstreamBody()).toEqual({
      model: 'claude-haiku-4-5',
      max_tokens: 64_000,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    });
  });

  it('ignores top-level parameters it does not know (the openai SDK 7.57 sends new ones), sending none upstream', async () => {
    const res = await post({
      ...good,
      prompt_cache_retention: '24h',
      prompt_cache_options: { ttl: '30m' },
      image: { context_compression: 'auto' },
      access_programs: { cyber: 'standard' },
      frobnicate: { deep: [1, 2, 3] },
    });
    expect(res.status).toBe(200);
    expect(upstreamBody()).toEqual({
      model: 'claude-haiku-4-5',
      max_tokens: 64_000,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    });
    expect(JSON.parse(res.text)).not.toHaveProperty('frobnicate');
  });

  it('translates instructions, roles, images, function calls and outputs into one valid Messages request', async () => {
    const res = await post({
      ...good,
      instructions: 'Be precise.',
      input: [
        { role: 'developer', content: 'Answer in French.' },
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'Look' },
            { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=' },
          ],
        },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Let me check.' }] },
        { type: 'function_call', call_id: 'call_1', name: 'lookup', arguments: '{"q":"a"}' },
        { type: 'function_call', call_id: 'call_2', name: 'lookup', arguments: '{"q":"b"}' },
        { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'dropped' }] },
        { type: 'function_call_output', call_id: 'call_1', output: 'first' },
        { type: 'function_call_output', call_id: 'call_2', output: [{ type: 'input_text', text: 'second' }] },
      ],
      tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object' }, strict: true }],
      parallel_tool_calls: false,
      temperature: 1.5,
      top_p: 0.5,
      max_output_tokens: 100,
      user: 'u-1',
    });
    expect(res.status).toBe(200);
    expect(upstreamBody()).toEqual({
      model: 'claude-haiku-4-5',
      max_tokens: 100,
      system: [
        { type: 'text', text: 'Be precise.' },
        { type: 'text', text: 'Answer in French.' },
      ],
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
            { type: 'text', text: 'Let me check.' },
            { type: 'tool_use', id: 'call_1', name: 'lookup', input: { q: 'a' } },
            { type: 'tool_use', id: 'call_2', name: 'lookup', input: { q: 'b' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'call_1', content: 'first' },
            { type: 'tool_result', tool_use_id: 'call_2', content: [{ type: 'text', text: 'second' }] },
          ],
        },
      ],
      tools: [{ name: 'lookup', input_schema: { type: 'object' }, strict: true }],
      tool_choice: { type: 'auto', disable_parallel_tool_use: true },
      temperature: 1,
      top_p: 0.5,
      metadata: { user_id: 'u-1' },
    });
    const answer = JSON.parse(res.text);
    expect(answer).toMatchObject({
      object: 'response',
      instructions: 'Be precise.',
      parallel_tool_calls: false,
      temperature: 1.5,
      top_p: 0.5,
      max_output_tokens: 100,
      tool_choice: 'auto',
      text: { format: { type: 'text' } },
    });
    expect(answer.output_text).toBeUndefined(); // the SDKs compute it; OpenAI's API does not send it
  });

  it('serves a conversation holding function calls with no tools offered, as the Agents SDK sends after a handoff', async () => {
    // The second request of @openai/agents 0.20.0's handoff from a triage agent to one without tools (ids trimmed).
    // Anthropic refuses tool_use and tool_result blocks without tools; OpenAI serves them.
    const res = await post({
      model: 'claude-haiku-4-5',
      instructions: 'You answer billing questions.',
      input: [
        { role: 'user', content: 'Why was I billed twice?' },
        {
          id: 'fc_1',
          type: 'function_call',
          name: 'transfer_to_Billing_agent',
          call_id: 'toolu_1',
          arguments: '{}',
          status: 'completed',
        },
        {
          type: 'function_call_output',
          call_id: 'toolu_1',
          output: '{"assistant":"Billing agent"}',
          status: 'completed',
        },
      ],
      include: [],
      tools: [],
      stream: false,
    });
    expect(res.status).toBe(200);
    // One stand-in tool the model may not call, so the upstream takes the conversation as it is.
    expect(upstreamBody()).toMatchObject({
      tools: [{ name: 'no_tool_offered', input_schema: { type: 'object', properties: {} } }],
      tool_choice: { type: 'none' },
    });
    expect(JSON.parse(res.text).output).toEqual([expect.objectContaining({ type: 'message', role: 'assistant' })]);
  });

  it('maps reasoning.effort to a thinking budget on a model that takes one', async () => {
    const res = await post({ ...good, max_output_tokens: 5000, reasoning: { effort: 'medium' } });
    expect(res.status).toBe(200);
    expect(upstreamBody()).toMatchObject({ max_tokens: 5000, thinking: { type: 'enabled', budget_tokens: 4096 } });
  });

  it('turns thinking off for a tool loop whose thinking was not carried back, which Anthropic would refuse', async () => {
    const loop = [
      { role: 'user', content: 'What is the weather?' },
      { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'I should look.' }] },
      { type: 'function_call', call_id: 'call_1', name: 'lookup', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
    ];
    const tools = [{ type: 'function', name: 'lookup', parameters: { type: 'object' } }];
    const res = await post({ ...good, input: loop, tools, max_output_tokens: 5000, reasoning: { effort: 'medium' } });
    expect(res.status).toBe(200);
    expect(upstreamBody()).not.toHaveProperty('thinking');
    // Once the loop is over (the last assistant turn calls no tool), thinking is on again.
    const next = [...loop, { role: 'assistant', content: 'Sunny.' }, { role: 'user', content: 'Tomorrow?' }];
    expect(
      (await post({ ...good, input: next, tools, max_output_tokens: 5000, reasoning: { effort: 'medium' } })).status,
    ).toBe(200);
    expect(upstreamBody()).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 4096 } });
  });

  it.each([
    ['required', 'required'],
    ['a named function', { type: 'function', name: 'lookup' }],
  ])('turns thinking off when tool_choice %s forces a tool, which Anthropic would refuse', async (_label, choice) => {
    const tools = [{ type: 'function', name: 'lookup', parameters: { type: 'object' } }];
    const res = await post({
      ...good,
      tools,
      tool_choice: choice,
      max_output_tokens: 5000,
      reasoning: { effort: 'high' },
    });
    expect(res.status).toBe(200);
    expect(upstreamBody()).not.toHaveProperty('thinking');
    expect(JSON.parse(res.text).output).toEqual([expect.objectContaining({ type: 'function_call', name: 'lookup' })]);
  });

  it('returns thinking as encrypted_content when asked, and turns it back into the signed thinking block', async () => {
    const ask = {
      ...good,
      input: 'What is the weather?',
      max_output_tokens: 5000,
      reasoning: { effort: 'medium' },
      include: ['reasoning.encrypted_content'],
    };
    const answer = JSON.parse((await post(ask)).text);
    const reasoning = answer.output[0];
    expect(reasoning).toMatchObject({ type: 'reasoning', encrypted_content: expect.any(String) });
    // The upstream's own block, as it answered it (the simulator answers the same body the same way).
    const direct = await fetch(`${w.sim.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': SIMULATOR_KEY, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify(upstreamBody()),
    });
    const thinkingBlock = ((await direct.json()) as { content: unknown[] }).content[0];
    expect(thinkingBlock).toMatchObject({ type: 'thinking', signature: expect.stringMatching(/.{40}/) });
    // Streamed, the signature comes in its own delta: the item carries the same content.
    const streamed = (await post({ ...ask, stream: true })).text
      .trim()
      .split('\n\n')
      .map((e) => JSON.parse(e.split('\n')[1]?.replace(/^data: /, '') ?? ''))
      .find((e) => e.type === 'response.output_item.done' && e.item.type === 'reasoning');
    expect(streamed.item.encrypted_content).toBe(reasoning.encrypted_content);
    // Sent back ahead of the call it led to, it keeps thinking on through the tool loop, signature unchanged.
    const tools = [{ type: 'function', name: 'lookup', parameters: { type: 'object' } }];
    const loop = await post({
      ...ask,
      tools,
      input: [
        { role: 'user', content: 'What is the weather?' },
        reasoning,
        { type: 'function_call', call_id: 'call_1', name: 'lookup', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
      ],
    });
    expect(loop.status).toBe(200);
    expect(upstreamBody()).toMatchObject({
      thinking: { type: 'enabled', budget_tokens: 4096 },
      messages: [
        { role: 'user' },
        {
          role: 'assistant',
          content: [thinkingBlock, { type: 'tool_use', id: 'call_1', name: 'lookup', input: {} }],
        },
        { role: 'user' },
      ],
    });
    // Without include, no encrypted_content; one made elsewhere (OpenAI's own) is dropped, and thinking turns off.
    expect(JSON.parse((await post({ ...ask, include: [] })).text).output[0]).not.toHaveProperty('encrypted_content');
    const foreign = { type: 'reasoning', summary: [], encrypted_content: 'gAAAAABfake' };
    const dropped = await post({
      ...ask,
      tools,
      input: [
        { role: 'user', content: 'What is the weather?' },
        foreign,
        { type: 'function_call', call_id: 'call_1', name: 'lookup', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
      ],
    });
    expect(dropped.status).toBe(200);
    expect(upstreamBody()).not.toHaveProperty('thinking');
    expect((upstreamBody() as { messages: { content: unknown }[] }).messages[1]?.content).toEqual([
      { type: 'tool_use', id: 'call_1', name: 'lookup', input: {} },
    ]);
  });

  it("answers an upstream failure in OpenAI's shape and charges nothing", async () => {
    const before = await settledWallet();
    const res = await post({ ...good, input: '[upstream-error]' });
    expect(res.status).toBe(500);
    expect(JSON.parse(res.text)).toEqual({ error: { ...openAiError.error, type: 'server_error' } });
    expect(await walletOf(w.h, w.org)).toEqual(before);
  });

  it('turns an upstream failure mid-stream into response.failed, with no [DONE], and bills what was produced', async () => {
    const res = await post({ ...good, stream: true, input: 'please [stream-error] now', metadata: { run: '1' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = res.text
      .trim()
      .split('\n\n')
      .map((e) => JSON.parse(e.split('\n')[1]?.replace(/^data: /, '') ?? ''));
    expect(events.at(-1)).toMatchObject({ type: 'response.failed', response: { status: 'failed' } });
    expect(events[0]).toMatchObject({
      type: 'response.created',
      sequence_number: 0,
      response: { metadata: { run: '1' } },
    });
    expect(events.at(-1).response).toMatchObject({ metadata: { run: '1' }, store: false, tools: [] });
    // The failed response keeps the text streamed before the failure.
    const streamed = events
      .filter((e) => e.type === 'response.output_text.delta')
      .map((e) => e.delta)
      .join('');
    expect(streamed).not.toBe('');
    expect(events.at(-1).response.output).toEqual([
      expect.objectContaining({
        type: 'message',
        status: 'incomplete',
        content: [expect.objectContaining({ type: 'output_text', text: streamed })],
      }),
    ]);
    expect(events.at(-1).response.error).toMatchObject({ code: 'server_error', message: expect.any(String) });
    expect(res.text).not.toContain('[DONE]');
    const failed = await waitUntil(async () => {
      const logs = await requestLogsOf(w.h, w.projectId);
      return logs.find((l) => l.status === 'failed' && l.operation === 'responses' && l.httpStatus === 200);
    });
    expect(failed.costMicros).toBeGreaterThan(0n);
  });

  it('settles a stream the client cuts, billed for what was produced', async () => {
    const controller = new AbortController();
    const res = await fetch(`${w.baseURL}/v1/responses`, {
      method: 'POST',
      signal: controller.signal,
      headers: { 'content-type': 'application/json', ...bearer(w.key) },
      body: JSON.stringify({ ...good, stream: true, input: 'a [slow] answer please, a long one about many things' }),
    });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let seen = '';
    while (!seen.includes('response.output_text.delta')) seen += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    const closed = await waitUntil(async () =>
      (await requestLogsOf(w.h, w.projectId)).find((l) => l.status === 'client_closed' && l.operation === 'responses'),
    );
    expect(closed.costMicros).toBeGreaterThan(0n);
    expect((await settledWallet()).frozenAmount).toBe(0);
  });

  it('logs each response as a responses request with one Consume record', async () => {
    await settledWallet();
    const before = (await consumeRecords(w.h, w.org)).length;
    const res = await post(good);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).id).toMatch(/^resp_/);
    expect(await consumeRecords(w.h, w.org)).toHaveLength(before + 1);
  });

  it('answers 429 in OpenAI shape once the project quota is used, 402 for an empty wallet, 401 and 403', async () => {
    await expectOpenAiRefusals(w, post, good);
  });

  it.each([
    ['GET', '/v1/responses/resp_1'],
    ['DELETE', '/v1/responses/resp_1'],
    ['POST', '/v1/responses/resp_1/cancel'],
    ['GET', '/v1/responses/resp_1/input_items'],
  ])('answers %s %s with 404 Responses.NotStored: the gateway keeps no responses', async (method, path) => {
    const res = await fetch(`${w.baseURL}${path}`, { method, headers: bearer(w.key) });
    expect(res.status).toBe(404);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body).toEqual(openAiError);
    expect(body.error.code).toBe('Responses.NotStored');
    expect(body.error.message).toMatch(/keeps no responses/);
  });
});
