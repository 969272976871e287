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
  name: 'get_weather',
  description: 'Current weather in a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  strict: false,
};

const lastUpstreamBody = () =>
  w.sim.state.requests.filter((r) => r.path === '/v1/messages').at(-1)?.body as Record<string, unknown>;

describe('the openai SDK against /v1/responses', () => {
  it('answers a plain response with instructions, output_text and usage', async () => {
    const response = await client.responses.create({
      model: 'claude-sonnet-5',
      instructions: 'You are terse.',
      input: 'Say hello to the gateway',
      max_output_tokens: 200,
      // Parameters of this SDK the gateway does not know are ignored, as OpenAI's newer ones will be.
      prompt_cache_retention: '24h',
      prompt_cache_options: { ttl: '30m' },
    });
    expect(response).toMatchObject({
      object: 'response',
      status: 'completed',
      model: 'claude-sonnet-5',
      error: null,
      incomplete_details: null,
      instructions: 'You are terse.',
      max_output_tokens: 200,
    });
    expect(response.id).toMatch(/^resp_/);
    expect(response.output_text).toContain('Say hello to the gateway');
    expect(response.output[0]).toMatchObject({ type: 'message', role: 'assistant', status: 'completed' });
    expect(response.usage?.input_tokens).toBeGreaterThan(0);
    expect(response.usage?.total_tokens).toBe(
      (response.usage?.input_tokens ?? 0) + (response.usage?.output_tokens ?? 0),
    );
    expect(response.usage?.input_tokens_details.cached_tokens).toBe(0);
    const upstream = lastUpstreamBody();
    expect(upstream.system).toEqual([{ type: 'text', text: 'You are terse.' }]);
    expect(upstream.max_tokens).toBe(200);
  });

  it('says incomplete with max_output_tokens when the answer hit the limit', async () => {
    const response = await client.responses.create({
      model: 'claude-sonnet-5',
      input: 'Tell me a very long story about queues and workers and retries',
      max_output_tokens: 2,
    });
    expect(response.status).toBe('incomplete');
    expect(response.incomplete_details).toEqual({ reason: 'max_output_tokens' });
  });

  it('runs a function tool round trip: function_call, then function_call_output answered in text', async () => {
    const question = { role: 'user' as const, content: 'What is the weather in Paris?' };
    const first = await client.responses.create({
      model: 'claude-sonnet-5',
      input: [question],
      tools: [weatherTool],
      tool_choice: 'required',
    });
    const call = first.output.find((i) => i.type === 'function_call');
    expect(call).toMatchObject({ type: 'function_call', name: 'get_weather', status: 'completed' });
    const { call_id, arguments: args } = call as OpenAI.Responses.ResponseFunctionToolCall;
    expect(JSON.parse(args)).toEqual({ city: 'simulated city' });
    const second = await client.responses.create({
      model: 'claude-sonnet-5',
      input: [
        question,
        ...(first.output as OpenAI.Responses.ResponseInputItem[]),
        { type: 'function_call_output', call_id, output: '18 degrees and sunny' },
      ],
      tools: [weatherTool],
    });
    expect(second.status).toBe('completed');
    expect(second.output_text).toContain('18 degrees and sunny');
    const upstream = lastUpstreamBody();
    expect(upstream.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'What is the weather in Paris?' }] },
      expect.objectContaining({
        role: 'assistant',
        content: expect.arrayContaining([
          { type: 'tool_use', id: call_id, name: 'get_weather', input: { city: 'simulated city' } },
        ]),
      }),
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: call_id, content: '18 degrees and sunny' }] },
    ]);
  });

  it('streams events with increasing sequence numbers, and their text equals the plain answer', async () => {
    const params = { model: 'claude-sonnet-5', input: 'Tell me about queues', max_output_tokens: 300 };
    const plain = await client.responses.create(params);
    const stream = await client.responses.create({ ...params, stream: true });
    const types: string[] = [];
    const sequence: number[] = [];
    let text = '';
    let completed: OpenAI.Responses.Response | undefined;
    for await (const event of stream) {
      types.push(event.type);
      sequence.push(event.sequence_number);
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') completed = event.response;
    }
    expect(types.slice(0, 4)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
    ]);
    expect(types.slice(-4)).toEqual([
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(sequence).toEqual(sequence.map((_, i) => i));
    expect(text).toBe(plain.output_text);
    expect(completed?.usage).toEqual(plain.usage);
  });

  it('streams a function call with responses.stream() and gives the final response', async () => {
    const stream = client.responses.stream({
      model: 'claude-sonnet-5',
      input: 'Weather in Lyon?',
      tools: [weatherTool],
      tool_choice: { type: 'function', name: 'get_weather' },
    });
    let args = '';
    stream.on('response.function_call_arguments.delta', (event) => {
      args += event.delta;
    });
    const final = await stream.finalResponse();
    expect(JSON.parse(args)).toEqual({ city: 'simulated city' });
    expect(final.status).toBe('completed');
    expect(final.output.find((i) => i.type === 'function_call')).toMatchObject({
      name: 'get_weather',
      arguments: args,
    });
    expect(final.usage?.output_tokens).toBeGreaterThan(0);
  });

  it('answers a json_schema text.format with the JSON as output_text', async () => {
    const response = await client.responses.create({
      model: 'claude-sonnet-5',
      input: 'Describe a cat',
      text: {
        format: {
          type: 'json_schema',
          name: 'animal',
          schema: {
            type: 'object',
            properties: { name: { type: 'string' }, legs: { type: 'integer' } },
            required: ['name', 'legs'],
          },
        },
      },
    });
    expect(JSON.parse(response.output_text)).toEqual({ name: 'simulated name', legs: 1 });
    expect(lastUpstreamBody().tool_choice).toEqual({ type: 'tool', name: 'animal' });
  });

  it('maps reasoning.effort to thinking and returns it as a reasoning item', async () => {
    const response = await client.responses.create({
      model: 'claude-sonnet-5',
      input: 'Think it over',
      reasoning: { effort: 'high', summary: 'auto' },
    });
    const reasoning = response.output.find((i) => i.type === 'reasoning') as OpenAI.Responses.ResponseReasoningItem;
    expect(reasoning.summary[0]?.text).toMatch(/Think it over/);
    expect(lastUpstreamBody()).toMatchObject({ thinking: { type: 'adaptive' }, output_config: { effort: 'high' } });
  });

  it("refuses previous_response_id with 400 in OpenAI's shape naming it", async () => {
    await expect(
      client.responses.create({ model: 'claude-sonnet-5', input: 'x', previous_response_id: 'resp_123' }),
    ).rejects.toMatchObject({ status: 400, type: 'invalid_request_error', code: 'Responses.Invalid' });
  });

  it('answers 404 to retrieving a response: none is kept', async () => {
    await expect(client.responses.retrieve('resp_123')).rejects.toMatchObject({
      status: 404,
      code: 'Responses.NotStored',
    });
  });

  it('bills every paid call once, and the ledger reconciles', async () => {
    await expectEveryCallBilledOnce(w);
  });
});
