// A request still being answered keeps its hold: found by a review. A hold expired after a fixed 15 minutes whether or
// not its request had ended, and a stream lasts as long as the upstream writes and the client reads (a slow reader
// stalls it); once the hold expired, its money was available again, so the same money admitted a second request, and
// the first one's settlement could only charge what was left: the rest of the upstream's work went uncollected.
import type http from 'node:http';
import { mirrorKeys } from '../../shared/wallet/mirror-steps.js';
import { sweepWallets } from '../../shared/wallet/wallet-sweep.js';
import { consumeRecords, type GatewayWorld, openGatewayWorld, walletOf } from '../support/gateway.js';
import { type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';

/** The hold's lifetime in this test; a request renews it while it runs (in production 15 minutes). */
const HOLD_MS = 1500;
const MAX_TOKENS = 100_000;

let w: GatewayWorld;
let upstream: LoopbackServer;
const held: http.ServerResponse[] = [];

const sse = (event: string, data: object) => `event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`;

beforeAll(async () => {
  upstream = await startLoopbackServer((_req, res, body) => {
    if (!JSON.parse(body).stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'msg_b',
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-5',
          content: [{ type: 'text', text: 'ok' }],
          stop_reason: 'end_turn',
          usage: { input_tokens: 10, output_tokens: MAX_TOKENS },
        }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(
      sse('message_start', {
        message: {
          id: 'msg_a',
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-5',
          content: [],
          usage: { input_tokens: 10, output_tokens: 1 },
        },
      }),
    );
    held.push(res); // the rest of the answer comes when the test says so
  });
  // $2 covers one request of 100,000 output tokens at $15/MTok ($1.5 held), not two.
  w = await openGatewayWorld({
    balance: '2',
    env: { UPSTREAM_MESSAGES_URL: upstream.origin, GATEWAY_HOLD_MS: String(HOLD_MS) },
  });
});
afterAll(async () => {
  for (const res of held) res.destroy();
  await w?.close();
  await upstream?.close();
});

const request = (stream: boolean) => ({
  model: 'claude-sonnet-5',
  max_tokens: MAX_TOKENS,
  stream,
  messages: [{ role: 'user', content: 'write a long story' }],
});

/** Waits for a condition, at most ~10 s (then the assertions that follow tell what did not happen). */
async function until(probe: () => Promise<boolean> | boolean) {
  for (let i = 0; i < 400 && !(await probe()); i++) await new Promise((r) => setTimeout(r, 25));
}

describe('a hold while its request is still being answered', () => {
  it('stays past its lifetime, so the same money admits no second request, and the answer is charged in full', async () => {
    const server = w.h.app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const port = (server.address() as { port: number }).port;
    try {
      const res = await fetch(`http://127.0.0.1:${port}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': w.key, 'content-type': 'application/json' },
        body: JSON.stringify(request(true)),
      });
      expect(res.status).toBe(200);
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      let seen = '';
      while (!seen.includes('message_start')) seen += decoder.decode((await reader.read()).value, { stream: true });
      const frozen = (await walletOf(w.h, w.org)).frozenAmount;
      expect(frozen).toBeGreaterThan(1);

      // The minute sweep runs at a time past the hold's first expiry, while the stream is still open (after the
      // request had its chance to renew the hold).
      const hx = mirrorKeys(w.h.ctx.config.REDIS_PREFIX, w.org.id).hx;
      const expiry = async () => Number((await w.h.ctx.redis.zrange(hx, '0', '0', 'WITHSCORES'))[1]);
      const firstExpiry = await expiry();
      await until(async () => (await expiry()) > firstExpiry + 1);
      await sweepWallets(w.h.ctx, firstExpiry + 1);

      expect((await walletOf(w.h, w.org)).frozenAmount).toBe(frozen);
      const second = await w.h.http.post('/v1/messages').set('x-api-key', w.key).send(request(false));
      expect(second.status).toBe(402);

      // The answer ends: the whole of its cost is charged.
      const end = held.shift() as http.ServerResponse;
      end.write(
        sse('message_delta', { delta: { stop_reason: 'max_tokens' }, usage: { output_tokens: MAX_TOKENS } }) +
          sse('message_stop', {}),
      );
      end.end();
      for (;;) if ((await reader.read()).done) break;
      await until(async () => (await walletOf(w.h, w.org)).frozenAmount === 0);
      const charged = (await consumeRecords(w.h, w.org)).reduce((sum, r) => sum + r.amount, 0);
      expect(charged).toBeCloseTo(1.50003, 6); // 10 input tokens at $3/MTok, 100,000 output at $15/MTok
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(() => r(undefined)));
    }
  });
});
