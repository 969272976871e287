import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { defaultRegistryPath, loadModelRegistry } from '../../shared/gateway/model-registry.js';
import { tokenCostMicros } from '../../shared/gateway/pricing.js';
import { consumeRecords, type GatewayWorld, openGatewayWorld, requestLogsOf, walletOf } from '../support/gateway.js';
import { bearer, createUser } from '../support/identity.js';

let w: GatewayWorld;
let client: Anthropic;
let baseURL: string;

beforeAll(async () => {
  // The default registry plus one model without extended thinking.
  const registry = JSON.parse(readFileSync(defaultRegistryPath, 'utf8')) as { models: Record<string, unknown>[] };
  registry.models.push({
    ...registry.models[0],
    id: 'test-no-thinking',
    displayName: 'A model without thinking',
    supportsThinking: false,
  });
  const registryPath = path.join(mkdtempSync(path.join(os.tmpdir(), 'ockhub-registry-')), 'models.json');
  writeFileSync(registryPath, JSON.stringify(registry));
  w = await openGatewayWorld({ balance: '50', env: { MODEL_REGISTRY: registryPath } });
  const server = w.h.app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  baseURL = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  client = new Anthropic({ apiKey: w.key, baseURL, maxRetries: 0 });
  afterAllClose.push(() => new Promise((r) => server.close(() => r(undefined))));
});
const afterAllClose: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of afterAllClose) await close();
  await w.close();
});

const sonnet = loadModelRegistry().resolve('claude-sonnet-5', 'messages');
const micros = (usd: number) => BigInt(Math.round(usd * 1_000_000));
const logsOfProject = () => requestLogsOf(w.h, w.projectId);

/** The SDK adds a parsed_output convenience field to streamed messages; the wire message is the rest. */
const wire = (m: object) => {
  const { parsed_output: _ignored, ...rest } = m as Record<string, unknown>;
  return JSON.parse(JSON.stringify(rest));
};

describe('POST /v1/messages with the Anthropic SDK', () => {
  it('answers a plain text request and bills exactly its usage at the registry prices', async () => {
    const before = (await consumeRecords(w.h, w.org)).length;
    const message = await client.messages.create({
      model: 'claude-sonnet-5',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'Say hello to the gateway' }],
    });
    expect(message.type).toBe('message');
    expect(message.content[0]?.type).toBe('text');
    expect(message.usage.input_tokens).toBeGreaterThan(0);

    const records = await consumeRecords(w.h, w.org);
    expect(records).toHaveLength(before + 1);
    const expected = tokenCostMicros(sonnet, {
      inputTokens: message.usage.input_tokens,
      outputTokens: message.usage.output_tokens,
      cacheReadTokens: message.usage.cache_read_input_tokens ?? 0,
      cacheWriteTokens: message.usage.cache_creation_input_tokens ?? 0,
    });
    expect(micros(records[0]?.amount ?? 0)).toBe(expected);
    const wallet = await walletOf(w.h, w.org);
    expect(wallet.frozenAmount).toBe(0);
  });

  it('streams events as they come and its final message equals the non-streamed one', async () => {
    const params = {
      model: 'claude-sonnet-5',
      max_tokens: 300,
      messages: [{ role: 'user' as const, content: 'Tell me a short story about queues and workers' }],
    };
    const plain = await client.messages.create(params);
    const stream = client.messages.stream(params);
    const events: string[] = [];
    stream.on('streamEvent', (e) => events.push(e.type));
    const final = await stream.finalMessage();
    expect(wire(final)).toEqual(wire(plain));
    expect(events[0]).toBe('message_start');
    expect(events.at(-1)).toBe('message_stop');
    expect(events.filter((e) => e === 'content_block_delta').length).toBeGreaterThan(1);
  });

  it('relays the SSE wire format with event lines and a request-id', async () => {
    const res = await fetch(`${baseURL}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': w.key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'claude-haiku-4-5',
        max_tokens: 100,
        stream: true,
        messages: [{ role: 'user', content: 'stream please' }],
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('request-id')).toBeTruthy();
    const text = await res.text();
    const names = [...text.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
    expect(names[0]).toBe('message_start');
    expect(names).toContain('content_block_start');
    expect(names).toContain('ping');
    expect(names.slice(-2)).toEqual(['message_delta', 'message_stop']);
  });

  it('runs the tool-use round trip of the seed', async () => {
    const tools = [
      {
        name: 'get_weather',
        description: 'Current weather in a city',
        input_schema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] },
      },
    ];
    const question = { role: 'user' as const, content: 'What is the weather in Paris?' };
    const first = await client.messages.create({
      model: 'claude-sonnet-5',
      max_tokens: 200,
      tools,
      tool_choice: { type: 'any' },
      messages: [question],
    });
    expect(first.stop_reason).toBe('tool_use');
    const toolUse = first.content.find((b) => b.type === 'tool_use');
    expect(toolUse).toBeDefined();
    const second = await client.messages.create({
      model: 'claude-sonnet-5',
      max_tokens: 200,
      tools,
      messages: [
        question,
        { role: 'assistant', content: first.content },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: (toolUse as { id: string }).id, content: '18°C and sunny' }],
        },
      ],
    });
    expect(second.stop_reason).toBe('end_turn');
    expect(second.content[0]?.type).toBe('text');
  });

  it('passes extended thinking through', async () => {
    const message = await client.messages.create({
      model: 'claude-sonnet-5',
      max_tokens: 2048,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      messages: [{ role: 'user', content: 'Think about it first' }],
    });
    expect(message.content[0]?.type).toBe('thinking');
  });

  it('refuses thinking on a model without it', async () => {
    await expect(
      client.messages.create({
        model: 'test-no-thinking',
        max_tokens: 2048,
        thinking: { type: 'enabled', budget_tokens: 1024 },
        messages: [{ role: 'user', content: 'x' }],
      }),
    ).rejects.toMatchObject({ status: 400 });
  });

  it('reports cache writes then cache reads and prices them as the registry says', async () => {
    const system = [
      {
        type: 'text' as const,
        text: `A long shared prompt ${'lorem '.repeat(300)}`,
        cache_control: { type: 'ephemeral' as const },
      },
    ];
    const params = {
      model: 'claude-sonnet-5',
      max_tokens: 64,
      system,
      messages: [{ role: 'user' as const, content: 'hi' }],
    };
    const first = await client.messages.create(params);
    const second = await client.messages.create(params);
    expect(first.usage.cache_creation_input_tokens).toBeGreaterThan(0);
    expect(second.usage.cache_read_input_tokens).toBe(first.usage.cache_creation_input_tokens);
    const records = await consumeRecords(w.h, w.org);
    const expected = tokenCostMicros(sonnet, {
      inputTokens: second.usage.input_tokens,
      outputTokens: second.usage.output_tokens,
      cacheReadTokens: second.usage.cache_read_input_tokens ?? 0,
      cacheWriteTokens: second.usage.cache_creation_input_tokens ?? 0,
    });
    expect(micros(records[0]?.amount ?? 0)).toBe(expected);
  });

  it('forwards count_tokens without billing it', async () => {
    const before = (await consumeRecords(w.h, w.org)).length;
    const count = await client.messages.countTokens({
      model: 'claude-sonnet-5',
      messages: [{ role: 'user', content: 'how many tokens is this?' }],
    });
    expect(count.input_tokens).toBeGreaterThan(0);
    expect(await consumeRecords(w.h, w.org)).toHaveLength(before);
  });

  it('lists the registry at GET /v1/models in Anthropic list shape', async () => {
    const res = await fetch(`${baseURL}/v1/models`, { headers: { 'x-api-key': w.key } });
    const body = (await res.json()) as { data: { id: string; capabilities: string[] }[]; has_more: boolean };
    expect(res.status).toBe(200);
    expect(body.has_more).toBe(false);
    expect(body.data.map((m) => m.capabilities[0])).toEqual(expect.arrayContaining(['messages', 'video', 'search']));
    expect(body.data[0]).toMatchObject({
      type: 'model',
      display_name: expect.any(String),
      created_at: expect.any(String),
    });
  });
});

describe('failures in the middle', () => {
  it('turns an upstream failure mid-stream into an error event and bills what was produced', async () => {
    const res = await fetch(`${baseURL}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': w.key, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'claude-sonnet-5',
        max_tokens: 500,
        stream: true,
        messages: [{ role: 'user', content: 'please [stream-error] now' }],
      }),
    });
    const text = await res.text();
    expect(text).toMatch(/^event: error$/m);
    // the stream is settled just after its last byte
    const failed = await waitFor(async () =>
      (await logsOfProject()).find((l) => l.status === 'failed' && l.operation === 'messages'),
    );
    expect(failed.outputTokens).toBeGreaterThan(0);
    expect(failed.costMicros).toBeGreaterThan(0n);
  });

  it('aborts the upstream when the client goes away and bills what was produced', async () => {
    const abortedBefore = (
      (await (await fetch(`${w.sim.url}/_simulator/stats`)).json()) as { messageStreamsAborted: number }
    ).messageStreamsAborted;
    const controller = new AbortController();
    const res = await fetch(`${baseURL}/v1/messages`, {
      method: 'POST',
      signal: controller.signal,
      headers: { 'x-api-key': w.key, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'claude-sonnet-5',
        max_tokens: 500,
        stream: true,
        messages: [{ role: 'user', content: 'a [slow] answer please, a long one about many things' }],
      }),
    });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let seen = '';
    while (!seen.includes('content_block_delta')) seen += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    const closed = await waitFor(async () => (await logsOfProject()).find((l) => l.status === 'client_closed'));
    expect(closed.costMicros).toBeGreaterThan(0n);
    const stats = await waitFor(async () => {
      const s = (await (await fetch(`${w.sim.url}/_simulator/stats`)).json()) as { messageStreamsAborted: number };
      return s.messageStreamsAborted > abortedBefore ? s : undefined;
    });
    expect(stats.messageStreamsAborted).toBe(abortedBefore + 1);
  });

  it('answers an upstream 500 as api_error and charges nothing', async () => {
    // earlier streams settle just after their last byte; start from a wallet with nothing in flight
    const before = await waitFor(async () => {
      const wallet = await walletOf(w.h, w.org);
      return wallet.frozenAmount === 0 ? wallet : undefined;
    });
    await expect(
      client.messages.create({
        model: 'claude-sonnet-5',
        max_tokens: 50,
        messages: [{ role: 'user', content: '[upstream-error]' }],
      }),
    ).rejects.toMatchObject({ status: 500, error: { type: 'error', error: { type: 'api_error' } } });
    expect(await walletOf(w.h, w.org)).toEqual(before);
  });
});

describe('bad input, auth, quota and money', () => {
  const post = (body: unknown, headers: Record<string, string> = { 'x-api-key': w.key }) =>
    fetch(`${baseURL}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const good = { model: 'claude-sonnet-5', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] };

  it.each([
    ['no model', { ...good, model: undefined }],
    ['no max_tokens', { ...good, max_tokens: undefined }],
    ['no messages', { ...good, messages: undefined }],
    ['an unknown model', { ...good, model: 'gpt-9000' }],
    ['a video model', { ...good, model: 'seedance-1-0-pro' }],
    ['temperature 1.5', { ...good, temperature: 1.5 }],
    ['a system role in messages', { ...good, messages: [{ role: 'system', content: 'x' }] }],
    [
      'a tool_result without its tool_use',
      {
        ...good,
        messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_x', content: 'y' }] }],
      },
    ],
  ])('refuses %s with 400 invalid_request_error and reserves nothing', async (_label, body) => {
    const before = await waitFor(async () => {
      const wallet = await walletOf(w.h, w.org);
      return wallet.frozenAmount === 0 ? wallet : undefined;
    });
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.any(String) },
    });
    expect(await walletOf(w.h, w.org)).toEqual(before);
  });

  it('refuses a body over the size limit with 413 request_too_large', async () => {
    const huge = {
      ...good,
      messages: [{ role: 'user', content: 'x'.repeat(w.h.config.GATEWAY_BODY_LIMIT_BYTES + 1) }],
    };
    const res = await post(huge);
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe('request_too_large');
  });

  it('answers 401 authentication_error without a key and 403 permission_error for a key without a project', async () => {
    const none = await post(good, {});
    expect(none.status).toBe(401);
    expect(((await none.json()) as { error: { type: string } }).error.type).toBe('authentication_error');
    const user = await createUser(w.h);
    const unbound = await post(good, bearer(user.apiKey));
    expect(unbound.status).toBe(403);
    // The message says how to get the key it asks for (an account key is what "First API key" makes).
    expect(((await unbound.json()) as { error: { type: string; message: string } }).error).toEqual({
      type: 'permission_error',
      message: expect.stringMatching(/bound to a project: POST \/api\/v1\/api-keys \{name, projectId\}.*from-template/),
    });
    const session = await post(good, bearer(user.session));
    expect(session.status).toBe(403);
  });
});

async function waitFor<T>(probe: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}
