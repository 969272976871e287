// The reservation of a Messages request that names many models (security review round 7): the body was walked once
// per model it named (its own, each `fallbacks` entry's, each advisor tool's), so the walk was quadratic in the body:
// 16,000 fallbacks (a 460 KB body, far under the 32 MiB limit) held the API's main loop for about a minute before the
// answer, and every other request of the process waited with it. Now the body is walked once and each distinct model
// priced once. No time is asserted (machines are noisy): before the fix this test outlives its timeout.
// The same review found two web tools declaring `max_uses: 1e308` answered 500 (their sum was Infinity, which no
// BigInt holds); a `max_uses` past safe integers now counts as none declared.
import { type GatewayWorld, openGatewayWorld, walletOf } from '../support/gateway.js';

let w: GatewayWorld;
beforeAll(async () => {
  w = await openGatewayWorld({ balance: '100' });
});
afterAll(async () => w?.close());

const ask = (body: Record<string, unknown>) =>
  w.h.http
    .post('/v1/messages')
    .set('x-api-key', w.key)
    .send({ model: 'claude-haiku-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }], ...body });

describe('a Messages body that names many models', () => {
  it('is reserved from one walk of the body: 20,000 fallbacks answer 402 at once, nothing held', async () => {
    const fallbacks = Array.from({ length: 20_000 }, (_, i) => ({
      model: i % 2 === 0 ? 'claude-haiku-4-5' : 'claude-sonnet-5',
    }));
    const res = await ask({ fallbacks });
    // Each fallback may read a full context window: far more than the wallet's 100.
    expect(res.status).toBe(402);
    expect(res.body.error.type).toBe('billing_error');
    expect((await walletOf(w.h, w.org)).frozenAmount).toBe(0);
  });

  it('prices web tools whose max_uses passes safe integers like tools that declare none, never 500', async () => {
    const tools = ['a', 'b'].map((name) => ({ type: 'web_search_20250305', name, max_uses: 1e308 }));
    const res = await ask({ tools });
    // Reserved and forwarded: the upstream judges the figure (the simulator, like Anthropic, wants an integer).
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('invalid_request_error');
    expect(res.body.error.message).toMatch(/max_uses/);
    expect((await walletOf(w.h, w.org)).frozenAmount).toBe(0);
  });
});
