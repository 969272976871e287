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

describe('the Vercel AI SDK with @ai-sdk/openai against /v1/responses (its default model)', () => {
  // `openai(id)` is the Responses model in @ai-sdk/openai (its provider function returns createResponsesModel).
  const model = () => createOpenAI({ apiKey: w.key, baseURL: `${w.baseURL}/v1` })('claude-sonnet-5');
  const upstreamCalls = () => w.sim.state.requests.filter((r) => r.path === '/v1/messages').length;

  it('generates text', async () => {
    const before = upstreamCalls();
    const result = await generateText({
      model: model(),
      system: 'You are terse.',
      prompt: 'Hello from the responses provider',
      maxOutputTokens: 300,
    });
    expect(result.text).toContain('Hello from the responses provider');
    expect(result.finishReason).toBe('stop');
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(upstreamCalls()).toBe(before + 1);
    expect(lastUpstreamBody()).toMatchObject({ max_tokens: 300, system: [{ type: 'text', text: 'You are terse.' }] });
  });

  it('streams text with usage', async () => {
    const result = streamText({ model: model(), prompt: 'Stream through responses' });
    const parts: string[] = [];
    for await (const delta of result.textStream) parts.push(delta);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.join('')).toContain('Stream through responses');
    expect((await result.usage).outputTokens).toBeGreaterThan(0);
    expect(await result.finishReason).toBe('stop');
  });

  it('runs a tool round trip through execute, in one call of several steps', async () => {
    const result = await generateText({
      model: model(),
      prompt: 'What is the weather in Oslo?',
      tools: { weather },
      stopWhen: stepCountIs(2),
      prepareStep: ({ stepNumber }) => (stepNumber === 0 ? { toolChoice: 'required' } : {}),
    });
    expect(result.steps[0]?.toolCalls[0]).toMatchObject({ toolName: 'weather', input: { city: 'simulated city' } });
    expect(result.text).toContain('18 degrees and sunny in simulated city');
  });

  it('continues a conversation with store: false; with its default store: true the item references are refused', async () => {
    const first = await generateText({ model: model(), prompt: 'Remember the word tangerine' });
    const messages = [
      { role: 'user' as const, content: 'Remember the word tangerine' },
      ...first.response.messages,
      { role: 'user' as const, content: 'Which word?' },
    ];
    const next = await generateText({ model: model(), messages, providerOptions: { openai: { store: false } } });
    expect(next.text).toContain('Which word?');
    expect((lastUpstreamBody().messages as unknown[]).length).toBe(3);
    await expect(generateText({ model: model(), messages })).rejects.toMatchObject({
      statusCode: 400,
      responseBody: expect.stringMatching(/item references are not served.*store = false/),
    });
  });

  it('bills every paid call once, and the ledger reconciles', async () => {
    await expectEveryCallBilledOnce(w);
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
