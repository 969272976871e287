// A Messages request that several models may serve (its own, `fallbacks`, advisor tools) is settled part by part:
// its advisor sub-inferences at the advisor model's prices, the rest at the model that answered. The hold was the
// dearest of the whole bound priced at ONE model, so when one model has the dearest input and another the dearest
// output, a settlement passed its hold: the excess came from the available balance (never below zero), so on a small
// balance the operator was undercharged, and concurrent requests were admitted against holds that did not cover them
// (security review #117). Now each token class is held at the dearest price any serving model reaches for it. The
// upstream is a loopback server answering as Anthropic does (the simulated provider has no advisor tool).
import type { ServerResponse } from 'node:http';
import { messagesBound } from '../../shared/gateway/messages-estimate.js';
import {
  answerUsage,
  aProjectWithKey,
  type GatewayWorld,
  openGatewayWorld,
  requestLogsOf,
} from '../support/gateway.js';
import { type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';
import { shippedModel, shippedModels, writeRegistry } from '../support/registry.js';
import { live } from '../support/wallet-spend.js';

const haiku = shippedModel('claude-haiku-4-5');
/** The executor: cheap input, dear output. The advisor: the other way round. Both with a 10,000-token window. */
const executor = {
  ...haiku,
  id: 'mix-exec',
  upstreamModel: 'mix-exec',
  contextWindowTokens: 10_000,
  prices: { inputPerMTok: 1, outputPerMTok: 50 },
};
const advisor = {
  ...executor,
  id: 'mix-adv',
  upstreamModel: 'mix-adv',
  prices: { inputPerMTok: 50, outputPerMTok: 1 },
};

const body = {
  model: 'mix-exec',
  max_tokens: 5_000,
  messages: [{ role: 'user', content: 'plan a migration' }],
  tools: [{ type: 'advisor_20260301', name: 'advisor', model: 'mix-adv', max_uses: 1 }],
};
/** Two passes (the advisor tool's one use): up to a first pass plus a whole window in, max_tokens per pass out. */
const bound = messagesBound(body, { contextWindowTokens: 10_000, serverToolPasses: 10 });
const firstPass = bound.inputTokens - 10_000;
/** Within the bound: the advisor reads a whole window, the executor its first pass and writes max_tokens twice. */
const usage = {
  input_tokens: firstPass,
  output_tokens: bound.outputTokens,
  iterations: [
    { type: 'message', input_tokens: firstPass, output_tokens: bound.outputTokens },
    { type: 'advisor_message', model: 'mix-adv', input_tokens: 10_000, output_tokens: 0 },
  ],
};
/** The executor's part at $1 / $50 per MTok, the advisor's 10,000 input tokens at $50. */
const cost = BigInt(firstPass) + BigInt(bound.outputTokens) * 50n + 500_000n;

let w: GatewayWorld;
let upstream: LoopbackServer;
/** The next upstream request waits here until the test answers it. */
let arrived: (res: ServerResponse) => void = () => {};

beforeAll(async () => {
  upstream = await startLoopbackServer((_req, res) => arrived(res));
  w = await openGatewayWorld({
    env: {
      UPSTREAM_MESSAGES_URL: upstream.origin,
      MODEL_REGISTRY: writeRegistry([...shippedModels, executor, advisor]),
    },
  });
});
afterAll(async () => {
  await w?.close();
  await upstream?.close();
});

const ask = (key: string) =>
  w.h.http.post('/v1/messages').set('x-api-key', key).set('anthropic-beta', 'advisor-tool-2026-03-01').send(body);

describe('the hold of a request several models may serve', () => {
  it('covers a settlement that mixes the advisor’s dear input with the executor’s dear output', async () => {
    // Old hold: the whole bound at one model, the advisor's (input at $50, output at $1): below the cost.
    expect(BigInt(bound.inputTokens) * 50n + BigInt(bound.outputTokens)).toBeLessThan(cost);
    const project = await aProjectWithKey(w.h, '100');
    const upstreamCalled = new Promise<ServerResponse>((resolve) => {
      arrived = resolve;
    });
    const answered = ask(project.key).then((res) => res);
    const res = await upstreamCalled;
    // The request is in flight upstream: what it holds now is its whole hold.
    const held = (await live(w.h.ctx, project.org.id)).frozenAmount;
    answerUsage(res, 'mix-exec', usage);
    expect((await answered).status).toBe(200);

    const [log] = await requestLogsOf(w.h, project.projectId);
    expect(log?.costMicros).toBe(cost);
    expect(held).toBeGreaterThanOrEqual(cost);
    // Each class at its dearest: input at the advisor's $50, output at the executor's $50.
    expect(held).toBe(BigInt(bound.inputTokens + bound.outputTokens) * 50n);
  });

  it('is refused 402 by a wallet that covers only the old hold, never admitted and undercharged', async () => {
    // Between the old hold and the cost: admitted before, and settled at the whole balance, below the cost.
    const balance = BigInt(bound.inputTokens) * 50n + BigInt(bound.outputTokens) + 1_000n;
    expect(balance).toBeLessThan(cost);
    const poor = await aProjectWithKey(w.h, String(Number(balance) / 1_000_000));
    arrived = (res) => answerUsage(res, 'mix-exec', usage);
    const res = await ask(poor.key);
    expect(res.status).toBe(402);
    expect(res.body.error.type).toBe('billing_error');
    expect(await live(w.h.ctx, poor.org.id)).toMatchObject({ balance, frozenAmount: 0n });
  });
});
