import { inArray, sql } from 'drizzle-orm';
import { videoTasks } from '../../shared/db/schema/index.js';
import { advanceVideoTask } from '../../shared/video/video-advance.js';
import { chainJobId, rehostJobId } from '../../shared/video/video-schedule.js';
import { sweepVideoTasks } from '../../shared/video/video-sweep.js';
import { aProjectWithKey, consumeRecords } from '../support/gateway.js';
import { waitUntil } from '../support/harness.js';
import { finalVideo, openVideoWorld, settledWallet, type VideoWorld } from './video-world.js';

let w: VideoWorld;
beforeAll(async () => {
  w = await openVideoWorld();
});
afterAll(() => w.close());

describe('video sweep', () => {
  it('restarts the chain of open tasks whose job was lost or failed for good, and leaves live jobs alone', async () => {
    await w.worker.stop();
    const p = await aProjectWithKey(w.h, '10');
    const create = async (prompt: string) => {
      const res = await w.h.http
        .post('/v1/videos')
        .set('authorization', `Bearer ${p.key}`)
        .send({ model: 'seedance-1-0-pro', prompt });
      expect(res.status).toBe(200);
      return res.body.id as string;
    };
    const [lost, failed, live, handed] = [
      await create('lost job'),
      await create('failed job'),
      await create('live job'),
      await create('failed rehost'),
    ];
    const queue = w.h.ctx.queues.queue('video');
    const rehostQueue = w.h.ctx.queues.queue('video-rehost');
    // `lost`: its job is gone. `failed`: its job is replaced by one whose payload the worker refuses for good.
    await (await queue.getJob(chainJobId(lost)))?.remove();
    await (await queue.getJob(chainJobId(failed)))?.remove();
    await queue.add('advance', { taskId: 42 }, { jobId: chainJobId(failed), attempts: 1 });
    // `handed`: its chain handed the finished video over and ended; the rehost job then fails for good.
    expect(await advanceVideoTask(w.h.ctx, handed)).toBe('scheduled');
    await waitUntil(async () => (await advanceVideoTask(w.h.ctx, handed)) === 'handed-off', 10_000, 200);
    await (await queue.getJob(chainJobId(handed)))?.remove();
    await (await rehostQueue.getJob(rehostJobId(handed)))?.remove();
    await rehostQueue.add('rehost', { taskId: 42 }, { jobId: rehostJobId(handed), attempts: 1 });
    await w.h.ctx.db
      .update(videoTasks)
      .set({ createdAt: sql`now() - interval '10 minutes'`, lastPolledAt: sql`now() - interval '10 minutes'` })
      .where(inArray(videoTasks.id, [lost, failed, live, handed]));

    // No worker runs: the lost task is restarted; the other three have waiting jobs.
    expect(await sweepVideoTasks(w.h.ctx)).toEqual({ checked: 4, restarted: 1 });
    expect(await (await queue.getJob(chainJobId(lost)))?.getState()).toBe('waiting');

    w.worker = await w.startWorker();
    await waitUntil(async () => (await (await queue.getJob(chainJobId(failed)))?.getState()) === 'failed');
    await waitUntil(async () => (await (await rehostQueue.getJob(rehostJobId(handed)))?.getState()) === 'failed');
    expect((await finalVideo(w, lost, p.key)).status).toBe('completed');
    expect((await finalVideo(w, live, p.key)).status).toBe('completed');

    // Both restarted; the restarted chain of `handed` hands it over again, past the dead rehost job.
    expect(await sweepVideoTasks(w.h.ctx)).toEqual({ checked: 2, restarted: 2 });
    expect((await finalVideo(w, failed, p.key)).status).toBe('completed');
    expect((await finalVideo(w, handed, p.key)).status).toBe('completed');
    await settledWallet(w, p.org);
    expect((await consumeRecords(w.h, p.org)).map((r) => r.amount)).toEqual([0.25, 0.25, 0.25, 0.25]);
    expect(await sweepVideoTasks(w.h.ctx)).toEqual({ checked: 0, restarted: 0 });
  });
});
