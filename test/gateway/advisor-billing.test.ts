// The advisor tool (`advisor_20260301`) lets a cheap executor model consult a dearer advisor model inside one
// Messages request; the answer reports each consultation as a `usage.iterations` entry of type `advisor_message`.
// Those tokens were billed at the executor's prices: a paid key with a Haiku executor and an Opus advisor got the
// Opus tokens at Haiku's prices, about a sixth of their cost (found by the security review's seventh round). Now each
// advisor sub-inference is priced at its advisor model. The upstream here is a loopback server answering as
// Anthropic does; the simulated provider has no advisor tool.
import { eq } from 'drizzle-orm';
import { requestLogs } from '../../shared/db/schema/index.js';
import { answerUsage, type GatewayWorld, openGatewayWorld, writeLedgers } from '../support/gateway.js';
import { type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';

let w: GatewayWorld;
let upstream: LoopbackServer;

const usage = {
  input_tokens: 10,
  output_tokens: 5,
  iterations: [
    { type: 'message', input_tokens: 10, output_tokens: 5 },
    { type: 'advisor_message', model: 'claude-opus-5', input_tokens: 100_000, output_tokens: 10_000 },
  ],
};

beforeAll(async () => {
  upstream = await startLoopbackServer((_req, res) => answerUsage(res, 'claude-haiku-4-5', usage));
  w = await openGatewayWorld({ balance: '100', env: { UPSTREAM_MESSAGES_URL: upstream.origin } });
});
afterAll(async () => {
  await w?.close();
  await upstream?.close();
});

it('bills an advisor sub-inference at the advisor model’s prices, the rest at the executor’s', async () => {
  const res = await w.h.http
    .post('/v1/messages')
    .set('x-api-key', w.key)
    .set('anthropic-beta', 'advisor-tool-2026-03-01')
    .send({
      model: 'claude-haiku-4-5',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'plan a migration' }],
      tools: [{ type: 'advisor_20260301', name: 'advisor', model: 'claude-opus-5' }],
    });
  expect(res.status).toBe(200);
  // The advisor model went upstream as its upstream id.
  expect(JSON.parse(upstream.requests.at(-1)?.body ?? '{}').tools[0].model).toBe('claude-opus-5');

  await writeLedgers(w.h);
  const [log] = await w.h.ctx.db.select().from(requestLogs).where(eq(requestLogs.projectId, w.projectId));
  // Haiku 4.5 ($0.80 / $4 per MTok): 10 in + 5 out = 28 micro-USD. Opus ($5 / $25): 100,000 in + 10,000 out =
  // 750,000. (At Haiku's prices the whole was 120,028.)
  expect(log?.costMicros).toBe(750_028n);
  expect(log?.inputTokens).toBe(100_010);
  expect(log?.outputTokens).toBe(10_005);
});
