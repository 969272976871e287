// Price-raising request options (`speed: "fast"`, `inference_geo: "us"`, `service_tier`) were forwarded untouched and
// every token billed at the registry's standard price: a paid key bought the vendor's fast mode (several times the
// price) at the standard price and the operator paid the difference (security review). Now a value the registry
// does not price is refused before anything is held, and a priced one multiplies the token prices in the hold and
// the charge alike.
import { messagesReservationMicros } from '../../shared/gateway/messages-estimate.js';
import { loadModelRegistry } from '../../shared/gateway/model-registry.js';
import { priceOptionsOf } from '../../shared/gateway/price-options.js';
import { tokenCostMicros } from '../../shared/gateway/pricing.js';
import { aProjectWithKey, type GatewayWorld, openGatewayWorld, requestLogsOf, walletOf } from '../support/gateway.js';
import { waitUntil } from '../support/harness.js';
import { shippedModel, shippedModels, writeRegistry } from '../support/registry.js';

let w: GatewayWorld;
let registryPath: string;

const sonnetEntry = shippedModel('claude-sonnet-5');

beforeAll(async () => {
  // The default registry plus a copy of Sonnet 5 ($3 in, $15 out per MTok) that prices fast mode and US inference.
  registryPath = writeRegistry([
    ...shippedModels,
    {
      ...sonnetEntry,
      id: 'test-premium',
      displayName: 'Sonnet with priced premiums',
      priceMultipliers: { speed: { fast: 6 }, inference_geo: { us: 1.1 } },
    },
  ]);
  w = await openGatewayWorld({ balance: '100', env: { MODEL_REGISTRY: registryPath } });
});
afterAll(() => w?.close());

const premium = () => loadModelRegistry(registryPath).resolve('test-premium', 'messages');
const upstreamCalls = () => w.sim.state.requests.filter((r) => r.path === '/v1/messages').length;
const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

function post(body: Record<string, unknown>, key = w.key) {
  return w.h.http
    .post('/v1/messages')
    .set('x-api-key', key)
    .set('anthropic-version', '2023-06-01')
    .send({ max_tokens: 200, messages: [{ role: 'user', content: 'a premium request' }], ...body });
}

/** Sends a request and waits for its one settled request log (a stream settles right after its last byte). */
async function billed(body: Record<string, unknown>) {
  const before = new Set((await requestLogsOf(w.h, w.projectId)).map((l) => l.id));
  const res = await post(body);
  expect(res.status).toBe(200);
  const log = await waitUntil(async () => (await requestLogsOf(w.h, w.projectId)).find((l) => !before.has(l.id)));
  expect(log.status).toBe('succeeded');
  expect(log.outputTokens).toBeGreaterThan(0);
  return { tokensIn: BigInt(log.inputTokens), tokensOut: BigInt(log.outputTokens), cost: log.costMicros };
}

describe('price-raising options on /v1/messages', () => {
  it.each([
    [{ speed: 'fast' }, 'speed "fast"'],
    [{ inference_geo: 'us' }, 'inference_geo "us"'],
    [{ service_tier: 'priority' }, 'service_tier "priority"'],
    [{ speed: 'fast', stream: true }, 'speed "fast"'],
  ])(
    'answers 400 invalid_request_error to %j on a model that prices no such option, holding and logging nothing',
    async (extra, named) => {
      const logsBefore = (await requestLogsOf(w.h, w.projectId)).length;
      const walletBefore = await walletOf(w.h, w.org);
      const callsBefore = upstreamCalls();

      const res = await post({ model: 'claude-sonnet-5', ...extra });
      expect(res.status).toBe(400);
      expect(res.body.type).toBe('error');
      expect(res.body.error.type).toBe('invalid_request_error');
      expect(res.body.error.message).toContain(named);
      expect(res.body.error.message).toContain('claude-sonnet-5');

      expect(upstreamCalls()).toBe(callsBefore);
      expect(await requestLogsOf(w.h, w.projectId)).toHaveLength(logsBefore);
      const wallet = await walletOf(w.h, w.org);
      expect(wallet).toEqual({ ...walletBefore, frozenAmount: 0 });
    },
  );

  it('refuses a priced option a fallback model does not price, and an option set in a fallback entry', async () => {
    const viaFallback = await post({ model: 'test-premium', speed: 'fast', fallbacks: [{ model: 'claude-sonnet-5' }] });
    expect(viaFallback.status).toBe(400);
    expect(viaFallback.body.error.message).toContain('claude-sonnet-5');
    const perEntry = await post({ model: 'claude-sonnet-5', fallbacks: [{ model: 'test-premium', speed: 'fast' }] });
    expect(perEntry.status).toBe(400);
    expect(perEntry.body.error.message).toContain('fallbacks.0.speed');
  });

  it('bills standard and absent options at the registry price, unchanged', async () => {
    for (const extra of [{}, { speed: 'standard', inference_geo: 'global', service_tier: 'standard_only' }]) {
      const { tokensIn, tokensOut, cost } = await billed({ model: 'claude-sonnet-5', ...extra });
      expect(cost).toBe(tokensIn * 3n + tokensOut * 15n); // $3 / $15 per MTok: 3 and 15 micro-USD a token
    }
  });

  it('charges fast mode at the registry price times its multiplier, exactly (JSON and stream)', async () => {
    for (const stream of [false, true]) {
      const { tokensIn, tokensOut, cost } = await billed({ model: 'test-premium', speed: 'fast', stream });
      expect(cost).toBe((tokensIn * 3n + tokensOut * 15n) * 6n);
    }
    await waitUntil(async () => ((await walletOf(w.h, w.org)).frozenAmount === 0 ? true : undefined));
  });

  it('multiplies combined premiums and rounds the exact total up once (US inference 1.1×, with fast mode 6.6×)', async () => {
    const geo = await billed({ model: 'test-premium', inference_geo: 'us' });
    // 1.1 × ($3 in + $15 out per MTok) = (33 in + 165 out) / 10 micro-USD, rounded up once.
    expect(geo.cost).toBe(ceilDiv(geo.tokensIn * 33n + geo.tokensOut * 165n, 10n));
    const both = await billed({ model: 'test-premium', inference_geo: 'us', speed: 'fast' });
    expect(both.cost).toBe(ceilDiv(both.tokensIn * 198n + both.tokensOut * 990n, 10n));
  });

  it('holds the premium: a wallet that covers the standard bound but not the fast one is refused 402', async () => {
    const body = { model: 'test-premium', max_tokens: 200, messages: [{ role: 'user', content: 'a premium request' }] };
    const standard = messagesReservationMicros(body, [premium()]);
    const fast = messagesReservationMicros(body, [premium()], priceOptionsOf({ ...body, speed: 'fast' }, [premium()]));
    expect(fast).toBe(standard * 6n);

    const poor = await aProjectWithKey(w.h, String(Number(standard * 2n) / 1_000_000));
    const refused = await post({ model: 'test-premium', speed: 'fast' }, poor.key);
    expect(refused.status).toBe(402);
    expect(refused.body.error.type).toBe('billing_error');
    const served = await post({ model: 'test-premium' }, poor.key);
    expect(served.status).toBe(200);
  });
});

describe('the registry’s price multipliers', () => {
  it('are validated at load: below 1, or an option the gateway does not know, is refused', () => {
    const below = writeRegistry([{ ...sonnetEntry, priceMultipliers: { speed: { fast: 0.6 } } }]);
    expect(() => loadModelRegistry(below)).toThrow(/priceMultipliers\.speed\.fast: a price multiplier is at least 1/);
    const unknown = writeRegistry([{ ...sonnetEntry, priceMultipliers: { turbo: { yes: 2 } } }]);
    expect(() => loadModelRegistry(unknown)).toThrow(/priceMultipliers/);
  });

  it('price a standard value at 1 and leave the cost without options as it was', () => {
    const model = premium();
    const usage = { inputTokens: 7, outputTokens: 3, cacheReadTokens: 0, cacheWriteTokens: 0 };
    expect(tokenCostMicros(model, usage, [])).toBe(66n);
    expect(tokenCostMicros(model, usage, [1_100_000n])).toBe(73n); // 72.6, rounded up
  });
});
