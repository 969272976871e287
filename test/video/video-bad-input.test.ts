import { jest } from '@jest/globals';
import { eq } from 'drizzle-orm';
import { videoTasks } from '../../shared/db/schema/index.js';
import { aProjectWithKey, consumeRecords, walletOf } from '../support/gateway.js';
import { finalVideo, openVideoWorld, settledWallet, type VideoWorld } from '../support/video-world.js';
import { dataUrlOf, gifOf, pngOf } from './png-bytes.js';

// Real worker processes and a simulated upstream: slower than unit tests on a loaded 2-core machine.
jest.setTimeout(90_000);

let w: VideoWorld;
beforeAll(async () => {
  w = await openVideoWorld();
});
afterAll(() => w.close());

const image = (url: string) => ({ type: 'image_url', role: 'reference_image', image_url: { url } });
const base = { model: 'seedance-1-0-pro', prompt: 'A field of tulips' };
const png = dataUrlOf(pngOf(640, 480));

const badRequests: [string, Record<string, unknown>][] = [
  ['ten reference images', { ...base, content: Array.from({ length: 10 }, () => image(png)) }],
  ['a ratio that is not W:H', { ...base, ratio: '16x9' }],
  ['a zero duration', { ...base, duration: 0 }],
  ['a negative duration', { ...base, duration: -5 }],
  ['a non-positive seconds', { ...base, seconds: '0' }],
  ['seconds over 600 as a string', { ...base, seconds: '999' }],
  ['an unknown model', { ...base, model: 'no-such-video-model' }],
  ['a model/resolution mismatch', { ...base, resolution: '4k' }],
  // A security review (round 7): an offered resolution beside a size the model does not offer passed the check, and
  // an OpenAI-style provider, which reads only `size`, made the larger video at the offered one's price.
  ['a size that disagrees with the resolution', { ...base, model: 'sora-2', resolution: '720p', size: '1920x1080' }],
  ['an image URL that is not http(s) or data', { ...base, content: [image('ftp://example.com/a.png')] }],
  ['a data URL that is not an image', { ...base, content: [image('data:text/plain;base64,aGVsbG8=')] }],
  [
    'a 31 MB data URL',
    { ...base, content: [image(`data:image/png;base64,${Buffer.alloc(31 * 1024 * 1024).toString('base64')}`)] },
  ],
  // The row keeps URLs and the prompt for good: neither may be a way to store data (docs/video.md).
  ['an image URL over 8,192 characters', { ...base, content: [image(`https://example.com/${'a'.repeat(8_200)}`)] }],
  [
    'a prompt and text items over 20,000 characters together',
    {
      ...base,
      content: [
        { type: 'text', text: 'b'.repeat(15_000) },
        { type: 'text', text: 'c'.repeat(15_000) },
      ],
    },
  ],
];

describe('video create: bad input', () => {
  it.each(badRequests)('answers 400 {error:{message,type}} for %s, before any task or charge', async (_name, body) => {
    const p = await aProjectWithKey(w.h, '10');
    const res = await w.h.http.post('/v1/videos').set('authorization', `Bearer ${p.key}`).send(body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ message: expect.any(String), type: 'invalid_request_error' });
    expect(await w.h.ctx.db.select().from(videoTasks).where(eq(videoTasks.projectId, p.projectId))).toEqual([]);
    expect(await walletOf(w.h, p.org)).toMatchObject({ balance: 10, frozenAmount: 0 });
  });

  it('answers 400 for a multipart reference file that is not an image', async () => {
    const p = await aProjectWithKey(w.h, '10');
    const res = await w.h.http
      .post('/v1/videos')
      .set('authorization', `Bearer ${p.key}`)
      .field('model', 'sora-2')
      .field('prompt', 'x')
      .attach('input_reference', Buffer.from('hello'), { filename: 'a.txt', contentType: 'text/plain' });
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('invalid_request_error');
  });
});

describe('video tasks: images that fail only after download', () => {
  beforeAll(() => {
    w.images.serve('/small.png', pngOf(200, 200));
    w.images.serve('/wide.png', pngOf(1500, 400));
    w.images.serve('/text.png', Buffer.from('this is not an image at all'), 'image/png');
    w.images.serve('/ok.png', pngOf(640, 480));
    w.images.serve('/huge.png', pngOf(6500, 3000));
    w.images.serve('/anim.gif', gifOf(640, 480), 'image/gif');
  });

  const cases: [string, string, RegExp][] = [
    ['too small', '/small.png', /too small \(200x200/],
    ['an aspect ratio outside 0.4-2.5', '/wide.png', /aspect ratio 3\.75/],
    ['not an image', '/text.png', /not an image/],
    ['unreachable', '/missing.png', /unreachable \(HTTP 404\)/],
    ['larger than 6000 px on a side', '/huge.png', /too large \(6500x3000; each side must be at most 6000 px\)/],
    ['a GIF', '/anim.gif', /format \(gif\) is not JPEG, PNG or WebP/],
  ];

  it.each(cases)('fails the task with the reason when the image is %s, and refunds it', async (_name, path, reason) => {
    const p = await aProjectWithKey(w.h, '10');
    const created = await w.h.http
      .post('/v1/videos')
      .set('authorization', `Bearer ${p.key}`)
      .send({ ...base, content: [image(w.images.url('/ok.png')), image(w.images.url(path))] });
    expect(created.status).toBe(200);
    const done = await finalVideo(w, created.body.id, p.key);
    expect(done.status).toBe('failed');
    expect(done.error).toEqual({ message: expect.stringMatching(reason), type: 'invalid_request_error' });
    expect(done.error.message).toMatch(/^Reference image 2 was refused: /);
    expect(await settledWallet(w, p.org)).toMatchObject({ balance: 10, frozenAmount: 0 });
    expect(await consumeRecords(w.h, p.org)).toEqual([]);
  });

  it('decodes a data URL in the worker and fails the task when the image is too large in pixels', async () => {
    const p = await aProjectWithKey(w.h, '10');
    const created = await w.h.http
      .post('/v1/videos')
      .set('authorization', `Bearer ${p.key}`)
      .send({ ...base, content: [image(dataUrlOf(pngOf(3000, 6200)))] });
    expect(created.status).toBe(200);
    const done = await finalVideo(w, created.body.id, p.key);
    expect(done.status).toBe('failed');
    expect(done.error.message).toBe(
      'Reference image 1 was refused: it is too large (3000x6200; each side must be at most 6000 px).',
    );
    expect(await settledWallet(w, p.org)).toMatchObject({ balance: 10, frozenAmount: 0 });
  });
});
