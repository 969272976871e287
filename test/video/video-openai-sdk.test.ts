import { readFile } from 'node:fs/promises';
import { jest } from '@jest/globals';
import OpenAI, { toFile } from 'openai';
import { aProjectWithKey, consumeRecords } from '../support/gateway.js';
import { waitUntil } from '../support/harness.js';
import { openVideoWorld, settledWallet, type VideoWorld } from '../support/video-world.js';
import { pngOf } from './png-bytes.js';

// Real worker processes and a simulated upstream: slower than unit tests on a loaded 2-core machine.
jest.setTimeout(90_000);

let w: VideoWorld;
beforeAll(async () => {
  w = await openVideoWorld({ env: { UPSTREAM_VIDEO_KIND: 'openai' } });
});
afterAll(() => w.close());

const sampleMp4 = readFile(new URL('../../scripts/simulated-provider/assets/sample.mp4', import.meta.url));

describe('video through the real openai SDK v6 (OpenAI-style upstream)', () => {
  it('creates with a reference file (multipart), retrieves until completed and downloads the rehosted video', async () => {
    const p = await aProjectWithKey(w.h, '10');
    const client = new OpenAI({ apiKey: p.key, baseURL: `${w.baseUrl}/v1`, maxRetries: 0 });
    const created = await client.videos.create({
      model: 'sora-2',
      prompt: 'A paper boat on a river',
      seconds: '4',
      size: '1280x720',
      input_reference: await toFile(pngOf(640, 360), 'reference.png', { type: 'image/png' }),
    });
    expect(created).toMatchObject({ object: 'video', model: 'sora-2', status: 'queued', progress: 0, seconds: 4 });
    expect(created.id).toMatch(/^video_[0-9A-Z]{26}$/);

    const done = await waitUntil(async () => {
      const video = await client.videos.retrieve(created.id);
      return video.status === 'completed' || video.status === 'failed' ? video : undefined;
    }, 20_000);
    expect(done).toMatchObject({ id: created.id, status: 'completed', progress: 100 });
    await settledWallet(w, p.org);

    // Only this task's creates: a worker process of an earlier test file that has not yet exited can still post its
    // own tasks to a simulator that reuses its port.
    const upstream = w.sim.state.requests.filter(
      (r) => r.method === 'POST' && r.path === '/v1/videos' && JSON.stringify(r.body).includes('A paper boat'),
    );
    expect(upstream).toHaveLength(1);
    expect(upstream[0]?.body).toMatchObject({
      model: 'sora-2',
      seconds: '4',
      size: '1280x720',
      input_reference: { image_url: expect.stringMatching(/^data:image\/png;base64,/) },
    });

    const response = await client.videos.downloadContent(created.id);
    expect(response.url).toBe(`${w.baseUrl}/files/videos/${created.id}.mp4`);
    expect(Buffer.from(await response.arrayBuffer()).equals(await sampleMp4)).toBe(true);
    expect((await consumeRecords(w.h, p.org)).map((r) => r.amount)).toEqual([0.4]);
  });

  it('accepts the flat multipart form with input_reference[image_url]; a model/resolution mismatch is 400', async () => {
    const p = await aProjectWithKey(w.h, '10');
    w.images.serve('/flat.png', pngOf(720, 1280));
    const created = await w.h.http
      .post('/v1/videos')
      .set('authorization', `Bearer ${p.key}`)
      .field('model', 'sora-2')
      .field('prompt', 'A tall waterfall')
      .field('seconds', '2')
      .field('size', '720x1280')
      .field('input_reference[image_url]', w.images.url('/flat.png'));
    expect(created.status).toBe(200);
    const mismatch = await w.h.http
      .post('/v1/videos')
      .set('authorization', `Bearer ${p.key}`)
      .send({ model: 'sora-2', prompt: 'x', size: '1920x1080' });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error).toMatchObject({
      type: 'invalid_request_error',
      message: expect.stringMatching(/1080p/),
    });
    const done = await waitUntil(async () => {
      const res = await w.h.http.get(`/v1/videos/${created.body.id}`).set('authorization', `Bearer ${p.key}`);
      return res.body.status === 'completed' ? res.body : undefined;
    }, 20_000);
    expect(done.usage).toEqual({ seconds: 2, video_count: 1 });
    expect((await settledWallet(w, p.org)).balance).toBe(9.8);
  });
});
