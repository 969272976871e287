import { usageOf } from '../../shared/gateway/messages-usage.js';
import { loadModelRegistry } from '../../shared/gateway/model-registry.js';
import { tokenCostMicros } from '../../shared/gateway/pricing.js';
import { reconcileWallets } from '../../shared/wallet/reconciliation.js';
import { aProjectWithKey, consumeRecords, requestLogsOf, walletOf } from '../support/gateway.js';
import { waitUntil } from '../support/harness.js';
import { type ClientWorld, openClientWorld } from '../support/listening-gateway.js';

let w: ClientWorld;
let baseURL: string;

beforeAll(async () => {
  w = await openClientWorld({ balance: '500' });
  baseURL = w.baseURL;
});
afterAll(() => w.closeAll());

const sonnet = loadModelRegistry().resolve('claude-sonnet-5', 'messages');
const micros = (usd: number) => BigInt(Math.round(usd * 1_000_000));

async function post(body: unknown, headers: Record<string, string> = {}, query = '') {
  const res = await fetch(`${baseURL}/v1/messages${query}`, {
    method: 'POST',
    headers: { 'x-api-key': w.key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** The last /v1/messages request the simulated provider received. */
const lastUpstream = () => w.sim.state.requests.filter((r) => r.path === '/v1/messages').at(-1);

describe('POST /v1/messages forwards what the gateway does not own', () => {
  it('answers the adaptive-thinking request with a mid-conversation system message and context management (issue 17)', async () => {
    const before = (await consumeRecords(w.h, w.org)).length;
    const body = {
      model: 'claude-sonnet-5',
      max_tokens: 2000,
      thinking: { type: 'adaptive' },
      output_config: { effort: 'high' },
      context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
      messages: [
        { role: 'user', content: 'hello' },
        { role: 'system', content: 'Be brief.' },
      ],
    };
    const beta = 'mid-conversation-system-2026-04-07,context-management-2025-06-27';
    const res = await post(body, { 'anthropic-beta': beta }, '?beta=true');
    expect(res.status).toBe(200);
    const content = res.body.content as { type: string }[];
    expect(content[0]?.type).toBe('thinking');
    expect(content.at(-1)?.type).toBe('text');
    expect(res.body.context_management).toEqual({ applied_edits: [] });

    const upstream = lastUpstream();
    expect(upstream?.body).toEqual({ ...body, model: sonnet.upstreamModel });
    expect(upstream?.headers['anthropic-beta']).toBe(beta);
    expect(upstream?.headers['anthropic-version']).toBe('2023-06-01');
    expect(upstream?.query).toEqual({ beta: 'true' });

    const records = await consumeRecords(w.h, w.org);
    expect(records).toHaveLength(before + 1);
    const usage = usageOf(res.body.usage as never);
    expect(micros(records[0]?.amount ?? 0)).toBe(tokenCostMicros(sonnet, usage));
  });

  it.each([
    ['a new thinking type with display', { thinking: { type: 'adaptive', display: 'omitted' } }, {}],
    ['an effort without thinking', { output_config: { effort: 'low' } }, {}],
    [
      'an output format',
      {
        output_config: {
          format: {
            type: 'json_schema',
            schema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
          },
        },
      },
      {},
    ],
    ['a container', { container: 'container_0123' }, {}],
    [
      'MCP servers under their beta',
      { mcp_servers: [{ type: 'url', url: 'https://mcp.example.com/sse', name: 'example' }] },
      { 'anthropic-beta': 'mcp-client-2025-11-20' },
    ],
    ['top-level cache control', { cache_control: { type: 'ephemeral', ttl: '1h' } }, {}],
    ['metadata', { metadata: { user_id: 'user-42' } }, {}],
    [
      'service tier, speed and inference geography at their standard values',
      { service_tier: 'auto', speed: 'standard', inference_geo: 'global' },
      {},
    ],
    [
      'a block type the gateway never heard of',
      {
        messages: [
          {
            role: 'user',
            content: [
              {
                type: 'search_result',
                source: 'https://example.com',
                title: 't',
                content: [{ type: 'text', text: 'found' }],
              },
              { type: 'text', text: 'use it' },
            ],
          },
        ],
      },
      {},
    ],
  ])('forwards %s untouched and answers 200', async (_label, extra, headers) => {
    const body = {
      model: 'claude-sonnet-5',
      max_tokens: 300,
      messages: [{ role: 'user', content: 'a forwarded feature' }],
      ...extra,
    };
    const res = await post(body, headers);
    expect(res.status).toBe(200);
    expect(lastUpstream()?.body).toEqual({ ...body, model: sonnet.upstreamModel });
  });

  it('bills server tools: web search requests at the registry price per request', async () => {
    const before = (await consumeRecords(w.h, w.org)).length;
    const res = await post({
      model: 'claude-sonnet-5',
      max_tokens: 500,
      tools: [
        { type: 'web_search_20250305', name: 'web_search', max_uses: 3 },
        { type: 'web_fetch_20250910', name: 'web_fetch', max_uses: 2 },
      ],
      messages: [{ role: 'user', content: 'what happened today?' }],
    });
    expect(res.status).toBe(200);
    expect((res.body.usage as { server_tool_use: unknown }).server_tool_use).toEqual({
      web_search_requests: 1,
      web_fetch_requests: 1,
    });
    const usage = usageOf(res.body.usage as never);
    const records = await consumeRecords(w.h, w.org);
    expect(records).toHaveLength(before + 1);
    expect(micros(records[0]?.amount ?? 0)).toBe(tokenCostMicros(sonnet, usage));
    expect(micros(records[0]?.amount ?? 0)).toBeGreaterThanOrEqual(micros(0.01));
  });

  it('bills 1-hour cache writes at their own price', async () => {
    const system = [
      { type: 'text', text: `A long prompt ${'ipsum '.repeat(200)}`, cache_control: { type: 'ephemeral', ttl: '1h' } },
    ];
    const first = await post({
      model: 'claude-sonnet-5',
      max_tokens: 50,
      system,
      messages: [{ role: 'user', content: 'one' }],
    });
    const created = first.body.usage as { cache_creation: { ephemeral_1h_input_tokens: number } };
    expect(created.cache_creation.ephemeral_1h_input_tokens).toBeGreaterThan(0);
    const [record] = await consumeRecords(w.h, w.org);
    expect(micros(record?.amount ?? 0)).toBe(tokenCostMicros(sonnet, usageOf(first.body.usage as never)));
    expect(tokenCostMicros(sonnet, usageOf(first.body.usage as never))).toBeGreaterThan(
      tokenCostMicros(sonnet, { ...usageOf(first.body.usage as never), cacheWrite1hTokens: 0 }),
    );
  });

  it("returns the upstream's own 400 in Anthropic's shape and charges nothing", async () => {
    const settled = await waitUntil(async () => {
      const wallet = await walletOf(w.h, w.org);
      return wallet.frozenAmount === 0 ? wallet : undefined;
    });
    for (const body of [
      { model: 'claude-sonnet-5', max_tokens: 10, messages: [{ role: 'user', content: 'x' }], bogus_field: 1 },
      { model: 'claude-sonnet-5', max_tokens: 10, messages: [{ role: 'robot', content: 'x' }] },
      {
        model: 'claude-sonnet-5',
        max_tokens: 10,
        messages: [{ role: 'user', content: 'x' }],
        thinking: { type: 'telepathic' },
      },
      {
        model: 'claude-sonnet-5',
        max_tokens: 10,
        messages: [{ role: 'user', content: 'x' }],
        context_management: { edits: [] },
      },
    ]) {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        type: 'error',
        error: { type: 'invalid_request_error', message: expect.any(String) },
      });
    }
    expect(
      (
        await post({
          model: 'claude-sonnet-5',
          max_tokens: 10,
          messages: [{ role: 'user', content: 'x' }],
          bogus_field: 1,
        })
      ).body,
    ).toMatchObject({
      error: { message: 'bogus_field: Extra inputs are not permitted' },
    });
    expect(await walletOf(w.h, w.org)).toEqual(settled);
  });

  it.each([
    ['a body that is not an object', [1, 2]],
    ['messages that are not an array', { model: 'claude-sonnet-5', max_tokens: 10, messages: 'hi' }],
    ['max_tokens zero', { model: 'claude-sonnet-5', max_tokens: 0, messages: [] }],
    ['max_tokens not an integer', { model: 'claude-sonnet-5', max_tokens: 1.5, messages: [] }],
    ['stream not a boolean', { model: 'claude-sonnet-5', max_tokens: 10, messages: [], stream: 'yes' }],
    [
      'an unknown fallback model',
      { model: 'claude-sonnet-5', max_tokens: 10, messages: [], fallbacks: [{ model: 'gpt-9' }] },
    ],
  ])('refuses %s itself, before the upstream', async (_label, body) => {
    const calls = w.sim.state.counters.messages;
    const res = await post(body);
    expect(res.status).toBe(400);
    expect((res.body.error as { type: string }).type).toBe('invalid_request_error');
    expect(w.sim.state.counters.messages).toBe(calls);
  });

  // A new user's trial: a missing max_tokens was answered "must be a positive integer", which reads as a bad value.
  it('says max_tokens is required when it is missing, and what it must be when it is wrong', async () => {
    const missing = await post({ model: 'claude-sonnet-5', messages: [{ role: 'user', content: 'x' }] });
    expect(missing.status).toBe(400);
    expect((missing.body.error as { message: string }).message).toMatch(/max_tokens is required/);
    const zero = await post({ model: 'claude-sonnet-5', max_tokens: 0, messages: [] });
    expect((zero.body.error as { message: string }).message).toMatch(/max_tokens must be a positive integer/);
  });

  it('refuses with 402 a request whose bound it cannot cover, before the upstream', async () => {
    const calls = w.sim.state.counters.messages;
    // a PDF it cannot measure fills the 1M-token window: $3.00 of input, more than a $1 wallet
    const poor = await aProjectWithKey(w.h, '1');
    const res = await fetch(`${baseURL}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': poor.key, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'claude-sonnet-5',
        max_tokens: 10,
        messages: [
          {
            role: 'user',
            content: [{ type: 'document', source: { type: 'url', url: 'https://example.com/huge.pdf' } }],
          },
        ],
      }),
    });
    expect(res.status).toBe(402);
    expect(w.sim.state.counters.messages).toBe(calls);
  });

  it('logs one request per paid call and the ledger reconciles', async () => {
    await waitUntil(async () => ((await walletOf(w.h, w.org)).frozenAmount === 0 ? true : undefined));
    const logs = await requestLogsOf(w.h, w.projectId);
    const paid = logs.filter((l) => l.costMicros > 0n);
    expect(await consumeRecords(w.h, w.org)).toHaveLength(paid.length);
    expect((await reconcileWallets(w.h.ctx.db)).problems).toEqual([]);
  });
});
