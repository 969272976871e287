// A named output limit above the model's (the registry's maxOutputTokens) is refused with a 400 in each route family's
// shape, naming the limit, before anything is held, counted or sent, as the vendors refuse it. It was held (a large
// limit answered a misleading 402 from a small wallet) and sent upstream. count_tokens takes no output limit.
import { loadModelRegistry } from '../../shared/gateway/model-registry.js';
import { aProjectWithKey, openGatewayWorld, requestLogsOf, walletOf } from '../support/gateway.js';
import { bearer } from '../support/identity.js';
import { type ClientWorld, openClientWorld } from '../support/listening-gateway.js';
import { openAiPoster } from '../support/openai-route.js';
import { shippedModels, writeRegistry } from '../support/registry.js';

let w: ClientWorld;

beforeAll(async () => {
  w = await openClientWorld();
});
afterAll(() => w.closeAll());

const registry = loadModelRegistry();
const messagesModels = registry.models.filter((m) => m.capability === 'messages');
const anthropic = { 'anthropic-version': '2023-06-01' };

type Family = {
  label: string;
  path: string;
  body: (model: string, limit: number) => object;
  error: (message: RegExp) => object;
};
const openAiError = (message: RegExp) => ({
  error: { type: 'invalid_request_error', code: expect.any(String), message: expect.stringMatching(message) },
});
const families: Family[] = [
  {
    label: '/v1/messages max_tokens',
    path: '/v1/messages',
    body: (model, limit) => ({ model, max_tokens: limit, messages: [{ role: 'user', content: 'hi' }] }),
    error: (message) => ({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringMatching(message) },
    }),
  },
  {
    label: '/v1/chat/completions max_tokens',
    path: '/v1/chat/completions',
    body: (model, limit) => ({ model, max_tokens: limit, messages: [{ role: 'user', content: 'hi' }] }),
    error: openAiError,
  },
  {
    label: '/v1/chat/completions max_completion_tokens',
    path: '/v1/chat/completions',
    body: (model, limit) => ({ model, max_completion_tokens: limit, messages: [{ role: 'user', content: 'hi' }] }),
    error: openAiError,
  },
  {
    label: '/v1/responses max_output_tokens',
    path: '/v1/responses',
    body: (model, limit) => ({ model, max_output_tokens: limit, input: 'hi' }),
    error: openAiError,
  },
];
const param = (family: Family) => family.label.split(' ')[1] as string;
/** What each vendor says: Anthropic `max_tokens: N > L, which is the maximum …`, OpenAI `… is too large: N. …`. */
const wording = (family: Family, model: string, limit: number, asked: number) =>
  family.path === '/v1/messages'
    ? new RegExp(`^max_tokens: ${asked} > ${limit}, which is the maximum allowed number of output tokens for ${model}$`)
    : new RegExp(`^${param(family)} is too large: ${asked}\\. ${model} supports at most ${limit} \\w+ tokens`);

describe.each(families)('$label above the model limit', (family) => {
  const post = openAiPoster(() => w, family.path);

  it('is refused with 400 naming the limit, before anything is held, counted or sent, from any wallet', async () => {
    // A wallet that could not hold the huge limit answered 402 before: the 400 says what to change.
    const poor = await aProjectWithKey(w.h, '0.01');
    const calls = w.sim.state.counters.messages;
    const res = await post(family.body('claude-haiku-4-5', 1_000_000), { ...bearer(poor.key), ...anthropic });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toEqual(family.error(wording(family, 'claude-haiku-4-5', 64_000, 1_000_000)));
    expect(w.sim.state.counters.messages).toBe(calls);
    expect(await walletOf(w.h, poor.org)).toMatchObject({ balance: 0.01, frozenAmount: 0 });
    expect(await requestLogsOf(w.h, poor.projectId)).toEqual([]);
  });

  it.each(messagesModels.map((m) => [m.id, m.maxOutputTokens] as const))(
    '%s: its limit (%i) is served, one more is refused naming it',
    async (model, limit) => {
      const over = await post(family.body(model, limit + 1), { ...bearer(w.key), ...anthropic });
      expect(over.status).toBe(400);
      expect(JSON.parse(over.text)).toEqual(family.error(wording(family, model, limit, limit + 1)));
      const at = await post(family.body(model, limit), { ...bearer(w.key), ...anthropic });
      expect(at.status).toBe(200);
      const sent = w.sim.state.requests.filter((r) => r.path === '/v1/messages').at(-1)?.body;
      expect(sent).toMatchObject({ max_tokens: limit });
    },
  );
});

describe('/v1/messages fallbacks and count_tokens', () => {
  const post = openAiPoster(() => w, '/v1/messages');

  it("refuses a fallback's own max_tokens above its model's limit, naming the entry", async () => {
    const calls = w.sim.state.counters.messages;
    const res = await post(
      {
        model: 'claude-opus-5',
        max_tokens: 100_000,
        messages: [{ role: 'user', content: 'hi' }],
        fallbacks: [{ model: 'claude-haiku-4-5', max_tokens: 100_000 }],
      },
      { ...bearer(w.key), ...anthropic },
    );
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).error.message).toBe(
      'fallbacks.0.max_tokens: 100000 > 64000, which is the maximum allowed number of output tokens for claude-haiku-4-5',
    );
    expect(w.sim.state.counters.messages).toBe(calls);
  });

  it.each([127_999.5, '64000', 0, null])(
    "refuses a fallback's max_tokens of %p, which the hold could not count, before anything is held",
    async (limit) => {
      const calls = w.sim.state.counters.messages;
      const res = await post(
        {
          model: 'claude-haiku-4-5',
          max_tokens: 16,
          messages: [{ role: 'user', content: 'hi' }],
          fallbacks: [{ model: 'claude-sonnet-5', max_tokens: limit }],
        },
        { ...bearer(w.key), ...anthropic },
      );
      expect(res.status).toBe(400);
      expect(JSON.parse(res.text).error.message).toBe('fallbacks.0.max_tokens must be a positive integer');
      expect(w.sim.state.counters.messages).toBe(calls);
    },
  );

  it('leaves count_tokens alone: it checks no output limit, and the upstream answers for the body', async () => {
    const count = openAiPoster(() => w, '/v1/messages/count_tokens');
    const body = { model: 'claude-haiku-4-5', messages: [{ role: 'user', content: 'hi' }] };
    const counted = await count(body, { ...bearer(w.key), ...anthropic });
    expect(counted.status).toBe(200);
    expect(JSON.parse(counted.text).input_tokens).toBeGreaterThan(0);
    // Anthropic's count_tokens takes no max_tokens: the refusal is the upstream's, not the gateway's output limit.
    const limited = await count({ ...body, max_tokens: 1_000_000 }, { ...bearer(w.key), ...anthropic });
    expect(JSON.parse(limited.text).error.message).toBe('max_tokens: Extra inputs are not permitted');
  });
});

describe("the registry's output limits", () => {
  // Anthropic's model pages (2026-11): 128K for Opus 5, Sonnet 5, Sonnet 4.6 and Haiku 5.5, 64K for Haiku 4.5. The AI
  // SDK's default max_tokens for claude-sonnet-5 is 128,000 (test/clients/ai-sdk.test.ts): a lower registry refused it.
  it('names the documented limit of every shipped messages model, and none on the others', () => {
    expect(Object.fromEntries(shippedModels.map((m) => [m.id, m.maxOutputTokens]))).toEqual({
      'claude-opus-5': 128_000,
      'claude-sonnet-5': 128_000,
      'claude-sonnet-4-6': 128_000,
      'claude-haiku-5-5': 128_000,
      'claude-haiku-4-5': 64_000,
      'seedance-1-0-pro': undefined,
      'sora-2': undefined,
      'web-search': undefined,
    });
  });

  it('refuses nothing for a messages model whose entry names no limit (its 4,096 default is no vendor limit)', async () => {
    const entry = shippedModels.find((m) => m.id === 'claude-haiku-4-5') as Record<string, unknown>;
    const { maxOutputTokens: _named, ...unnamed } = entry;
    const custom = await openGatewayWorld({ balance: '10', env: { MODEL_REGISTRY: writeRegistry([unnamed]) } });
    try {
      const res = await custom.h.http
        .post('/v1/messages')
        .set({ 'x-api-key': custom.key, ...anthropic })
        .send({ model: 'claude-haiku-4-5', max_tokens: 100_000, messages: [{ role: 'user', content: 'hi' }] });
      expect(res.status).toBe(200);
      expect(custom.sim.state.requests.filter((r) => r.path === '/v1/messages').at(-1)?.body).toMatchObject({
        max_tokens: 100_000,
      });
    } finally {
      await custom.close();
    }
  });

  it.each(['seedance-1-0-pro', 'web-search'])('refuses maxOutputTokens on %s (not a text model) at load', (id) => {
    const entry = shippedModels.find((m) => m.id === id) as Record<string, unknown>;
    const path = writeRegistry([{ ...entry, maxOutputTokens: 4096 }]);
    expect(() => loadModelRegistry(path)).toThrow(
      /models\.0\.maxOutputTokens: an output limit applies to messages models only \(this is a \w+ model\)/,
    );
  });
});
