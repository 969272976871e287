// Multipart video creates are read under limits (api/routes/gateway/videos-multipart.ts): every refusal is a 400 in
// the OpenAI error shape, before any task or charge.
import type { Test } from 'supertest';
import { aProjectWithKey, type GatewayWorld, openGatewayWorld, walletOf } from '../support/gateway.js';
import { bearer } from '../support/identity.js';
import { pngOf } from './png-bytes.js';

let w: GatewayWorld;
beforeAll(async () => {
  w = await openGatewayWorld();
}, 60_000);
afterAll(() => w.close());

const MiB = 1024 * 1024;

async function expectRefused(build: (req: Test) => Test, message: RegExp) {
  const p = await aProjectWithKey(w.h, '10');
  const res = await build(w.h.http.post('/v1/videos').set(bearer(p.key)).field('model', 'sora-2'));
  expect(res.status).toBe(400);
  expect(res.body.error).toMatchObject({ type: 'invalid_request_error', message: expect.stringMatching(message) });
  const list = await w.h.http.get('/v1/videos').set(bearer(p.key));
  expect(list.body.data).toEqual([]);
  expect(await walletOf(w.h, p.org)).toMatchObject({ balance: 10, frozenAmount: 0 });
}

describe('multipart POST /v1/videos limits', () => {
  it('refuses more than 30 fields', async () => {
    await expectRefused(
      (req) => Array.from({ length: 31 }, (_, i) => `extra${i}`).reduce((r, name) => r.field(name, 'x'), req),
      /more than 30 fields/,
    );
  });

  it('refuses a second file and a file in another field', async () => {
    const image = pngOf(640, 480);
    await expectRefused(
      (req) =>
        req
          .attach('input_reference', image, { filename: 'a.png', contentType: 'image/png' })
          .attach('input_reference', image, { filename: 'b.png', contentType: 'image/png' }),
      /Only one input_reference file/,
    );
    await expectRefused(
      (req) => req.attach('thumbnail', image, { filename: 'a.png', contentType: 'image/png' }),
      /Only the input_reference field may carry a file/,
    );
  });

  it('refuses a file over 30 MB, and fields that together pass 48 MiB (the 38 MB fields of the issue)', async () => {
    await expectRefused(
      (req) =>
        req.attach('input_reference', Buffer.alloc(31 * MiB, 1), { filename: 'big.png', contentType: 'image/png' }),
      /larger than 30 MB/,
    );
    await expectRefused(
      (req) => req.field('prompt', 'x'.repeat(38 * MiB)).field('metadata', 'y'.repeat(38 * MiB)),
      /larger than 48 MiB/,
    );
  }, 60_000);
});
