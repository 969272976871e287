import { ChatAnthropic } from '@langchain/anthropic';
import { type AIMessage, HumanMessage, type ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { z } from 'zod';
import { type ClientWorld, expectEveryCallBilledOnce, openClientWorld } from '../support/listening-gateway.js';

let w: ClientWorld;

beforeAll(async () => {
  w = await openClientWorld();
});
afterAll(() => w.closeAll());

const chat = (extra: Partial<ConstructorParameters<typeof ChatAnthropic>[0]> = {}) =>
  new ChatAnthropic({
    model: 'claude-sonnet-5',
    apiKey: w.key,
    anthropicApiUrl: w.baseURL,
    maxRetries: 0,
    maxTokens: 2048,
    ...extra,
  });

const weather = tool(async ({ city }) => `18 degrees and sunny in ${city}`, {
  name: 'get_weather',
  description: 'Current weather in a city',
  schema: z.object({ city: z.string() }),
});

const textOf = (message: AIMessage) =>
  typeof message.content === 'string'
    ? message.content
    : message.content.map((c) => ('text' in c ? String(c.text) : '')).join('');

describe('@langchain/anthropic against /v1/messages', () => {
  it('invokes', async () => {
    const answer = await chat().invoke('Say hello to the gateway');
    expect(textOf(answer)).toContain('Say hello to the gateway');
    expect(answer.usage_metadata?.input_tokens).toBeGreaterThan(0);
  });

  it('streams', async () => {
    let text = '';
    let chunks = 0;
    for await (const chunk of await chat().stream('Stream a story')) {
      chunks++;
      text += textOf(chunk as AIMessage);
    }
    expect(chunks).toBeGreaterThan(2);
    expect(text).toContain('Stream a story');
  });

  it('runs a tool round trip', async () => {
    const model = chat().bindTools([weather], { tool_choice: 'any' });
    const question = new HumanMessage('What is the weather in Paris?');
    const first = await model.invoke([question]);
    const call = first.tool_calls?.[0];
    expect(call).toMatchObject({ name: 'get_weather', args: { city: 'simulated city' } });
    const result = await weather.invoke(call as never);
    const second = await chat()
      .bindTools([weather])
      .invoke([question, first, result as ToolMessage]);
    expect(textOf(second)).toContain('18 degrees and sunny in simulated city');
  });

  it('thinks when asked', async () => {
    const answer = await chat({ thinking: { type: 'adaptive' } }).invoke('Think about it first');
    const blocks = answer.content as { type: string; thinking?: string }[];
    expect(blocks[0]).toMatchObject({ type: 'thinking', thinking: expect.stringMatching(/Think about it first/) });
  });

  it('bills every paid call once, and the ledger reconciles', async () => {
    await expectEveryCallBilledOnce(w);
  });
});
