// The large gateway bodies one API process reads at once share a budget of bytes (security review #94). Before: a paid
// key could send sixty 32 MiB bodies at once and the API held 5 GB while reading, parsing and relaying them. Now a
// large body that does not fit beside those in flight is answered 503 before a byte of it is read, and fits again
// once they are done.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { metricsRegistry } from '../../shared/metrics/metrics.js';
import { answerMessage, aProjectWithKey } from '../support/gateway.js';
import { createHarness, type Harness } from '../support/harness.js';
import { listeningServer } from '../support/loopback-ports.js';
import { type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';

const BUDGET = 300_000;
let upstream: LoopbackServer;
let h: Harness;
let server: http.Server;
let port: number;
let key: string;
beforeAll(async () => {
  upstream = await startLoopbackServer((_req, res) => answerMessage(res, 10));
  h = await createHarness({
    UPSTREAM_MESSAGES_URL: upstream.origin,
    UPSTREAM_MESSAGES_KEY: 'k',
    LARGE_BODY_BUDGET_BYTES: String(BUDGET),
  });
  ({ key } = await aProjectWithKey(h, '5'));
  ({ server, port } = await listeningServer());
  server.on('request', h.app);
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await h?.close();
  await upstream?.close();
});

const messagesBody = (bytes: number) => {
  const head = '{"model":"claude-haiku-4-5","max_tokens":8,"messages":[{"role":"user","content":"';
  const tail = '"}]}';
  return head + 'a'.repeat(bytes - head.length - tail.length) + tail;
};

async function bytesInFlight(): Promise<number> {
  const metric = await metricsRegistry.getSingleMetric('ockhub_large_body_bytes_in_flight')?.get();
  return Number(metric?.values[0]?.value ?? 0);
}

/** Waits (for an event, however slow the machine) until the API's claimed bytes are `bytes`. */
async function untilInFlight(bytes: number): Promise<void> {
  while ((await bytesInFlight()) !== bytes) await new Promise((r) => setImmediate(r));
}

type Sent = { answer: Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>; abort(): void };

/** Sends the headers and the first `sent` bytes of `body`, and the rest only when `finish` is true. */
function send(body: Buffer, headers: Record<string, string>, sent: number, finish: boolean): Sent {
  const req = http.request({
    host: '127.0.0.1',
    port,
    path: '/v1/messages',
    method: 'POST',
    agent: false,
    headers: {
      'content-type': 'application/json',
      'x-api-key': key,
      'anthropic-version': '2023-06-01',
      'content-length': String(body.length),
      ...headers,
    },
  });
  const answer = new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() });
        req.destroy();
      });
    });
    req.on('error', (e) => (req.destroyed ? undefined : reject(e)));
  });
  req.write(body.subarray(0, sent));
  if (finish) req.end(body.subarray(sent));
  return { answer, abort: () => req.destroy() };
}

describe('the large bodies in flight share one budget per API process', () => {
  it('a large body that does not fit beside those in flight: 503 overloaded before it is read; it fits once they end', async () => {
    const held = send(Buffer.from(messagesBody(200_000)), {}, 1_000, false);
    await untilInFlight(200_000);

    // 150,000 more would pass the 300,000 budget: refused at once, with only a part of it ever sent
    const before = upstream.requests.length;
    const refused = await send(Buffer.from(messagesBody(150_000)), {}, 1_000, false).answer;
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(JSON.parse(refused.body)).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });
    expect(upstream.requests.length).toBe(before);

    // a small body claims nothing and is served meanwhile; so is a large one that fits
    const small = await h.http
      .post('/v1/messages')
      .set('x-api-key', key)
      .set('content-type', 'application/json')
      .send(messagesBody(10_000));
    expect(small.status).toBe(200);
    const fits = await send(Buffer.from(messagesBody(90_000)), {}, 0, true).answer;
    expect(fits.status).toBe(200);
    await untilInFlight(200_000);

    held.abort();
    await untilInFlight(0);
    const after = await send(Buffer.from(messagesBody(150_000)), {}, 0, true).answer;
    expect(after.status).toBe(200);
    await untilInFlight(0);
  });

  it('a compressed large body claims the route’s whole limit (it may inflate to it); a lone body always fits', async () => {
    // random letters compress little, so the gzip body is itself past 64 KiB: a large body
    const text = randomBytes(150_000).toString('base64');
    const body = { model: 'claude-haiku-4-5', max_tokens: 8, messages: [{ role: 'user', content: text }] };
    const compressed = gzipSync(Buffer.from(JSON.stringify(body)));
    expect(compressed.length).toBeGreaterThan(64 * 1024);
    const held = send(compressed, { 'content-encoding': 'gzip' }, 1_000, false);
    // 32 MiB, more than the whole budget: alone, it is let in
    await untilInFlight(h.ctx.config.GATEWAY_BODY_LIMIT_BYTES);

    const refused = await send(Buffer.from(messagesBody(70_000)), {}, 1_000, false).answer;
    expect(refused.status).toBe(503);

    held.abort();
    await untilInFlight(0);
    const fits = await send(compressed, { 'content-encoding': 'gzip' }, 0, true).answer;
    expect(fits.status).toBe(200);
    await untilInFlight(0);
  });
});
