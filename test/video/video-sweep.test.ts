import { inArray, sql } from 'drizzle-orm';
import { videoTasks } from '../../shared/db/schema/index.js';
import { advanceVideoTask } from '../../shared/video/video-advance.js';
import { chainJobId, rehostJobId } from '../../shared/video/video-schedule.js';
import { sweepVideoTasks } from '../../shared/video/video-sweep.js';
import { aProjectWithKey, consumeRecords, walletOf } from '../support/gateway.js';
import { freshTestDatabase, waitUntil } from '../support/harness.js';
import { finalVideo, openVideoWorld, settledWallet, type VideoWorld } from '../support/video-world.js';

let w: VideoWorld;
beforeAll(async () => {
  // A database of its own: the sweep counts every open task, and other files leave theirs (some backdated a day).
  w = await openVideoWorld({ env: { DATABASE_URL: await freshTestDatabase() } });
});
afterAll(() => w.close());

/** Creates a task through the API with the project key; its id. */
async function createVideo(key: string, prompt: string): Promise<string> {
  const res = await w.h.http
    .post('/v1/videos')
    .set('authorization', `Bearer ${key}`)
    .send({ model: 'seedance-1-0-pro', prompt });
  expect(res.status).toBe(200);
  return res.body.id as string;
}

describe('video sweep', () => {
  it('restarts the chain of open tasks whose job was lost or failed for good, and leaves live jobs alone', async () => {
    await w.worker.stop();
    const p = await aProjectWithKey(w.h, '10');
    const create = (prompt: string) => createVideo(p.key, prompt);
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
    // Other files' tasks share this jest worker's database, so the totals are at least this test's own.
    const swept = await sweepVideoTasks(w.h.ctx);
    expect(swept.checked).toBeGreaterThanOrEqual(4);
    expect(swept.restarted).toBeGreaterThanOrEqual(1);
    expect(swept.failed).toBe(0);
    expect(await (await queue.getJob(chainJobId(lost)))?.getState()).toBe('waiting');

    w.worker = await w.startWorker();
    await waitUntil(async () => (await (await queue.getJob(chainJobId(failed)))?.getState()) === 'failed');
    await waitUntil(async () => (await (await rehostQueue.getJob(rehostJobId(handed)))?.getState()) === 'failed');
    expect((await finalVideo(w, lost, p.key)).status).toBe('completed');
    expect((await finalVideo(w, live, p.key)).status).toBe('completed');

    // Both restarted; the restarted chain of `handed` hands it over again, past the dead rehost job.
    expect(await sweepVideoTasks(w.h.ctx)).toEqual({ checked: 2, restarted: 2, failed: 0, settled: 0 });
    expect((await finalVideo(w, failed, p.key)).status).toBe('completed');
    expect((await finalVideo(w, handed, p.key)).status).toBe('completed');
    await settledWallet(w, p.org);
    expect((await consumeRecords(w.h, p.org)).map((r) => r.amount)).toEqual([0.25, 0.25, 0.25, 0.25]);
    expect(await sweepVideoTasks(w.h.ctx)).toEqual({ checked: 0, restarted: 0, failed: 0, settled: 0 });
  });

  it('fails an open task long past its deadline, and settles a final task whose charge was never closed', async () => {
    await w.worker.stop();
    const p = await aProjectWithKey(w.h, '10');
    const create = (prompt: string) => createVideo(p.key, prompt);
    const [overdue, unsettled] = [await create('overdue'), await create('unsettled')];
    expect((await walletOf(w.h, p.org)).frozenAmount).toBeCloseTo(0.5, 6);
    await w.h.ctx.db
      .update(videoTasks)
      .set({ deadlineAt: sql`now() - interval '20 minutes'` })
      .where(inArray(videoTasks.id, [overdue]));
    // Its last job died between the final transition and closing the charge.
    await w.h.ctx.db
      .update(videoTasks)
      .set({ status: 'failed', errorMessage: 'upstream gone', finishedAt: sql`now() - interval '5 minutes'` })
      .where(inArray(videoTasks.id, [unsettled]));

    expect(await sweepVideoTasks(w.h.ctx)).toMatchObject({ failed: 1, settled: 1 });
    expect((await finalVideo(w, overdue, p.key)).error.message).toBe(
      'The video task did not finish before its deadline.',
    );
    expect(await walletOf(w.h, p.org)).toMatchObject({ balance: 10, frozenAmount: 0 });
    expect(await consumeRecords(w.h, p.org)).toEqual([]);
    const rows = await w.h.ctx.db
      .select()
      .from(videoTasks)
      .where(inArray(videoTasks.id, [overdue, unsettled]));
    expect(rows.map((r) => r.chargeClosed)).toEqual([true, true]);
    expect(await sweepVideoTasks(w.h.ctx)).toMatchObject({ failed: 0, settled: 0 });
    w.worker = await w.startWorker();
  });
});
