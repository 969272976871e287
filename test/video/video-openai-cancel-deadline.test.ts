import { jest } from '@jest/globals';
import { eq } from 'drizzle-orm';
import { videoTasks } from '../../shared/db/schema/index.js';
import { aProjectWithKey, consumeRecords, walletOf } from '../support/gateway.js';
import { waitUntil } from '../support/harness.js';
import { finalVideo, openVideoWorld, settledWallet, type VideoWorld } from '../support/video-world.js';

// An OpenAI-style upstream whose videos take 30 s, and tasks that may run for 8 s at most.
jest.setTimeout(90_000);

let w: VideoWorld;
beforeAll(async () => {
  w = await openVideoWorld({ env: { UPSTREAM_VIDEO_KIND: 'openai', VIDEO_TASK_DEADLINE_MS: '8000' }, videoMs: 30_000 });
});
afterAll(() => w.close());

const auth = (key: string) => ({ authorization: `Bearer ${key}` });
const upstreamIdOf = (id: string) =>
  waitUntil(async () => {
    const [row] = await w.h.ctx.db.select().from(videoTasks).where(eq(videoTasks.id, id));
    return row?.upstreamTaskId ?? undefined;
  });
const deletesOf = (upstreamId: string) =>
  w.sim.state.requests.filter((r) => r.method === 'DELETE' && r.path === `/v1/videos/${upstreamId}`);

describe('video tasks on an OpenAI-style upstream: cancel and deadline', () => {
  it('forwards a cancel upstream as DELETE /v1/videos/{id} once, and releases the reservation', async () => {
    const p = await aProjectWithKey(w.h, '10');
    const created = await w.h.http
      .post('/v1/videos')
      .set(auth(p.key))
      .send({ model: 'sora-2', prompt: 'A paper boat openai-cancel', seconds: '4' });
    expect(created.status).toBe(200);
    const upstreamId = await upstreamIdOf(created.body.id);
    const cancelled = await w.h.http.post(`/v1/videos/${created.body.id}/cancel`).set(auth(p.key));
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id: created.body.id, status: 'cancelled' });
    await waitUntil(async () => deletesOf(upstreamId).length > 0);
    const [row] = await w.h.ctx.db.select().from(videoTasks).where(eq(videoTasks.id, created.body.id));
    expect(row?.upstreamCancelled).toBe(true);
    expect(deletesOf(upstreamId)).toHaveLength(1);
    expect(await walletOf(w.h, p.org)).toMatchObject({ balance: 10, frozenAmount: 0 });
    expect(await consumeRecords(w.h, p.org)).toEqual([]);
  });

  it('fails a task still running at its deadline, refunds it and cancels its upstream task', async () => {
    const p = await aProjectWithKey(w.h, '10');
    const created = await w.h.http
      .post('/v1/videos')
      .set(auth(p.key))
      .send({ model: 'sora-2', prompt: 'A very long take openai-deadline', seconds: '4' });
    expect(created.status).toBe(200);
    const upstreamId = await upstreamIdOf(created.body.id);
    const done = await finalVideo(w, created.body.id, p.key, 60_000);
    expect(done.status).toBe('failed');
    expect(done.error).toEqual({
      message: 'The video task did not finish before its deadline.',
      type: 'server_error',
    });
    await waitUntil(async () => deletesOf(upstreamId).length > 0);
    expect(await settledWallet(w, p.org)).toMatchObject({ balance: 10, frozenAmount: 0 });
    expect(await consumeRecords(w.h, p.org)).toEqual([]);
  });
});
