import OpenAI from 'openai';
import { type ClientWorld, expectEveryCallBilledOnce, openClientWorld } from '../support/listening-gateway.js';

let w: ClientWorld;
let client: OpenAI;

beforeAll(async () => {
  w = await openClientWorld();
  client = new OpenAI({ apiKey: w.key, baseURL: `${w.baseURL}/v1`, maxRetries: 0 });
});
afterAll(() => w.closeAll());

const weatherTool = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Current weather in a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

describe('the openai SDK against /v1/chat/completions', () => {
  it('answers a plain completion with usage and finish_reason', async () => {
    const completion = await client.chat.completions.create({
      model: 'claude-sonnet-5',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Say hello to the gateway' },
      ],
      max_completion_tokens: 200,
    });
    expect(completion.object).toBe('chat.completion');
    expect(completion.model).toBe('claude-sonnet-5');
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.choices[0]?.message.content).toContain('Say hello to the gateway');
    expect(completion.usage?.prompt_tokens).toBeGreaterThan(0);
    expect(completion.usage?.total_tokens).toBe(
      (completion.usage?.prompt_tokens ?? 0) + (completion.usage?.completion_tokens ?? 0),
    );
    expect(completion.usage?.prompt_tokens_details?.cached_tokens).toBe(0);
    const upstream = w.sim.state.requests.filter((r) => r.path === '/v1/messages').at(-1)?.body as Record<
      string,
      unknown
    >;
    expect(upstream.system).toEqual([{ type: 'text', text: 'You are terse.' }]);
    expect(upstream.max_tokens).toBe(200);
  });

  it('streams chunks with the final usage chunk and [DONE], and their text equals the plain answer', async () => {
    const params = {
      model: 'claude-sonnet-5',
      messages: [{ role: 'user' as const, content: 'Tell me about queues' }],
      max_tokens: 300,
    };
    const plain = await client.chat.completions.create(params);
    const stream = await client.chat.completions.create({
      ...params,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let finish: string | null | undefined;
    let usage: OpenAI.CompletionUsage | undefined | null;
    let chunks = 0;
    for await (const chunk of stream) {
      chunks++;
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(chunks).toBeGreaterThan(3);
    expect(text).toBe(plain.choices[0]?.message.content);
    expect(finish).toBe('stop');
    expect(usage).toEqual(plain.usage);
  });

  it('runs a tool round trip: tool_calls, then a tool message answered in text', async () => {
    const question = { role: 'user' as const, content: 'What is the weather in Paris?' };
    const first = await client.chat.completions.create({
      model: 'claude-sonnet-5',
      messages: [question],
      tools: [weatherTool],
      tool_choice: 'required',
    });
    expect(first.choices[0]?.finish_reason).toBe('tool_calls');
    const call = first.choices[0]?.message.tool_calls?.[0];
    expect(call).toMatchObject({ type: 'function', function: { name: 'get_weather' } });
    expect(JSON.parse((call as { function: { arguments: string } }).function.arguments)).toEqual({
      city: 'simulated city',
    });
    const second = await client.chat.completions.create({
      model: 'claude-sonnet-5',
      messages: [
        question,
        first.choices[0]?.message as OpenAI.ChatCompletionMessageParam,
        { role: 'tool', tool_call_id: (call as { id: string }).id, content: '18 degrees and sunny' },
      ],
      tools: [weatherTool],
    });
    expect(second.choices[0]?.finish_reason).toBe('stop');
    expect(second.choices[0]?.message.content).toContain('18 degrees and sunny');
  });

  it('streams tool calls as tool_calls deltas', async () => {
    const stream = await client.chat.completions.create({
      model: 'claude-sonnet-5',
      messages: [{ role: 'user', content: 'Weather in Lyon?' }],
      tools: [weatherTool],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      stream: true,
    });
    let args = '';
    let name: string | undefined;
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      const call = chunk.choices[0]?.delta.tool_calls?.[0];
      name = call?.function?.name ?? name;
      args += call?.function?.arguments ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(name).toBe('get_weather');
    expect(JSON.parse(args)).toEqual({ city: 'simulated city' });
    expect(finish).toBe('tool_calls');
  });

  it('answers a json_schema response_format with the JSON as content', async () => {
    const completion = await client.chat.completions.create({
      model: 'claude-sonnet-5',
      messages: [{ role: 'user', content: 'Describe a cat' }],
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'animal',
          schema: {
            type: 'object',
            properties: { name: { type: 'string' }, legs: { type: 'integer' } },
            required: ['name', 'legs'],
          },
        },
      },
    });
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(JSON.parse(completion.choices[0]?.message.content ?? '')).toEqual({ name: 'simulated name', legs: 1 });
  });

  it('maps reasoning_effort to thinking and returns the reasoning', async () => {
    const completion = await client.chat.completions.create({
      model: 'claude-sonnet-5',
      messages: [{ role: 'user', content: 'Think it over' }],
      reasoning_effort: 'high',
    });
    const message = completion.choices[0]?.message as {
      content: string;
      reasoning_content?: string;
      thinking_blocks?: { type: string; signature?: string }[];
    };
    expect(message.reasoning_content).toMatch(/Think it over/);
    const upstream = w.sim.state.requests.filter((r) => r.path === '/v1/messages').at(-1)?.body;
    expect(upstream).toMatchObject({ thinking: { type: 'adaptive' }, output_config: { effort: 'high' } });

    // The message as the SDK returned it, appended to the conversation as is (the usual loop): its signed thinking
    // goes back to the upstream first in that turn, so a tool loop would keep thinking on.
    expect(message.thinking_blocks).toEqual([
      { type: 'thinking', thinking: message.reasoning_content, signature: expect.stringMatching(/.+/) },
    ]);
    await client.chat.completions.create({
      model: 'claude-sonnet-5',
      messages: [
        { role: 'user', content: 'Think it over' },
        completion.choices[0]?.message as OpenAI.ChatCompletionMessageParam,
        { role: 'user', content: 'And again' },
      ],
      reasoning_effort: 'high',
    });
    const next = w.sim.state.requests.filter((r) => r.path === '/v1/messages').at(-1)?.body as {
      messages: { content: unknown[] }[];
    };
    expect(next.messages[1]?.content[0]).toEqual(message.thinking_blocks?.[0]);
  });

  it('lists the models', async () => {
    const page = await client.models.list();
    expect(page.data.map((m) => m.id)).toContain('claude-sonnet-5');
  });

  it("rejects bad input with 400 in OpenAI's shape", async () => {
    await expect(
      client.chat.completions.create({ model: 'gpt-nope', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toMatchObject({ status: 400, type: 'invalid_request_error', code: 'Model.Unknown' });
  });

  it('bills every paid call once, and the ledger reconciles', async () => {
    await expectEveryCallBilledOnce(w);
  });
});
