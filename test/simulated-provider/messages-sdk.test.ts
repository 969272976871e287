import Anthropic from '@anthropic-ai/sdk';
import { fetch } from 'undici';
import { type SimulatedProvider, startSimulatedProvider } from '../../scripts/simulated-provider/server.js';

const MODEL = 'simulated-claude-sonnet';
const weatherTool = {
  name: 'get_weather',
  description: 'Current weather of a city',
  input_schema: {
    type: 'object' as const,
    properties: {
      city: { type: 'string' },
      unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
      days: { type: 'integer', minimum: 1 },
      hourly: { type: 'boolean' },
    },
    required: ['city', 'unit', 'days'],
  },
};

/** The SDK's stream helper adds `parsed_output` (its structured-output parser) to the message it accumulates. */
function asSent(message: Anthropic.Message) {
  const { parsed_output: _sdkOnly, ...sent } = message as Anthropic.Message & { parsed_output?: unknown };
  return sent;
}

describe('simulated provider: Anthropic Messages through the real SDK', () => {
  let sim: SimulatedProvider;
  let client: Anthropic;

  beforeAll(async () => {
    sim = await startSimulatedProvider({ chunkDelayMs: 1 });
    client = new Anthropic({ baseURL: sim.url, apiKey: 'sk-sim-test', maxRetries: 0 });
  });
  afterAll(() => sim.close());

  it('answers a text message derived from the last user turn, the same way every time', async () => {
    const params = {
      model: MODEL,
      max_tokens: 512,
      messages: [{ role: 'user' as const, content: 'Tell me about otters' }],
    };
    const first = await client.messages.create(params);
    const second = await client.messages.create(params);

    expect(first).toEqual(second);
    expect(first.id).toMatch(/^msg_/);
    expect(first).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: MODEL,
      stop_reason: 'end_turn',
      stop_sequence: null,
    });
    expect(first.content).toHaveLength(1);
    const [block] = first.content;
    expect(block?.type === 'text' && block.text).toContain('Tell me about otters');
    expect(first.usage).toMatchObject({
      input_tokens: Math.ceil('Tell me about otters'.length / 4),
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    });
    expect(first.usage.output_tokens).toBe(Math.ceil((block as { text: string }).text.length / 4));
  });

  it('streams an answer whose finalMessage() equals the non-streamed answer', async () => {
    const params = {
      model: MODEL,
      max_tokens: 512,
      messages: [{ role: 'user' as const, content: 'Stream me a story' }],
    };
    const plain = await client.messages.create(params);
    const texts: string[] = [];
    const stream = client.messages.stream(params).on('text', (delta) => texts.push(delta));
    const final = await stream.finalMessage();

    expect(asSent(final)).toEqual(plain);
    expect(texts.length).toBeGreaterThan(3);
  });

  it('forces a tool call with tool_choice any, then answers from the tool_result', async () => {
    const question = { role: 'user' as const, content: 'What is the weather in Lyon?' };
    const call = await client.messages.create({
      model: MODEL,
      max_tokens: 512,
      tools: [weatherTool],
      tool_choice: { type: 'any' },
      messages: [question],
    });
    expect(call.stop_reason).toBe('tool_use');
    const toolUse = call.content.find((b) => b.type === 'tool_use');
    expect(toolUse).toMatchObject({
      type: 'tool_use',
      name: 'get_weather',
      input: { city: 'simulated city', unit: 'celsius', days: 1 },
    });
    expect(toolUse?.id).toMatch(/^toolu_/);

    const streamedCall = await client.messages
      .stream({
        model: MODEL,
        max_tokens: 512,
        tools: [weatherTool],
        tool_choice: { type: 'tool', name: 'get_weather' },
        messages: [question],
      })
      .finalMessage();
    expect(streamedCall.content.find((b) => b.type === 'tool_use')?.input).toEqual(toolUse?.input);

    const answer = await client.messages.create({
      model: MODEL,
      max_tokens: 512,
      tools: [weatherTool],
      messages: [
        question,
        { role: 'assistant', content: call.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse!.id, content: '18 degrees and sunny' }] },
      ],
    });
    expect(answer.stop_reason).toBe('end_turn');
    const text = answer.content[0];
    expect(text?.type === 'text' && text.text).toContain('get_weather tool returned "18 degrees and sunny"');
  });

  it('refuses a tool_result whose tool_use_id matches no tool_use of the previous turn', async () => {
    const error = await client.messages
      .create({
        model: MODEL,
        max_tokens: 100,
        tools: [weatherTool],
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: 'hello' },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_nope', content: 'x' }] },
        ],
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as InstanceType<typeof Anthropic.BadRequestError>).error).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringContaining('tool_use_id') },
    });
  });

  it('puts a thinking block with a signature first when thinking is enabled, streamed or not', async () => {
    const params = {
      model: MODEL,
      max_tokens: 2048,
      thinking: { type: 'enabled' as const, budget_tokens: 1024 },
      messages: [{ role: 'user' as const, content: 'Think about prime numbers' }],
    };
    const plain = await client.messages.create(params);
    expect(plain.content.map((b) => b.type)).toEqual(['thinking', 'text']);
    const thinking = plain.content[0];
    expect(thinking?.type === 'thinking' && thinking.thinking).toContain('Think about prime numbers');
    expect(thinking?.type === 'thinking' && thinking.signature.length).toBeGreaterThan(40);
    expect(asSent(await client.messages.stream(params).finalMessage())).toEqual(plain);
  });

  it('with thinking on, refuses a tool loop whose last assistant turn does not start with its thinking block', async () => {
    const question = { role: 'user' as const, content: 'What is the weather in Lyon?' };
    const thinking = { type: 'enabled' as const, budget_tokens: 1024 };
    const forcedCall = await client.messages.create({
      model: MODEL,
      max_tokens: 2048,
      tools: [weatherTool],
      tool_choice: { type: 'any' },
      messages: [question],
    });
    const toolUse = forcedCall.content.find((b) => b.type === 'tool_use');
    const loop = (assistant: Anthropic.ContentBlockParam[]) =>
      client.messages.create({
        model: MODEL,
        max_tokens: 2048,
        thinking,
        tools: [weatherTool],
        messages: [
          question,
          { role: 'assistant', content: assistant },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse!.id, content: 'sunny' }] },
        ],
      });
    const error = await loop([toolUse!]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as InstanceType<typeof Anthropic.BadRequestError>).error).toMatchObject({
      error: {
        type: 'invalid_request_error',
        message: expect.stringMatching(
          /^messages\.1\.content\.0\.type: .*a final `assistant` message must start with a thinking block/,
        ),
      },
    });
    const signature = Buffer.alloc(64, 1).toString('base64');
    const answer = await loop([{ type: 'thinking', thinking: 'Use the tool.', signature }, toolUse!]);
    expect(answer.stop_reason).toBe('end_turn');
    // A last assistant turn that calls no tool needs none.
    const plain = await client.messages.create({
      model: MODEL,
      max_tokens: 2048,
      thinking,
      messages: [question, { role: 'assistant', content: 'Sunny.' }, { role: 'user', content: 'Thanks' }],
    });
    expect(plain.stop_reason).toBe('end_turn');
  });

  it('reports cache creation on the first cached prefix and a cache read on the repeat', async () => {
    const system = [
      {
        type: 'text' as const,
        text: 'You are a patient tutor. '.repeat(40),
        cache_control: { type: 'ephemeral' as const },
      },
    ];
    const cachedTokens = Math.ceil(system[0]!.text.length / 4);
    const ask = (content: string) =>
      client.messages.create({ model: MODEL, max_tokens: 256, system, messages: [{ role: 'user', content }] });

    const first = await ask('First question');
    expect(first.usage).toMatchObject({ cache_creation_input_tokens: cachedTokens, cache_read_input_tokens: 0 });
    expect(first.usage.input_tokens).toBe(Math.ceil('First question'.length / 4));

    const second = await ask('Second question, a bit longer');
    expect(second.usage).toMatchObject({ cache_creation_input_tokens: 0, cache_read_input_tokens: cachedTokens });
    expect(second.usage.input_tokens).toBe(Math.ceil('Second question, a bit longer'.length / 4));

    const counted = await client.messages.countTokens({
      model: MODEL,
      system,
      messages: [{ role: 'user', content: 'First question' }],
    });
    expect(counted.input_tokens).toBe(cachedTokens + Math.ceil('First question'.length / 4));
  });

  it('honours stop_sequences and cuts at max_tokens', async () => {
    const stopped = await client.messages.create({
      model: MODEL,
      max_tokens: 512,
      stop_sequences: ['deterministically'],
      messages: [{ role: 'user', content: 'Say something' }],
    });
    expect(stopped).toMatchObject({ stop_reason: 'stop_sequence', stop_sequence: 'deterministically' });
    const text = stopped.content[0];
    expect(text?.type === 'text' && text.text.endsWith('replies ')).toBe(true);

    const cut = await client.messages.create({
      model: MODEL,
      max_tokens: 5,
      messages: [{ role: 'user', content: 'Say something' }],
    });
    expect(cut.stop_reason).toBe('max_tokens');
    expect(cut.usage.output_tokens).toBe(5);
    const cutText = cut.content[0];
    expect(cutText?.type === 'text' && cutText.text).toHaveLength(20);
  });

  it('answers the error triggers with the status and error type Anthropic uses', async () => {
    const send = (content: string) =>
      client.messages
        .create({ model: MODEL, max_tokens: 64, messages: [{ role: 'user', content }] })
        .catch((e: unknown) => e);

    const serverError = await send('please [upstream-error]');
    expect(serverError).toBeInstanceOf(Anthropic.InternalServerError);
    expect(serverError).toMatchObject({ status: 500, error: { type: 'error', error: { type: 'api_error' } } });

    const overloaded = await send('please [overloaded]');
    expect(overloaded).toMatchObject({ status: 529, error: { type: 'error', error: { type: 'overloaded_error' } } });

    const limited = await send('please [rate-limited]');
    expect(limited).toBeInstanceOf(Anthropic.RateLimitError);
    expect((limited as InstanceType<typeof Anthropic.RateLimitError>).headers.get('retry-after')).toBe('1');
    expect(limited).toMatchObject({ error: { error: { type: 'rate_limit_error' } } });
  });

  it('answers an [overloaded] request with fallbacks from its first fallback, which names itself', async () => {
    const res = await fetch(`${sim.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'sk-sim-test', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({
        model: MODEL,
        max_tokens: 256,
        messages: [{ role: 'user', content: 'please [overloaded]' }],
        fallbacks: [{ model: 'simulated-claude-haiku', max_tokens: 1 }, { model: 'simulated-claude-opus' }],
      }),
    });
    expect(res.status).toBe(200);
    // The fallback's own max_tokens applies.
    expect(await res.json()).toMatchObject({ model: 'simulated-claude-haiku', stop_reason: 'max_tokens' });
  });

  it('fails a stream mid-way with an overloaded_error event on [stream-error]', async () => {
    const texts: string[] = [];
    const stream = client.messages
      .stream({ model: MODEL, max_tokens: 256, messages: [{ role: 'user', content: 'break [stream-error]' }] })
      .on('text', (t) => texts.push(t));
    const error = await stream.finalMessage().catch((e: unknown) => e);
    expect(texts.length).toBeGreaterThan(0);
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect(String((error as Error).message)).toContain('overloaded_error');
  });

  it('answers 401 authentication_error without a key, and accepts a Bearer token', async () => {
    const res = await fetch(`${sim.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });

    const bearer = new Anthropic({ baseURL: sim.url, apiKey: null, authToken: 'sk-bearer', maxRetries: 0 });
    const ok = await bearer.messages.create({
      model: MODEL,
      max_tokens: 50,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(ok.type).toBe('message');
  });

  it('lists models in Anthropic list shape', async () => {
    const page = await client.models.list();
    expect(page.data.length).toBeGreaterThan(0);
    expect(page.data[0]).toMatchObject({ type: 'model', id: expect.any(String), display_name: expect.any(String) });
  });
});
