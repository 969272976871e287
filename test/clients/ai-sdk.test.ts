import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs, streamText, tool } from 'ai';
import { z } from 'zod';
import { type ClientWorld, expectEveryCallBilledOnce, openClientWorld } from '../support/listening-gateway.js';

let w: ClientWorld;

beforeAll(async () => {
  w = await openClientWorld();
});
afterAll(() => w.closeAll());

const weather = tool({
  description: 'Current weather in a city',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => `18 degrees and sunny in ${city}`,
});

const lastUpstreamBody = () =>
  w.sim.state.requests.filter((r) => r.path === '/v1/messages').at(-1)?.body as Record<string, unknown>;

describe('the Vercel AI SDK with @ai-sdk/anthropic against /v1/messages', () => {
  const model = () => createAnthropic({ apiKey: w.key, baseURL: `${w.baseURL}/v1` })('claude-sonnet-5');

  it('generates text', async () => {
    const result = await generateText({ model: model(), prompt: 'Say hello to the gateway', maxOutputTokens: 200 });
    expect(result.text).toContain('Say hello to the gateway');
    expect(result.finishReason).toBe('stop');
    expect(result.usage.inputTokens).toBeGreaterThan(0);
  });

  it('streams text', async () => {
    const result = streamText({ model: model(), prompt: 'Stream a story' });
    const parts: string[] = [];
    for await (const delta of result.textStream) parts.push(delta);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.join('')).toContain('Stream a story');
  });

  it('runs a tool round trip', async () => {
    const result = await generateText({
      model: model(),
      prompt: 'What is the weather in Paris?',
      tools: { weather },
      toolChoice: 'required',
      stopWhen: stepCountIs(1),
    });
    expect(result.toolCalls[0]).toMatchObject({ toolName: 'weather' });
    const next = await generateText({
      model: model(),
      messages: [{ role: 'user', content: 'What is the weather in Paris?' }, ...result.response.messages],
      tools: { weather },
    });
    expect(next.text).toContain('18 degrees and sunny');
  });

  it('thinks when asked (adaptive thinking)', async () => {
    const result = await generateText({
      model: model(),
      prompt: 'Think about it first',
      providerOptions: { anthropic: { thinking: { type: 'adaptive' } } },
    });
    expect(result.reasoningText).toMatch(/Think about it first/);
    expect(lastUpstreamBody().thinking).toEqual({ type: 'adaptive' });
  });
});

describe('the Vercel AI SDK with @ai-sdk/openai against /v1/chat/completions', () => {
  const model = () => createOpenAI({ apiKey: w.key, baseURL: `${w.baseURL}/v1` }).chat('claude-sonnet-5');

  it('generates text', async () => {
    const result = await generateText({ model: model(), prompt: 'Hello from the openai provider' });
    expect(result.text).toContain('Hello from the openai provider');
    expect(result.finishReason).toBe('stop');
    expect(result.usage.inputTokens).toBeGreaterThan(0);
  });

  it('streams text with usage', async () => {
    const result = streamText({ model: model(), prompt: 'Stream through chat completions' });
    const parts: string[] = [];
    for await (const delta of result.textStream) parts.push(delta);
    expect(parts.join('')).toContain('Stream through chat completions');
    expect((await result.usage).outputTokens).toBeGreaterThan(0);
  });

  it('runs a tool round trip through execute', async () => {
    const result = await generateText({
      model: model(),
      prompt: 'What is the weather in Rome?',
      tools: { weather },
      toolChoice: 'required',
      stopWhen: stepCountIs(1),
    });
    expect(result.toolCalls[0]).toMatchObject({ toolName: 'weather', input: { city: 'simulated city' } });
    expect(result.toolResults[0]).toMatchObject({ output: '18 degrees and sunny in simulated city' });
    const next = await generateText({
      model: model(),
      messages: [{ role: 'user', content: 'What is the weather in Rome?' }, ...result.response.messages],
      tools: { weather },
    });
    expect(next.text).toContain('18 degrees and sunny in simulated city');
  });

  it('asks for reasoning with reasoningEffort', async () => {
    await generateText({
      model: model(),
      prompt: 'Reason about it',
      providerOptions: { openai: { reasoningEffort: 'low' } },
    });
    expect(lastUpstreamBody()).toMatchObject({ thinking: { type: 'adaptive' }, output_config: { effort: 'low' } });
  });

  it('bills every paid call once, and the ledger reconciles', async () => {
    await expectEveryCallBilledOnce(w);
  });
});
