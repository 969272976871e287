// What a gateway body may cost the API before its route runs (security review #89). Before: bodies were read and
// parsed before authentication up to 32 MiB (48 MiB on /v1/videos), and JSON.parse of 32 MiB of `[{},{},…]` held the
// main loop for 3 to 5 s, so eight requests sent with no account stalled the API for half a minute. Now a body past
// 64 KiB is read only for a known caller, and every body (and every chat tool call's arguments, in all) is held to
// 100,000 objects and arrays, 1,000,000 values and 100,000 object keys before anything parses it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { organizationWallets } from '../../shared/db/schema/index.js';
import { thinkingBlockOf } from '../../shared/gateway/responses/reasoning-content.js';
import { mirrorKeys } from '../../shared/wallet/mirror-steps.js';
import { answerMessage, aProjectWithKey } from '../support/gateway.js';
import { createHarness, type Harness } from '../support/harness.js';
import { type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';

let upstream: LoopbackServer;
let h: Harness;
let server: http.Server;
let port: number;
let key: string;
beforeAll(async () => {
  upstream = await startLoopbackServer((_req, res) => answerMessage(res, 10));
  h = await createHarness({ UPSTREAM_MESSAGES_URL: upstream.origin, UPSTREAM_MESSAGES_KEY: 'k' });
  ({ key } = await aProjectWithKey(h, '1'));
  server = h.app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await h?.close();
  await upstream?.close();
});

type Answer = { status: number; body: Record<string, unknown> };

/** A chat completion whose two assistant turns each call a tool with `args` as its arguments. */
function chatWithTwoToolCalls(args: string) {
  const call = (id: string) => ({ id, type: 'function', function: { name: 'f', arguments: args } });
  return h.http
    .post('/v1/chat/completions')
    .set('authorization', `Bearer ${key}`)
    .send({
      model: 'claude-haiku-4-5',
      max_tokens: 8,
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', tool_calls: [call('a')] },
        { role: 'tool', tool_call_id: 'a', content: 'ok' },
        { role: 'assistant', tool_calls: [call('b')] },
        { role: 'tool', tool_call_id: 'b', content: 'ok' },
      ],
    });
}

/**
 * Sends the headers and only the first `sent` bytes of a body declared as `declared` bytes (or chunked), and never
 * the rest: it resolves only if the API answers without waiting for the whole body.
 */
function answerBeforeBody(path: string, headers: Record<string, string>, declared: number | 'chunked', sent: number) {
  return new Promise<Answer>((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/json',
          ...(declared === 'chunked' ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(declared) }),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString() || '{}') });
          req.destroy();
        });
      },
    );
    req.on('error', (e) => (req.destroyed ? undefined : reject(e)));
    req.write(Buffer.concat([Buffer.from('[{}'), Buffer.from(',{}'.repeat(Math.floor((sent - 3) / 3)))]));
  });
}

describe('a large gateway body from an unknown caller', () => {
  it.each<{ path: string; headers: Record<string, string> }>([
    { path: '/v1/messages', headers: {} },
    { path: '/v1/messages', headers: { 'x-api-key': 'ock_not-a-key' } },
    { path: '/v1/chat/completions', headers: { authorization: 'Bearer ock_not-a-key' } },
    { path: '/v1/videos', headers: {} },
  ])('$path $headers: 401 before the body is read', async ({ path, headers }) => {
    const answer = await answerBeforeBody(path, headers, 32 * 1_048_576, 256 * 1024);
    expect(answer.status).toBe(401);
  });

  it('a chunked body (no declared length) counts as large', async () => {
    const answer = await answerBeforeBody('/v1/messages', {}, 'chunked', 16 * 1024);
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
  });

  it('a small body keeps the order of every route: malformed JSON is a 400 before the missing key', async () => {
    const res = await h.http.post('/v1/messages').set('content-type', 'application/json').send('{"model":');
    expect(res.status).toBe(400);
  });

  it('a known caller’s large body is read and parsed', async () => {
    const res = await h.http
      .post('/v1/messages')
      .set('x-api-key', key)
      .set('content-type', 'application/json')
      .send(`{"model":"claude-haiku-4-5","pad":"${'a'.repeat(200_000)}",`);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/JSON/);
  });
});

describe('a large gateway body from a known caller whose wallet cannot pay', () => {
  it('an empty wallet: 402 before the body is read, on every gateway route that takes one', async () => {
    const { key: emptyKey } = await aProjectWithKey(h);
    for (const [path, headers] of [
      ['/v1/messages', { 'x-api-key': emptyKey }],
      ['/v1/chat/completions', { authorization: `Bearer ${emptyKey}` }],
      ['/v1/videos', { authorization: `Bearer ${emptyKey}` }],
    ] as const) {
      const answer = await answerBeforeBody(path, headers, 32 * 1_048_576, 256 * 1024);
      expect([path, answer.status]).toEqual([path, 402]);
    }
    const messages = await answerBeforeBody('/v1/messages', { 'x-api-key': emptyKey }, 'chunked', 16 * 1024);
    expect(messages.body).toMatchObject({ type: 'error', error: { type: 'billing_error' } });
    expect(JSON.stringify(messages.body)).toMatch(/balance is at or below zero/);
  });

  it('an inactive wallet: 402 Wallet.Inactive before the body is read', async () => {
    const { org, key: frozenKey } = await aProjectWithKey(h, '1');
    await h.ctx.db
      .update(organizationWallets)
      .set({ isActive: false })
      .where(eq(organizationWallets.organizationId, org.id));
    await h.ctx.redis.del(mirrorKeys(h.ctx.config.REDIS_PREFIX, org.id).w);
    const answer = await answerBeforeBody('/v1/messages', { 'x-api-key': frozenKey }, 32 * 1_048_576, 256 * 1024);
    expect(answer.status).toBe(402);
    expect(JSON.stringify(answer.body)).toMatch(/not active/);
  });

  it('money still on its way counts: a wallet spent down to zero in the mirror is refused before the ledger is written', async () => {
    const { org, key: spentKey } = await aProjectWithKey(h, '1');
    // what the mirror holds once a request's charge of the whole balance is settled and not yet written
    await h.ctx.redis.hset(mirrorKeys(h.ctx.config.REDIS_PREFIX, org.id).w, 'pend', '1000000');
    const answer = await answerBeforeBody('/v1/messages', { 'x-api-key': spentKey }, 32 * 1_048_576, 256 * 1024);
    expect(answer.status).toBe(402);
  });
});

describe('objects, arrays and values one body may hold', () => {
  const messages = (extra: string) =>
    `{"model":"claude-haiku-4-5","max_tokens":8,"messages":[{"role":"user","content":"hi"}],"metadata":{"x":${extra}}}`;

  it('100,001 objects and arrays: 400 in the family shape, the upstream not called', async () => {
    const before = upstream.requests.length;
    const res = await h.http
      .post('/v1/messages')
      .set('x-api-key', key)
      .set('content-type', 'application/json')
      .send(messages(`[${Array(99_996).fill('{}').join(',')}]`));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(res.body.error.message).toBe('The JSON body holds more than 100,000 objects and arrays.');
    expect(upstream.requests.length).toBe(before);
  });

  it('more than 1,000,000 values: 400 in the gateway family shape', async () => {
    const res = await h.http
      .post('/v1/chat/completions')
      .set('authorization', `Bearer ${key}`)
      .set('content-type', 'application/json')
      .send(messages(`[${Array(1_000_000).fill('0').join(',')}]`));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'Request.TooManyValues', message: /more than 1,000,000 values/ });
  });

  it('the same on the catalog family, for a caller with no account', async () => {
    const res = await h.http
      .post('/api/v1/auth/login')
      .set('content-type', 'application/json')
      .send(`[${Array(100_001).fill('{}').join(',')}]`);
    expect(res.status).toBe(400);
    expect(res.body.title).toBe('Request.TooManyValues');
  });

  it('chat tool calls: their arguments (JSON inside strings) are held to the same limits in all', async () => {
    const before = upstream.requests.length;
    const res = await chatWithTwoToolCalls(`[${Array(60_000).fill('{}').join(',')}]`);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(
      /^messages\[3\]\.tool_calls\[0\]\.function\.arguments: .*past 100,000 objects and arrays in all/,
    );
    expect(upstream.requests.length).toBe(before);
  });
});

describe('object keys one body may hold (security review #126)', () => {
  /** `"p0":0,"p1":0,…`: n distinct keys, each a hidden class or a dictionary entry to JSON.parse. */
  const keys = (n: number) => Array.from({ length: n }, (_, i) => `"p${i}":0`).join(',');
  /** A chat completion of 6 keys of its own (model, max_tokens, messages, role, content, metadata) and n in metadata. */
  const chat = (n: number) =>
    `{"model":"claude-haiku-4-5","max_tokens":8,"messages":[{"role":"user","content":"hi"}],"metadata":{${keys(n)}}}`;
  const send = (path: string, body: string) =>
    h.http.post(path).set('authorization', `Bearer ${key}`).set('content-type', 'application/json').send(body);

  it('100,001 keys with a paid key: 400 Request.TooManyValues naming the limit, the upstream not called', async () => {
    const before = upstream.requests.length;
    const res = await send('/v1/chat/completions', chat(99_995));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'Request.TooManyValues',
      message: 'The JSON body holds more than 100,000 object keys in all.',
    });
    const messages = await send(
      '/v1/messages',
      `{"model":"claude-haiku-4-5","max_tokens":8,"messages":[],"metadata":{${keys(100_000)}}}`,
    );
    expect(messages.status).toBe(400);
    expect(messages.body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(messages.body.error.message).toMatch(/more than 100,000 object keys/);
    expect(upstream.requests.length).toBe(before);
  });

  it('100,000 keys pass: the route answers', async () => {
    const res = await send('/v1/chat/completions', chat(99_994));
    expect(res.status).toBe(200);
  });

  it('the same on the catalog family, for a caller with no account', async () => {
    const login = (n: number) =>
      h.http
        .post('/api/v1/auth/login')
        .set('content-type', 'application/json')
        .send(`{${Array(n).fill('"a":0').join(',')}}`);
    const refused = await login(100_001);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      title: 'Request.TooManyValues',
      detail: 'The JSON body holds more than 100,000 object keys in all.',
    });
    const passed = await login(100_000);
    expect(passed.status).toBeLessThan(500);
    expect(passed.body.title).not.toBe('Request.TooManyValues');
  });

  it('chat tool calls: the keys of their arguments count in all', async () => {
    const res = await chatWithTwoToolCalls(`{${keys(60_000)}}`);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(
      /^messages\[3\]\.tool_calls\[0\]\.function\.arguments: .*past 100,000 object keys in all/,
    );
  });
});

describe('the length of an object key (security review #128)', () => {
  /** n keys of `bytes` bytes sharing all but their last 8: past 16,383 characters V8 hashes a key by its length. */
  const longKeys = (n: number, bytes: number) =>
    Array.from({ length: n }, (_, i) => `"${'k'.repeat(bytes - 8)}${String(i).padStart(8, '0')}":0`).join(',');
  const messages = (metadata: string) =>
    h.http
      .post('/v1/messages')
      .set('x-api-key', key)
      .set('content-type', 'application/json')
      .send(
        `{"model":"claude-haiku-4-5","max_tokens":8,"messages":[{"role":"user","content":"hi"}],"metadata":{${metadata}}}`,
      );

  it('2,000 keys of 16,390 bytes (32 MB) with a paid key: 400 before the parse, the upstream not called', async () => {
    const before = upstream.requests.length;
    const res = await messages(longKeys(1_980, 16_390));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'The JSON body holds an object key longer than 4,096 bytes.' },
    });
    expect(upstream.requests.length).toBe(before);
  });

  it('keys of 4,096 bytes pass, and so do long string values', async () => {
    const res = await messages(`${longKeys(100, 4_096)},"v":"${'x'.repeat(100_000)}"`);
    expect(res.status).toBe(200);
  });

  it('chat tool calls: a key of their arguments too', async () => {
    const res = await chatWithTwoToolCalls(`{${longKeys(1, 4_097)}}`);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(
      'messages[1].tool_calls[0].function.arguments: must not hold an object key longer than 4,096 bytes',
    );
  });

  it('the same on the catalog family, for a caller with no account', async () => {
    const res = await h.http
      .post('/api/v1/auth/login')
      .set('content-type', 'application/json')
      .send(`{${longKeys(1, 4_097)}}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      title: 'Request.TooManyValues',
      detail: 'The JSON body holds an object key longer than 4,096 bytes.',
    });
  });
});

describe('a Responses reasoning item whose encrypted_content claims to be ours (security review #133)', () => {
  // Before: the content was split on every `:`, so one string of 32 million colons (inside every count above) made an
  // array of 33 million strings before the 400: 2.5 s of the main loop per request, never charged.
  it('32 MB of colons: 400 Responses.Invalid, the upstream not called', async () => {
    const content = `ockhub.thinking.v1:${':'.repeat(32 * 1_048_576 - 400)}`;
    const before = upstream.requests.length;
    const started = process.hrtime.bigint();
    const pending = h.http
      .post('/v1/responses')
      .set('authorization', `Bearer ${key}`)
      .send({ model: 'claude-haiku-4-5', input: [{ type: 'reasoning', summary: [], encrypted_content: content }] });
    // /health beside it, for the record only (no assertion on time): its slowest answer while the request ran.
    let done = false;
    let slowest = 0;
    const health = (async () => {
      while (!done) {
        const t = process.hrtime.bigint();
        await h.http.get('/health');
        slowest = Math.max(slowest, Number(process.hrtime.bigint() - t) / 1e6);
      }
    })();
    const res = await pending;
    done = true;
    await health;
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    console.log(`32 MB of colons: ${res.status} in ${ms.toFixed(0)} ms, /health at most ${slowest.toFixed(0)} ms`);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^input\.0\.encrypted_content: is not reasoning content/);
    expect(upstream.requests.length).toBe(before);
  });

  it('the content is read as at most three fields, whatever it holds', () => {
    // The old reader split the whole string (100,001 parts here).
    const split = String.prototype.split;
    let most = 0;
    String.prototype.split = function (this: string, ...args: Parameters<typeof split>) {
      const parts = split.apply(this, args) as string[];
      most = Math.max(most, parts.length);
      return parts;
    } as typeof split;
    const refuse = (param: string, message: string) => new Error(`${param}: ${message}`);
    try {
      for (const prefix of ['ockhub.thinking.v1:', 'ockhub.redacted_thinking.v1:']) {
        expect(() => thinkingBlockOf(`${prefix}${':'.repeat(100_000)}`, 'p', refuse)).toThrow(/not reasoning content/);
      }
    } finally {
      String.prototype.split = split;
    }
    expect(most).toBeLessThanOrEqual(3);
  });
});
