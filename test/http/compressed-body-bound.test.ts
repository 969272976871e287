// A compressed request body may inflate to at most 100 times the bytes that carried it (above 64 KiB), so a caller
// without any account cannot make the API inflate and parse a body out of proportion to what it sent: before, 88
// bytes of brotli were read as 48 MiB of JSON on POST /v1/videos and parsed before authentication (security review
// round 7, #87).
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib, { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { createHarness, type Harness } from '../support/harness.js';

let h: Harness;
let server: http.Server;
let port: number;
beforeAll(async () => {
  h = await createHarness();
  server = h.app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await h.close();
});

type Answer = { status: number; body: Record<string, unknown> };

/** One request on its own connection, with no credential; resolves with the status and the parsed JSON answer. */
function post(path: string, body: Buffer, encoding: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-encoding': encoding, 'content-length': body.length },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString() || '{}') }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** `{"prompt":"aaaa…"}` of `bytes` bytes: JSON that compresses about a thousand times (gzip) or far more (brotli). */
const repetitiveJson = (bytes: number) =>
  Buffer.concat([Buffer.from('{"prompt":"'), Buffer.alloc(bytes - 13, 0x61), Buffer.from('"}')]);

describe('compressed bodies before authentication', () => {
  const bomb = repetitiveJson(48 * 1_048_576);
  const cases = [
    { encoding: 'br', body: brotliCompressSync(bomb) },
    { encoding: 'gzip', body: gzipSync(bomb, { level: 9 }) },
    { encoding: 'deflate', body: deflateSync(bomb, { level: 9 }) },
    // body-parser reads zstd where Node has it (Node 24 does).
    { encoding: 'zstd', body: zlib.zstdCompressSync(bomb) },
  ];

  it.each(cases)(
    '$encoding of 48 MiB on POST /v1/videos: 413 before the body is read, not a 401 after',
    async ({ encoding, body }) => {
      expect(body.length).toBeLessThan(64 * 1024);
      const answer = await post('/v1/videos', body, encoding);
      expect(answer.status).toBe(413);
      expect(answer.body).toEqual({
        error: { type: 'invalid_request_error', message: expect.stringMatching(/100 times/), code: 'Request.TooLarge' },
      });
    },
  );

  it('the same on the direct lane (POST /v1/messages, Anthropic shape) and on the catalog family', async () => {
    const body = brotliCompressSync(repetitiveJson(32 * 1_048_576));
    const messages = await post('/v1/messages', body, 'br');
    expect(messages.status).toBe(413);
    expect(messages.body).toMatchObject({ type: 'error', error: { message: expect.stringMatching(/100 times/) } });
    const catalog = await post('/api/v1/auth/login', brotliCompressSync(repetitiveJson(1_048_576)), 'br');
    expect(catalog.status).toBe(413);
    expect(catalog.body).toMatchObject({ title: 'Request.TooLarge' });
  });

  it('reads compressed bodies that inflate less than 100 times, and any that stay within 64 KiB', async () => {
    // 3 MiB of base64 text: gzip saves about a quarter of it.
    const image = `{"prompt":"${randomBytes(2_300_000).toString('base64')}"}`;
    const ordinary = await post('/v1/videos', gzipSync(image), 'gzip');
    expect(ordinary.status).toBe(401);
    const small = await post('/v1/videos', brotliCompressSync(repetitiveJson(64 * 1024)), 'br');
    expect(small.status).toBe(401);
  });
});
