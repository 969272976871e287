// OpenAI's Agents SDK (`@openai/agents`, unmodified) against the gateway's /v1/responses, its default API: a plain
// agent, function tools, streaming, a handoff, structured output, reasoning across turns and hosted tools, each
// billed once, with tracing off (it would send traces to OpenAI).
import {
  Agent,
  addTraceProcessor,
  fileSearchTool,
  handoff,
  run,
  setDefaultOpenAIClient,
  setTracingDisabled,
  type TracingProcessor,
  tool,
  webSearchTool,
} from '@openai/agents';
import OpenAI from 'openai';
import { z } from 'zod';
import { type ClientWorld, expectEveryCallBilledOnce, openClientWorld } from '../support/listening-gateway.js';

let w: ClientWorld;
/** Every trace the SDK starts: none, since tracing is off (it would otherwise go to OpenAI's servers). */
const tracesStarted: string[] = [];

beforeAll(async () => {
  w = await openClientWorld();
  setTracingDisabled(true);
  addTraceProcessor({
    onTraceStart: async (trace) => void tracesStarted.push(trace.traceId),
    onTraceEnd: async () => {},
    onSpanStart: async () => {},
    onSpanEnd: async () => {},
    shutdown: async () => {},
    forceFlush: async () => {},
  } satisfies TracingProcessor);
  setDefaultOpenAIClient(new OpenAI({ apiKey: w.key, baseURL: `${w.baseURL}/v1`, maxRetries: 0 }));
});
afterAll(() => w.closeAll());

const MODEL = 'claude-haiku-4-5';

const upstreamBodies = () =>
  w.sim.state.requests.filter((r) => r.path === '/v1/messages').map((r) => r.body as Record<string, unknown>);

describe("OpenAI's Agents SDK against /v1/responses", () => {
  it('runs a plain agent: finalOutput is the answer, instructions the system prompt', async () => {
    const agent = new Agent({ name: 'Assistant', instructions: 'You are terse.', model: MODEL });
    const result = await run(agent, 'Say hello to the gateway');
    expect(result.finalOutput).toMatch(/^You said: "Say hello to the gateway"\. This answer comes from the ockhub/);
    expect(result.state.usage.inputTokens).toBeGreaterThan(0);
    expect(upstreamBodies().at(-1)).toMatchObject({
      model: 'claude-haiku-4-5',
      system: [{ type: 'text', text: 'You are terse.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hello to the gateway' }] }],
    });
  });

  it('runs a function tool the model is made to call, with its zod arguments, then answers with its result', async () => {
    const calls: { city: string }[] = [];
    const getWeather = tool({
      name: 'get_weather',
      description: 'Current weather in a city',
      parameters: z.object({ city: z.string() }),
      execute: async (input) => {
        calls.push(input);
        return `18 degrees and sunny in ${input.city}`;
      },
    });
    const agent = new Agent({
      name: 'Weather',
      instructions: 'Answer with the weather.',
      model: MODEL,
      tools: [getWeather],
      modelSettings: { toolChoice: 'required' },
    });
    const result = await run(agent, 'What is the weather in Paris?');
    expect(calls).toEqual([{ city: 'simulated city' }]);
    expect(result.finalOutput).toBe(
      'Thanks, the get_weather tool returned "18 degrees and sunny in simulated city". ' +
        "Based on that result, this is the simulated provider's final answer, streamed in several chunks so a relay " +
        'can be seen passing it on.',
    );
    const [first, second] = upstreamBodies().slice(-2);
    expect(first?.tool_choice).toEqual({ type: 'any' });
    // The SDK resets tool_choice after a call so the loop can end.
    expect(second?.tool_choice).toBeUndefined();
  });

  it('ends on the first tool call with toolUseBehavior stop_on_first_tool', async () => {
    const lookup = tool({
      name: 'lookup',
      description: 'Look a word up',
      parameters: z.object({ word: z.string(), limit: z.number().int() }),
      execute: async ({ word, limit }) => `${word}:${limit}`,
    });
    const agent = new Agent({
      name: 'Lookup',
      model: MODEL,
      tools: [lookup],
      modelSettings: { toolChoice: 'lookup' },
      toolUseBehavior: 'stop_on_first_tool',
    });
    const before = w.sim.state.counters.messages;
    const result = await run(agent, 'Look up gateway');
    expect(result.finalOutput).toBe('simulated word:1');
    expect(w.sim.state.counters.messages - before).toBe(1);
    expect(upstreamBodies().at(-1)?.tool_choice).toEqual({ type: 'tool', name: 'lookup' });
  });

  it('streams: text deltas add up to the plain answer, then completed', async () => {
    const agent = new Agent({ name: 'Streamer', instructions: 'You stream.', model: MODEL });
    const plain = await run(agent, 'Tell me about queues');
    const stream = await run(agent, 'Tell me about queues', { stream: true });
    let text = '';
    for await (const chunk of stream.toTextStream()) text += chunk;
    await stream.completed;
    expect(stream.error).toBeNull();
    expect(text).toBe(plain.finalOutput);
    expect(stream.finalOutput).toBe(plain.finalOutput);
    expect(upstreamBodies().at(-1)?.stream).toBe(true);
  });

  it('streams a tool call and the answer after it as run item events', async () => {
    const getWeather = tool({
      name: 'get_weather',
      description: 'Current weather in a city',
      parameters: z.object({ city: z.string() }),
      execute: async ({ city }) => `rain in ${city}`,
    });
    const agent = new Agent({
      name: 'Weather',
      model: MODEL,
      tools: [getWeather],
      modelSettings: { toolChoice: 'get_weather' },
    });
    const stream = await run(agent, 'Weather in Lyon?', { stream: true });
    const items: string[] = [];
    for await (const event of stream) if (event.type === 'run_item_stream_event') items.push(event.name);
    await stream.completed;
    expect(items).toEqual(['tool_called', 'tool_output', 'message_output_created']);
    expect(stream.finalOutput).toContain('the get_weather tool returned "rain in simulated city"');
  });

  it('hands off from a triage agent to a specialist, which answers', async () => {
    const specialist = new Agent({
      name: 'Billing agent',
      handoffDescription: 'Answers billing questions',
      instructions: 'You answer billing questions.',
      model: MODEL,
    });
    const triage = new Agent({
      name: 'Triage',
      instructions: 'Hand billing questions to the billing agent.',
      model: MODEL,
      handoffs: [handoff(specialist)],
      modelSettings: { toolChoice: 'required' },
    });
    const result = await run(triage, 'Why was I billed twice?');
    expect(result.lastAgent?.name).toBe('Billing agent');
    expect(result.finalOutput).toContain('the transfer_to_Billing_agent tool returned "{"assistant":"Billing agent"}"');
    const [first, second] = upstreamBodies().slice(-2);
    expect(first?.tools).toEqual([expect.objectContaining({ name: 'transfer_to_Billing_agent' })]);
    // The specialist offers no tool, but the conversation holds the handoff's call: the gateway offers a stand-in
    // the model may not call, since Anthropic refuses tool blocks without tools (test/gateway/responses.test.ts).
    expect(second).toMatchObject({
      system: [{ type: 'text', text: 'You answer billing questions.' }],
      tools: [{ name: 'no_tool_offered' }],
      tool_choice: { type: 'none' },
    });
  });

  it('gives structured output from a zod outputType (text.format json_schema)', async () => {
    const agent = new Agent({
      name: 'Describer',
      instructions: 'Describe the animal.',
      model: MODEL,
      outputType: z.object({ name: z.string(), legs: z.number().int() }),
    });
    const result = await run(agent, 'Describe a cat');
    expect(result.finalOutput).toEqual({ name: 'simulated name', legs: 1 });
    expect(upstreamBodies().at(-1)?.tool_choice).toEqual({ type: 'tool', name: 'output' });
  });

  it('thinks with reasoning.effort, and carries the thinking into the next turn as encrypted reasoning', async () => {
    const agent = new Agent({
      name: 'Thinker',
      model: MODEL,
      modelSettings: {
        reasoning: { effort: 'high' },
        store: false,
        providerData: { include: ['reasoning.encrypted_content'] },
      },
    });
    const first = await run(agent, 'Think it over');
    const reasoning = first.newItems.find((i) => i.type === 'reasoning_item');
    expect(reasoning?.rawItem).toMatchObject({
      content: [{ type: 'input_text', text: expect.stringMatching(/Think it over/) }],
      providerData: { encrypted_content: expect.stringMatching(/^ockhub\.thinking\.v1:/) },
    });
    const thought = upstreamBodies().at(-1);
    expect(thought?.thinking).toEqual({ type: 'enabled', budget_tokens: 16_000 });
    await run(agent, [...first.history, { role: 'user', content: 'And then?' }]);
    const messages = upstreamBodies().at(-1)?.messages as { role: string; content: { type: string }[] }[];
    const again = messages.find((m) => m.role === 'assistant');
    expect(again?.content[0]).toMatchObject({ type: 'thinking', thinking: expect.stringMatching(/Think it over/) });
  });

  it('accepts the hosted webSearchTool() and answers without searching: the gateway runs no web search here', async () => {
    const agent = new Agent({ name: 'Browser', model: MODEL, tools: [webSearchTool()] });
    const result = await run(agent, 'News about queues?');
    expect(result.finalOutput).toMatch(/^You said: "News about queues\?"/);
    expect(upstreamBodies().at(-1)).not.toHaveProperty('tools');
  });

  it('is refused a hosted tool the gateway cannot run (file search), with 400 naming it, before anything is sent', async () => {
    const agent = new Agent({ name: 'Searcher', model: MODEL, tools: [fileSearchTool(['vs_1'])] });
    const before = w.sim.state.counters.messages;
    await expect(run(agent, 'Find the invoice')).rejects.toMatchObject({
      status: 400,
      code: 'Responses.Invalid',
      message: expect.stringMatching(/tools\.0\.type/),
    });
    expect(w.sim.state.counters.messages).toBe(before);
  });

  it('sent no trace anywhere', () => {
    expect(tracesStarted).toEqual([]);
  });

  it('bills every paid call once, and the ledger reconciles', async () => {
    await expectEveryCallBilledOnce(w);
  });
});
