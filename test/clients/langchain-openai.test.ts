// LangChain's ChatOpenAI, unmodified, against the gateway's OpenAI routes: Chat Completions by default, Responses with
// `useResponsesApi: true`. Each ends with every paid call billed once.
import { type AIMessage, type AIMessageChunk, HumanMessage, type ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { ChatOpenAI } from '@langchain/openai';
import { z } from 'zod';
import { type ClientWorld, expectEveryCallBilledOnce, openClientWorld } from '../support/listening-gateway.js';

let w: ClientWorld;

beforeAll(async () => {
  w = await openClientWorld();
});
afterAll(() => w.closeAll());

type Fields = NonNullable<ConstructorParameters<typeof ChatOpenAI>[0]>;
const chat = (extra: Fields = {}) =>
  new ChatOpenAI({
    model: 'claude-sonnet-5',
    apiKey: w.key,
    configuration: { baseURL: `${w.baseURL}/v1` },
    maxRetries: 0,
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

/** The last body the upstream received. */
const upstreamBody = () =>
  w.sim.state.requests.filter((r) => r.path === '/v1/messages').at(-1)?.body as Record<string, unknown>;

/** Calls the bound tool for each of the model's tool calls until it answers in text (at most `turns` model calls). The
 * simulated provider calls a tool only when one is forced: the first turn forces it (`force`), the next ones do not. */
async function toolLoop(question: string, dialect: Fields, force: string, turns = 4): Promise<AIMessage[]> {
  const conversation: (HumanMessage | AIMessage | ToolMessage)[] = [new HumanMessage(question)];
  for (let turn = 0; turn < turns; turn++) {
    const model = chat(dialect).bindTools([weather], turn === 0 ? { tool_choice: force } : {});
    const answer = await model.invoke(conversation);
    conversation.push(answer);
    if (!answer.tool_calls?.length) break;
    for (const call of answer.tool_calls) conversation.push((await weather.invoke(call as never)) as ToolMessage);
  }
  return conversation.filter((m): m is AIMessage => m.getType() === 'ai');
}

const verdict = z.object({ answer: z.string(), confidence: z.number() });

type Dialect = { force: string; dialect: Fields; effort: Fields['modelKwargs'] };
// LangChain 1.6.0's Responses mode drops a string tool_choice (`required`, `auto`, `none`) and sends only a named one,
// so the loop there forces the tool by its name. It sends its `reasoning` option only for model names of OpenAI's
// reasoning models (o*, gpt-5…), so another model's effort goes in `modelKwargs`.
describe.each<[string, Dialect]>([
  ['Chat Completions', { force: 'required', dialect: {}, effort: { reasoning_effort: 'low' } }],
  [
    'Responses (useResponsesApi)',
    {
      force: 'get_weather',
      dialect: { useResponsesApi: true },
      effort: { reasoning: { effort: 'low', summary: 'auto' } },
    },
  ],
])('@langchain/openai ChatOpenAI on %s', (_label, { force, dialect, effort }) => {
  it('invokes, with usage', async () => {
    const answer = await chat({ ...dialect, maxTokens: 300 }).invoke('Say hello to the gateway');
    expect(textOf(answer)).toContain('Say hello to the gateway');
    expect(answer.usage_metadata?.input_tokens).toBeGreaterThan(0);
    expect(answer.usage_metadata?.output_tokens).toBeGreaterThan(0);
    expect(upstreamBody().max_tokens).toBe(300);
  });

  it('invokes with no output limit: the model gets its whole output', async () => {
    const answer = await chat(dialect).invoke('Say hello without a limit');
    expect(textOf(answer)).toContain('Say hello without a limit');
    expect(upstreamBody().max_tokens).toBe(128_000);
  });

  it('streams, with the usage of the whole answer', async () => {
    let text = '';
    let chunks = 0;
    let usage: AIMessage['usage_metadata'];
    for await (const chunk of await chat(dialect).stream('Stream a story')) {
      chunks++;
      text += textOf(chunk as AIMessage);
      usage = chunk.usage_metadata ?? usage;
    }
    expect(chunks).toBeGreaterThan(2);
    expect(text).toContain('Stream a story');
    expect(usage?.output_tokens).toBeGreaterThan(0);
  });

  it('runs a bindTools loop until the model answers in text', async () => {
    const answers = await toolLoop('What is the weather in Paris?', dialect, force);
    expect(answers[0]?.tool_calls?.[0]).toMatchObject({ name: 'get_weather', args: { city: 'simulated city' } });
    expect(answers.length).toBe(2);
    expect(textOf(answers[1] as AIMessage)).toContain('18 degrees and sunny in simulated city');
  });

  it('streams a tool call', async () => {
    let whole: AIMessageChunk | undefined;
    for await (const chunk of await chat(dialect)
      .bindTools([weather], { tool_choice: force })
      .stream('Weather in Oslo?')) {
      whole = whole ? whole.concat(chunk) : chunk;
    }
    expect(whole?.tool_calls?.[0]).toMatchObject({ name: 'get_weather', args: { city: 'simulated city' } });
  });

  it.each([['jsonSchema'], ['functionCalling']] as const)(
    'answers withStructuredOutput (method %s)',
    async (method) => {
      const structured = chat(dialect).withStructuredOutput(verdict, { name: 'verdict', method });
      const result = await structured.invoke('Is the gateway up? Answer in JSON with answer and confidence.');
      expect(verdict.parse(result)).toEqual(result);
      expect(upstreamBody().tool_choice).toEqual({ type: 'tool', name: 'verdict' });
    },
  );

  it('answers withStructuredOutput (method jsonMode) with a JSON object', async () => {
    // json_object names no schema: the simulated provider's forced tool then answers `{}`, which a real model fills
    // as the prompt asks. What matters here is the wire: a JSON object comes back and parses.
    const loose = z.object({ answer: z.string().optional() });
    const structured = chat(dialect).withStructuredOutput(loose, { method: 'jsonMode' });
    expect(await structured.invoke('Answer in JSON.')).toEqual({});
    expect(upstreamBody().tool_choice).toEqual({ type: 'tool', name: 'json_object' });
  });

  it('thinks with a reasoning effort and carries on the conversation after it', async () => {
    const thinking = chat({ ...dialect, modelKwargs: effort });
    const first = await thinking.invoke('Think about queues');
    expect(upstreamBody().thinking).toEqual({ type: 'adaptive' });
    const second = await thinking.invoke([new HumanMessage('Think about queues'), first, new HumanMessage('And now?')]);
    expect(textOf(second)).toContain('And now?');
  });
});

describe('@langchain/openai ChatOpenAI billing', () => {
  it('bills every paid call once, and the ledger reconciles', async () => {
    await expectEveryCallBilledOnce(w);
  });
});
