// An OpenAI-shaped request that names no output limit (Codex CLI never does) asks for the model's whole output, as
// OpenAI serves it, not 4,096 tokens: found running Codex, whose file-writing tool calls ended at 4,096 tokens
// (`incomplete: max_output_tokens`). A wallet that cannot hold the whole output is served at 4,096 as before.
import http from 'node:http';
import { messagesReservationMicros } from '../../shared/gateway/messages-estimate.js';
import { loadModelRegistry } from '../../shared/gateway/model-registry.js';
import {
  aProjectWithKey,
  type GatewayWorld,
  openGatewayWorld,
  recharge,
  requestLogsOf,
  walletOf,
} from '../support/gateway.js';
import { waitUntil } from '../support/harness.js';
import { bearer } from '../support/identity.js';
import { type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';
import { shippedModel, writeRegistry } from '../support/registry.js';

let w: GatewayWorld;
/** Between the gateway and the simulated provider: records each body, and holds requests while `holding` is on. */
let upstream: LoopbackServer;
let holding = false;
const held: (() => void)[] = [];

const model = loadModelRegistry().get('claude-haiku-4-5');
if (!model) throw new Error('claude-haiku-4-5 is not in the shipped registry');

beforeAll(async () => {
  upstream = await startLoopbackServer((req, res, body) => {
    const forward = () => {
      const target = new URL(req.url ?? '/', w.sim.url);
      const call = http.request(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      });
      call.on('error', () => res.destroy());
      call.end(body);
    };
    if (holding) held.push(forward);
    else forward();
  });
  w = await openGatewayWorld({ env: { UPSTREAM_MESSAGES_URL: upstream.origin } });
});
// A test that failed while requests were held lets them go, so the next test is not left waiting on them.
afterEach(() => {
  holding = false;
  for (const release of held.splice(0)) release();
});
afterAll(async () => {
  await w?.close();
  await upstream?.close();
});

type Route = { path: string; body: (extra?: object) => object; effort: (effort: string) => object };
const chat: Route = {
  path: '/v1/chat/completions',
  body: (extra = {}) => ({
    model: 'claude-haiku-4-5',
    messages: [{ role: 'user', content: 'write a file' }],
    ...extra,
  }),
  effort: (effort) => ({ reasoning_effort: effort }),
};
const responses: Route = {
  path: '/v1/responses',
  body: (extra = {}) => ({ model: 'claude-haiku-4-5', input: 'write a file', ...extra }),
  effort: (effort) => ({ reasoning: { effort } }),
};

const post = (key: string, route: Route, body: object) =>
  w.h.http
    .post(route.path)
    .set(bearer(key))
    .send(body)
    .then((r) => r);
const lastBody = () => JSON.parse(upstream.requests.at(-1)?.body ?? '{}') as Record<string, unknown>;
const micros = (usd: number) => Math.round(usd * 1e6);
/** haiku-4-5's prices: $0.8 and $4 per million input and output tokens, i.e. 0.8 and 4 micro-USD per token. */
const costOf = (log: { inputTokens: number; outputTokens: number }) =>
  (log.inputTokens * 8 + log.outputTokens * 40) / 10;

describe('an OpenAI-shaped request without an output limit', () => {
  it.each([
    ['Chat Completions', false, chat],
    ['Chat Completions', true, chat],
    ['Responses', false, responses],
    ['Responses', true, responses],
  ])(
    "%s (stream: %s) asks for the model's whole output and holds its most possible cost, then settles exactly",
    async (_l, stream, route) => {
      const funded = await aProjectWithKey(w.h, '5');
      holding = true;
      const answer = post(funded.key, route, route.body({ stream }));
      const hold = await waitUntil(async () => held.length === 1 && (await walletOf(w.h, funded.org)).frozenAmount);
      const sent = lastBody();
      expect(sent.max_tokens).toBe(64_000);
      expect(micros(hold)).toBe(Number(messagesReservationMicros(sent, [model])));
      holding = false;
      for (const release of held.splice(0)) release();
      expect((await answer).status).toBe(200);

      const wallet = await waitUntil(async () => {
        const now = await walletOf(w.h, funded.org);
        return now.frozenAmount === 0 && now;
      });
      const [log] = await requestLogsOf(w.h, funded.projectId);
      expect(log).toMatchObject({ status: 'succeeded', costMicros: BigInt(Math.ceil(costOf(log as never))) });
      expect(micros(5 - wallet.balance)).toBe(Number(log?.costMicros));
    },
  );

  it.each([
    ['Chat Completions', chat],
    ['Responses', responses],
  ])(
    '%s: a wallet that holds 4,096 tokens but not the whole output is served at 4,096; funded, the whole output',
    async (_l, route) => {
      // 64,000 output tokens hold $0.256, 4,096 hold $0.016 (plus the input's bound).
      const small = await aProjectWithKey(w.h, '0.1');
      const res = await post(small.key, route, route.body(route.effort('high')));
      expect(res.status).toBe(200);
      expect(lastBody()).toMatchObject({ max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 4095 } });
      const wallet = await waitUntil(async () => {
        const now = await walletOf(w.h, small.org);
        return now.frozenAmount === 0 && now;
      });
      const [log] = await requestLogsOf(w.h, small.projectId);
      expect(micros(0.1 - wallet.balance)).toBe(Number(log?.costMicros));

      await recharge(w.h, small.org, 5);
      expect((await post(small.key, route, route.body(route.effort('high')))).status).toBe(200);
      expect(lastBody()).toMatchObject({ max_tokens: 64_000, thinking: { type: 'enabled', budget_tokens: 16_000 } });
    },
  );

  it.each([
    ['Chat Completions', chat],
    ['Responses', responses],
  ])('%s: a funded wallet keeps the thinking budget by effort below the whole output', async (_l, route) => {
    const funded = await aProjectWithKey(w.h, '5');
    const res = await post(funded.key, route, route.body(route.effort('max')));
    expect(res.status).toBe(200);
    expect(lastBody()).toMatchObject({ max_tokens: 64_000, thinking: { type: 'enabled', budget_tokens: 63_999 } });
  });

  it.each([
    ['Chat Completions', chat],
    ['Responses', responses],
  ])(
    '%s: a wallet that cannot hold even 4,096 tokens answers 402 and holds nothing; funded, the whole output',
    async (_l, route) => {
      const poor = await aProjectWithKey(w.h, '0.01');
      const calls = upstream.requests.length;
      const res = await post(poor.key, route, route.body());
      expect(res.status).toBe(402);
      // The refusal names the hold of the last try, at 4,096 tokens ($0.016 and the input's bound), not $0.256.
      expect(res.body.error).toMatchObject({ type: 'insufficient_quota', message: expect.stringMatching(/ 0\.016/) });
      expect(upstream.requests.length).toBe(calls);
      expect(await walletOf(w.h, poor.org)).toMatchObject({ balance: 0.01, frozenAmount: 0 });
      expect(await requestLogsOf(w.h, poor.projectId)).toEqual([]);

      await recharge(w.h, poor.org, 5);
      expect((await post(poor.key, route, route.body())).status).toBe(200);
      expect(lastBody().max_tokens).toBe(64_000);
    },
  );
});

describe('an OpenAI-shaped request that names its output limit', () => {
  it.each([
    ['Chat Completions max_completion_tokens', chat, (n: number) => ({ max_completion_tokens: n })],
    ['Chat Completions max_tokens', chat, (n: number) => ({ max_tokens: n })],
    ['Responses max_output_tokens', responses, (n: number) => ({ max_output_tokens: n })],
  ])(
    // Above the model limit it is refused (test/gateway/output-limits.test.ts).
    '%s passes it unchanged up to the model limit, never lowered for a small wallet',
    async (_l, route, limit) => {
      const funded = await aProjectWithKey(w.h, '5');
      for (const [named, sent] of [
        [64_000, 64_000],
        [1_000, 1_000],
        [undefined, 64_000],
      ] as const) {
        expect((await post(funded.key, route, route.body(named ? limit(named) : {}))).status).toBe(200);
        expect(lastBody().max_tokens).toBe(sent);
      }

      const small = await aProjectWithKey(w.h, '0.1');
      const calls = upstream.requests.length;
      expect((await post(small.key, route, route.body({ ...limit(64_000), stream: true }))).status).toBe(402);
      expect(upstream.requests.length).toBe(calls);
    },
  );
});

describe('the registry', () => {
  it.each([0, -1, 1.5, '64000'])('refuses maxOutputTokens %p at load', (value) => {
    const path = writeRegistry([{ ...shippedModel('claude-haiku-4-5'), maxOutputTokens: value }]);
    expect(() => loadModelRegistry(path)).toThrow(/maxOutputTokens/);
  });

  it('gives a model without maxOutputTokens 4,096, as before', () => {
    const { maxOutputTokens: _, ...entry } = shippedModel('claude-haiku-4-5');
    expect(loadModelRegistry(writeRegistry([entry])).get('claude-haiku-4-5')?.maxOutputTokens).toBe(4096);
  });
});
