// An advisor sub-inference whose model the answer does not name among the request's advisors is priced at the
// dearest of them for that call. With fast mode the dearest is the one whose multiplied price is highest, not the one
// with the highest list price (review of the price-raising options): here A lists $25 per output MTok with fast ×2
// (50), B $20 with fast ×6 (120), so the call is B's.
import { eq } from 'drizzle-orm';
import { requestLogs } from '../../shared/db/schema/index.js';
import { answerUsage, type GatewayWorld, openGatewayWorld, writeLedgers } from '../support/gateway.js';
import { type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';
import { shippedModel, shippedModels, writeRegistry } from '../support/registry.js';

let w: GatewayWorld;
let upstream: LoopbackServer;

beforeAll(async () => {
  const opus = shippedModel('claude-opus-5');
  const file = writeRegistry([
    ...shippedModels,
    { ...shippedModel('claude-haiku-4-5'), id: 'exec-fast', priceMultipliers: { speed: { fast: 2 } } },
    { ...opus, id: 'adv-a', upstreamModel: 'adv-a', priceMultipliers: { speed: { fast: 2 } } },
    {
      ...opus,
      id: 'adv-b',
      upstreamModel: 'adv-b',
      prices: { ...opus.prices, inputPerMTok: 0, outputPerMTok: 20 },
      priceMultipliers: { speed: { fast: 6 } },
    },
  ]);
  upstream = await startLoopbackServer((_req, res) =>
    answerUsage(res, 'claude-haiku-4-5', {
      input_tokens: 0,
      output_tokens: 1_000,
      // An advisor model the request did not name: priced at the dearest of its advisors for this call.
      iterations: [{ type: 'advisor_message', model: 'some-other-advisor', input_tokens: 0, output_tokens: 1_000 }],
    }),
  );
  w = await openGatewayWorld({
    // An advisor's bound covers its whole context window at the fast price: a large balance.
    balance: '100000',
    env: { UPSTREAM_MESSAGES_URL: upstream.origin, MODEL_REGISTRY: file },
  });
});
afterAll(async () => {
  await w?.close();
  await upstream?.close();
});

it('prices an unnamed advisor call at the advisor dearest after the fast-mode multiplier', async () => {
  const res = await w.h.http
    .post('/v1/messages')
    .set('x-api-key', w.key)
    .set('anthropic-beta', 'advisor-tool-2026-03-01')
    .send({
      model: 'exec-fast',
      speed: 'fast',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'plan a migration' }],
      tools: [
        { type: 'advisor_20260301', name: 'advisor', model: 'adv-a' },
        { type: 'advisor_20260301', name: 'second_opinion', model: 'adv-b' },
      ],
    });
  expect(res.status).toBe(200);
  await writeLedgers(w.h);
  const [log] = await w.h.ctx.db.select().from(requestLogs).where(eq(requestLogs.projectId, w.projectId));
  // The advisor's 1,000 output tokens at B's $20 × 6 = 120 micro-USD a token: 120,000 (at A's $25 × 2 they were
  // 50,000), plus the executor's own 1,000 at Haiku 4.5's $4 × 2: 8,000.
  expect(log?.costMicros).toBe(128_000n);
});
