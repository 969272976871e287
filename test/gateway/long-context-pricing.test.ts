// A vendor may bill a long-context request at higher rates: Anthropic billed a request whose input (input + cache
// read + cache write tokens) was over 200,000 tokens at its long-context prices for EVERY token of it (Sonnet 4/4.5
// with the 1M-token beta: $6 in and $22.50 out instead of $3 and $15). The registry knew one price per model, so such a
// request was held and billed at the standard price while the vendor charged the premium: the operator paid the
// difference. Now a model's `longContext` tier prices the whole (sub-)inference over its threshold, in the charge and
// in the hold. The upstream here is a loopback server answering with the usage each case chooses.
import { messagesBound, messagesReservationMicros } from '../../shared/gateway/messages-estimate.js';
import { loadModelRegistry } from '../../shared/gateway/model-registry.js';
import { priceOptionsOf } from '../../shared/gateway/price-options.js';
import {
  answerUsage,
  aProjectWithKey,
  type GatewayWorld,
  openGatewayWorld,
  requestLogsOf,
} from '../support/gateway.js';
import { waitUntil } from '../support/harness.js';
import { type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';
import { shippedModel, shippedModels, writeRegistry } from '../support/registry.js';

let w: GatewayWorld;
let upstream: LoopbackServer;
let registryPath: string;

const sonnetEntry = shippedModel('claude-sonnet-4-6');
/** Anthropic's long-context prices for Sonnet 4/4.5 (1M beta): 2× input and cache prices, 1.5× output. */
const tier = {
  aboveInputTokens: 200_000,
  prices: {
    inputPerMTok: 6,
    outputPerMTok: 22.5,
    cacheReadPerMTok: 0.6,
    cacheWritePerMTok: 7.5,
    cacheWrite1hPerMTok: 12,
  },
};
const longEntry = {
  ...sonnetEntry,
  id: 'test-long',
  displayName: 'Sonnet with a long-context tier',
  upstreamModel: 'test-long-upstream',
  longContext: tier,
  priceMultipliers: { speed: { fast: 6 } },
};

/** What the upstream answers next: its `model` and `usage`. */
let answer: { model: string; usage: Record<string, unknown> } = { model: 'test-long-upstream', usage: {} };

beforeAll(async () => {
  registryPath = writeRegistry([...shippedModels, longEntry]);
  upstream = await startLoopbackServer((_req, res) => answerUsage(res, answer.model, answer.usage));
  w = await openGatewayWorld({
    balance: '100',
    env: { MODEL_REGISTRY: registryPath, UPSTREAM_MESSAGES_URL: upstream.origin },
  });
});
afterAll(async () => {
  await w?.close();
  await upstream?.close();
});

const long = () => loadModelRegistry(registryPath).resolve('test-long', 'messages');
const standardSonnet = () => loadModelRegistry(registryPath).resolve('claude-sonnet-4-6', 'messages');

function post(body: Record<string, unknown>, key = w.key) {
  return w.h.http
    .post('/v1/messages')
    .set('x-api-key', key)
    .set('anthropic-version', '2023-06-01')
    .send({ model: 'test-long', max_tokens: 1_000, messages: [{ role: 'user', content: 'a long read' }], ...body });
}

/** The cost of one request answered with `usage`, once its settlement is written. */
async function billed(
  usage: Record<string, unknown>,
  body: Record<string, unknown> = {},
  model = 'test-long-upstream',
) {
  answer = { model, usage };
  const before = new Set((await requestLogsOf(w.h, w.projectId)).map((l) => l.id));
  const res = await post(body);
  expect(res.status).toBe(200);
  const log = await waitUntil(async () => (await requestLogsOf(w.h, w.projectId)).find((l) => !before.has(l.id)));
  expect(log.status).toBe('succeeded');
  return log.costMicros;
}

/** 150,000 (+1) input, 30,000 cache read and 20,000 cache write tokens: 200,000 (200,001) in the vendor's count. */
const atThreshold = {
  input_tokens: 150_000,
  cache_read_input_tokens: 30_000,
  cache_creation_input_tokens: 20_000,
  output_tokens: 1_000,
};
const overThreshold = { ...atThreshold, input_tokens: 150_001 };

describe('settlement at the long-context prices', () => {
  it('bills a usage of 200,000 input tokens (input + cache read + cache write) at the standard prices', async () => {
    // $3 in, $0.30 cache read, $3.75 cache write, $15 out per MTok.
    expect(await billed(atThreshold)).toBe(150_000n * 3n + 9_000n + 75_000n + 15_000n);
  });

  it('bills every token of a usage of 200,001 input tokens at the long-context prices, input and output', async () => {
    // $6 in, $0.60 cache read, $7.50 cache write, $22.50 out per MTok.
    expect(await billed(overThreshold)).toBe(150_001n * 6n + 18_000n + 150_000n + 22_500n);
  });

  it('prices 1-hour cache writes at the tier’s 1-hour price and leaves web search requests at their own price', async () => {
    const usage = {
      ...overThreshold,
      cache_creation: { ephemeral_5m_input_tokens: 5_000, ephemeral_1h_input_tokens: 15_000 },
      server_tool_use: { web_search_requests: 2 },
    };
    // 5,000 at $7.50 + 15,000 at $12; two searches at $0.01 each, as without the tier.
    expect(await billed(usage)).toBe(150_001n * 6n + 18_000n + 37_500n + 180_000n + 22_500n + 20_000n);
  });

  it('multiplies the long-context prices by fast mode, rounded up once', async () => {
    // 1,001 output tokens at $22.50: 22,522.5 micro-USD. Alone, the total is rounded up; times 6 it is exact.
    const odd = { ...overThreshold, output_tokens: 1_001 };
    expect(await billed(odd)).toBe(150_001n * 6n + 18_000n + 150_000n + 22_523n);
    expect(await billed(odd, { speed: 'fast' })).toBe((150_001n * 6n + 18_000n + 150_000n) * 6n + 135_135n);
    expect(await billed(atThreshold, { speed: 'fast' })).toBe((150_000n * 3n + 9_000n + 75_000n + 15_000n) * 6n);
  });

  it('judges each advisor sub-inference by its own input, and the executor by the rest', async () => {
    const advisorTool = { tools: [{ type: 'advisor_20260301', name: 'advisor', model: 'test-long' }] };
    /** An answer of the executor's own tokens and one consultation of the tiered model, each [input, output]. */
    const advised = ([input, output]: number[], [advisorInput, advisorOutput]: number[]) => ({
      input_tokens: input,
      output_tokens: output,
      iterations: [
        { type: 'message', input_tokens: input, output_tokens: output },
        {
          type: 'advisor_message',
          model: 'test-long-upstream',
          input_tokens: advisorInput,
          output_tokens: advisorOutput,
        },
      ],
    });
    // A Haiku 4.5 executor ($0.80 / $4) consulting the tiered model with 200,001 input tokens: the advice is premium.
    const haiku = { model: 'claude-haiku-4-5', ...advisorTool };
    const overAdvice = advised([10, 5], [200_001, 1_000]);
    expect(await billed(overAdvice, haiku, 'claude-haiku-4-5')).toBe(28n + 200_001n * 6n + 22_500n);

    // The tiered model as executor (150,000 in) and as advisor (100,000 in): 250,000 in all, neither part over.
    const split = advised([150_000, 1_000], [100_000, 1_000]);
    expect(await billed(split, advisorTool)).toBe(150_000n * 3n + 15_000n + 100_000n * 3n + 15_000n);
  });
});

describe('the reservation at the long-context prices', () => {
  const bodyOf = (bytes: number) => ({
    model: 'test-long',
    max_tokens: 1_000,
    messages: [{ role: 'user', content: 'x'.repeat(bytes) }],
  });

  it('holds a request whose estimated input can pass the threshold at the long-context prices, a small one not', () => {
    const small = bodyOf(150_000);
    expect(messagesBound(small, long()).inputTokens).toBeLessThanOrEqual(200_000);
    expect(messagesReservationMicros(small, [long()])).toBe(messagesReservationMicros(small, [standardSonnet()]));

    const big = bodyOf(250_000);
    const bound = messagesBound(big, long());
    expect(bound.inputTokens).toBeGreaterThan(200_000);
    expect(messagesReservationMicros(big, [long()])).toBe(BigInt(bound.inputTokens) * 6n + 22_500n);
    const fast = priceOptionsOf({ ...big, speed: 'fast' }, [long()]);
    expect(messagesReservationMicros(big, [long()], fast)).toBe((BigInt(bound.inputTokens) * 6n + 22_500n) * 6n);

    // A server-side tool loop reads whole windows per pass: held at the tier even with a short prompt.
    const loop = { ...bodyOf(100), tools: [{ type: 'web_search_20250305', name: 'web_search' }] };
    expect(messagesReservationMicros(loop, [long()])).toBeGreaterThan(
      messagesReservationMicros(loop, [standardSonnet()]),
    );
  });

  it('refuses 402 a request crossing the threshold when the wallet covers only its standard-price bound', async () => {
    const big = bodyOf(250_000);
    const standard = messagesReservationMicros(big, [standardSonnet()]);
    const premium = messagesReservationMicros(big, [long()]);
    expect(premium).toBeGreaterThan(standard);
    const between = (standard + premium) / 2n;
    const poor = await aProjectWithKey(w.h, (Number(between) / 1_000_000).toFixed(6));
    answer = { model: 'test-long-upstream', usage: overThreshold };
    const callsBefore = upstream.requests.length;

    const refused = await post(big, poor.key);
    expect(refused.status).toBe(402);
    expect(refused.body.error.type).toBe('billing_error');
    expect(upstream.requests.length).toBe(callsBefore);
    // The same body at the standard-priced model fits the wallet.
    answer = { model: 'claude-sonnet-4-6', usage: { input_tokens: 10, output_tokens: 1 } };
    const served = await post({ ...big, model: 'claude-sonnet-4-6' }, poor.key);
    expect(served.status).toBe(200);
  });
});

describe('the registry’s long-context tier', () => {
  const load = (entry: Record<string, unknown>) => () => loadModelRegistry(writeRegistry([entry]));

  it('is validated at load', () => {
    expect(load({ ...longEntry, longContext: { ...tier, aboveInputTokens: 1_000_000 } })).toThrow(
      /longContext\.aboveInputTokens: must be below the model's contextWindowTokens \(1000000\)/,
    );
    expect(load({ ...longEntry, longContext: { ...tier, aboveInputTokens: 0 } })).toThrow(/aboveInputTokens/);
    expect(load({ ...longEntry, longContext: { ...tier, aboveInputTokens: 200_000.5 } })).toThrow(/aboveInputTokens/);
    expect(load({ ...longEntry, longContext: { ...tier, prices: { ...tier.prices, outputPerMTok: 14 } } })).toThrow(
      /longContext\.prices\.outputPerMTok: a long-context price is at least the standard one \(15\)/,
    );
    const { cacheWrite1hPerMTok: _, ...missing } = tier.prices;
    expect(load({ ...longEntry, longContext: { ...tier, prices: missing } })).toThrow(/cacheWrite1hPerMTok/);
    // Web search and fetch keep their per-request prices: the tier does not take them.
    expect(
      load({ ...longEntry, longContext: { ...tier, prices: { ...tier.prices, webSearchPerRequest: 0.02 } } }),
    ).toThrow(/longContext\.prices/);
    const video = shippedModels.find((m) => m.capability === 'video') as Record<string, unknown>;
    expect(load({ ...video, longContext: { ...tier, aboveInputTokens: 1 } })).toThrow(/messages models only/);
  });

  it('compares with the standard prices after their fallbacks (cache prices default to the input price)', () => {
    const bare = { ...longEntry, prices: { inputPerMTok: 3, outputPerMTok: 15 } };
    // Cache read falls back to $3 input: a $0.60 tier price would bill cache reads below their standard price.
    expect(load(bare)).toThrow(/longContext\.prices\.cacheReadPerMTok/);
    expect(() =>
      load({ ...bare, longContext: { ...tier, prices: { ...tier.prices, cacheReadPerMTok: 6 } } })(),
    ).not.toThrow();
  });

  it('is absent from the shipped registry: Anthropic bills its 1M-window models at one price', () => {
    expect(loadModelRegistry().models.filter((m) => m.longContext)).toEqual([]);
  });
});
