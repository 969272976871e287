import { readFile } from 'node:fs/promises';
import { jest } from '@jest/globals';
import { eq } from 'drizzle-orm';
import { videoTasks } from '../../shared/db/schema/index.js';
import { reconcileWallets } from '../../shared/wallet/reconciliation.js';
import { aProjectWithKey, consumeRecords, requestLogsOf, walletOf } from '../support/gateway.js';
import { waitUntil } from '../support/harness.js';
import { finalVideo, openVideoWorld, settledWallet, type VideoWorld } from '../support/video-world.js';
import { pngOf } from './png-bytes.js';

// Real worker processes and a simulated upstream: slower than unit tests on a loaded 2-core machine.
jest.setTimeout(90_000);

let w: VideoWorld;
beforeAll(async () => {
  w = await openVideoWorld();
  w.images.serve('/a.png', pngOf(640, 480));
  w.images.serve('/b.png', pngOf(480, 640));
  w.images.serve('/c.png', pngOf(800, 800));
});
afterAll(() => w.close());

const TASKS = '/api/v3/contents/generations/tasks';
const sampleMp4 = readFile(new URL('../../scripts/simulated-provider/assets/sample.mp4', import.meta.url));
const auth = (key: string) => ({ authorization: `Bearer ${key}` });
const upstreamCreates = (text: string) =>
  w.sim.state.requests.filter((r) => r.method === 'POST' && r.path === TASKS && JSON.stringify(r.body).includes(text));

describe('video tasks (Seedance-style upstream)', () => {
  it('completes the multimodal form with 3 reference images, rehosts the video and charges the seconds once', async () => {
    const p = await aProjectWithKey(w.h, '10');
    const created = await w.h.http
      .post('/v1/videos')
      .set(auth(p.key))
      .send({
        model: 'seedance-1-0-pro',
        duration: 5,
        ratio: '16:9',
        resolution: '720p',
        content: [
          { type: 'text', text: 'A red kite over three hills' },
          ...['/a.png', '/b.png', '/c.png'].map((path) => ({
            type: 'image_url',
            role: 'reference_image',
            image_url: { url: w.images.url(path) },
          })),
        ],
      });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^video_[0-9A-Z]{26}$/),
      task_id: created.body.id,
      object: 'video',
      model: 'seedance-1-0-pro',
      status: 'queued',
      progress: 0,
      created_at: expect.any(Number),
      seconds: 5,
    });
    expect((await walletOf(w.h, p.org)).frozenAmount).toBe(0.25);

    const done = await finalVideo(w, created.body.id, p.key);
    const key = `videos/${created.body.id}.mp4`;
    expect(done).toEqual({
      id: created.body.id,
      object: 'video',
      model: 'seedance-1-0-pro',
      status: 'completed',
      progress: 100,
      seconds: 5,
      usage: { seconds: 5, video_count: 1 },
      video_url: `${w.baseUrl}/files/${key}`,
      metadata: {
        url: `${w.baseUrl}/files/${key}`,
        object_store_url: `${w.baseUrl}/files/${key}`,
        object_store_key: key,
      },
    });
    const upstream = upstreamCreates('A red kite');
    expect(upstream).toHaveLength(1);
    const body = (upstream[0]?.body ?? { content: [] }) as { content: { type: string }[] };
    const images = body.content.filter((c) => c.type === 'image_url');
    expect(images).toHaveLength(3);

    const video = await fetch(done.video_url);
    expect(video.headers.get('content-type')).toBe('video/mp4');
    expect(Buffer.from(await video.arrayBuffer()).equals(await sampleMp4)).toBe(true);
    const content = await w.h.http.get(`/v1/videos/${created.body.id}/content`).set(auth(p.key));
    expect(content.status).toBe(302);
    expect(content.headers.location).toBe(done.video_url);
    expect(JSON.stringify(done)).not.toMatch(/cgt-|simulat/);

    expect(await settledWallet(w, p.org)).toMatchObject({ balance: 9.75, frozenAmount: 0 });
    expect((await consumeRecords(w.h, p.org)).map((r) => r.amount)).toEqual([0.25]);
  });

  it('completes a [fail-once] task after exactly one retry with a new upstream task', async () => {
    const p = await aProjectWithKey(w.h, '10');
    const prompt = 'Waves on a pier [fail-once] retry-case';
    const created = await w.h.http.post('/v1/videos').set(auth(p.key)).send({ model: 'seedance-1-0-pro', prompt });
    expect(created.status).toBe(200);
    const done = await finalVideo(w, created.body.id, p.key);
    expect(done.status).toBe('completed');
    await settledWallet(w, p.org);
    expect(upstreamCreates('retry-case')).toHaveLength(2);
    expect((await consumeRecords(w.h, p.org)).map((r) => r.amount)).toEqual([0.25]);
  });

  it('fails a [fail] task after exactly two upstream tasks and releases its reservation once', async () => {
    const p = await aProjectWithKey(w.h, '10');
    const created = await w.h.http
      .post('/v1/videos')
      .set(auth(p.key))
      .send({ model: 'seedance-1-0-pro', prompt: 'Storm clouds [fail] always-case', duration: 4 });
    const done = await finalVideo(w, created.body.id, p.key);
    expect(done).toEqual({
      id: created.body.id,
      object: 'video',
      model: 'seedance-1-0-pro',
      status: 'failed',
      progress: expect.any(Number),
      seconds: 4,
      error: { message: expect.stringMatching(/^Video generation failed: /), type: 'server_error' },
    });
    await new Promise((r) => setTimeout(r, 800));
    expect(upstreamCreates('always-case')).toHaveLength(2);
    expect(await settledWallet(w, p.org)).toMatchObject({ balance: 10, frozenAmount: 0 });
    expect(await consumeRecords(w.h, p.org)).toEqual([]);
    const logs = await requestLogsOf(w.h, p.projectId);
    expect(logs.map((l) => [l.operation, l.status, l.costMicros])).toEqual([['video', 'failed', 0n]]);
    expect((await reconcileWallets(w.h.ctx.db)).problems).toEqual([]);
  });

  it('cancels an in-progress task, releases the reservation and forwards the cancellation upstream', async () => {
    const p = await aProjectWithKey(w.h, '10');
    const created = await w.h.http
      .post('/v1/videos')
      .set(auth(p.key))
      .send({ model: 'seedance-1-0-pro', prompt: 'A slow sunrise cancel-case' });
    const upstreamId = await waitUntil(async () => {
      const [row] = await w.h.ctx.db.select().from(videoTasks).where(eq(videoTasks.id, created.body.id));
      return row?.upstreamTaskId ?? undefined;
    });
    const cancelled = await w.h.http.post(`/v1/videos/${created.body.id}/cancel`).set(auth(p.key));
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id: created.body.id, status: 'cancelled' });
    expect(await walletOf(w.h, p.org)).toMatchObject({ balance: 10, frozenAmount: 0 });
    await waitUntil(async () =>
      w.sim.state.requests.some((r) => r.method === 'DELETE' && r.path === `${TASKS}/${upstreamId}`),
    );
    const again = await w.h.http.post(`/v1/videos/${created.body.id}/cancel`).set(auth(p.key));
    expect(again.status).toBe(409);
    const content = await w.h.http.get(`/v1/videos/${created.body.id}/content`).set(auth(p.key));
    expect(content.status).toBe(409);
    expect(content.body.error).toMatchObject({ type: 'invalid_request_error', message: expect.any(String) });
    expect((await finalVideo(w, created.body.id, p.key)).status).toBe('cancelled');
    expect(await consumeRecords(w.h, p.org)).toEqual([]);
  });

  it('answers 409 for the content of a task that is not completed yet', async () => {
    const p = await aProjectWithKey(w.h, '10');
    const created = await w.h.http.post('/v1/videos').set(auth(p.key)).send({ model: 'seedance-1-0-pro', prompt: 'x' });
    const content = await w.h.http.get(`/v1/videos/${created.body.id}/content`).set(auth(p.key));
    expect(content.status).toBe(409);
    expect(content.body.error.type).toBe('invalid_request_error');
    await finalVideo(w, created.body.id, p.key);
  });

  it('returns the same task for the same Idempotency-Key, charged once, and lists the project tasks newest first', async () => {
    const p = await aProjectWithKey(w.h, '10');
    const send = () =>
      w.h.http
        .post('/v1/videos')
        .set({ ...auth(p.key), 'idempotency-key': 'same-key-1' })
        .send({ model: 'seedance-1-0-pro', prompt: 'A quiet harbour' });
    const answers = await Promise.all([send(), send()]);
    // The later one met the first still in flight (409) or came after it (the same task).
    const one = answers.find((a) => a.status === 200);
    if (!one) throw new Error(`no create succeeded: ${answers.map((a) => a.status)}`);
    for (const answer of answers) {
      if (answer.status === 409) expect(answer.body.error.code).toBe('Idempotency.RequestInFlight');
      else expect(answer.body.id).toBe(one.body.id);
    }
    expect((await send()).body.id).toBe(one.body.id);
    expect((await walletOf(w.h, p.org)).frozenAmount).toBe(0.25);
    const other = await w.h.http.post('/v1/videos').set(auth(p.key)).send({ model: 'seedance-1-0-pro', prompt: 'b' });

    const first = await w.h.http.get('/v1/videos?limit=1').set(auth(p.key));
    expect(first.body).toMatchObject({ object: 'list', has_more: true, first_id: other.body.id });
    expect(first.body.data).toHaveLength(1);
    const second = await w.h.http.get(`/v1/videos?limit=1&after=${other.body.id}`).set(auth(p.key));
    expect(second.body).toMatchObject({ has_more: false, data: [{ id: one.body.id }] });
    const stranger = await aProjectWithKey(w.h, '1');
    expect((await w.h.http.get(`/v1/videos/${one.body.id}`).set(auth(stranger.key))).status).toBe(404);
    await finalVideo(w, one.body.id, p.key);
    await finalVideo(w, other.body.id, p.key);
    await settledWallet(w, p.org);
    expect((await consumeRecords(w.h, p.org)).map((r) => r.amount)).toEqual([0.25, 0.25]);
  });
});
