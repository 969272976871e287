import { eq } from 'drizzle-orm';
import { videoTasks } from '../../shared/db/schema/index.js';
import { loadModelRegistry } from '../../shared/gateway/model-registry.js';
import { organizationOfProject } from '../../shared/gateway/project-directory.js';
import { advanceVideoTask } from '../../shared/video/video-advance.js';
import { completeVideoTask } from '../../shared/video/video-complete.js';
import { normalizeVideoRequest } from '../../shared/video/video-request.js';
import { chainJobId, rehostJobId, startTaskChain } from '../../shared/video/video-schedule.js';
import { createVideoTask } from '../../shared/video/video-tasks.js';
import { aProjectWithKey, consumeRecords, type GatewayWorld, openGatewayWorld } from '../support/gateway.js';

// No worker process here: the test runs the steps itself, to race them deterministically.
let w: GatewayWorld;
beforeAll(async () => {
  w = await openGatewayWorld({
    balance: '10',
    simulator: { videoDurationMs: 300 },
    env: { VIDEO_POLL_INTERVAL_MS: '60000' },
  });
});
afterAll(() => w.close());

const TASKS = '/api/v3/contents/generations/tasks';
const model = loadModelRegistry().resolve('seedance-1-0-pro', 'video');

async function aTask(prompt: string) {
  const p = await aProjectWithKey(w.h, '10');
  const caller = {
    accountId: p.org.admin.accountId,
    projectId: p.projectId,
    organizationId: await organizationOfProject(w.h.ctx, p.projectId),
  };
  const task = await createVideoTask(w.h.ctx, caller, {
    model,
    normalized: normalizeVideoRequest({ model: model.id, prompt }, model),
  });
  return { p, task };
}
const row = async (id: string) => (await w.h.ctx.db.select().from(videoTasks).where(eq(videoTasks.id, id)))[0];

describe('video state machine (compare-and-set steps)', () => {
  it('lets only one of two duplicate submit steps record its upstream task, and cancels the other upstream', async () => {
    const { task } = await aTask('duplicate submit dup-case');
    const results = await Promise.all([advanceVideoTask(w.h.ctx, task.id), advanceVideoTask(w.h.ctx, task.id)]);
    const stored = await row(task.id);
    expect(stored?.upstreamAttempts).toBe(1);
    const creates = w.sim.state.requests.filter(
      (r) => r.method === 'POST' && JSON.stringify(r.body).includes('dup-case'),
    );
    const deletes = w.sim.state.requests.filter((r) => r.method === 'DELETE' && r.path.startsWith(TASKS));
    if (creates.length === 1) {
      // The second step read the task only after the first recorded its upstream task: it starts none of its own
      // and polls the recorded one later.
      expect(results).toEqual(['scheduled', 'scheduled']);
      expect(deletes.some((d) => d.path === `${TASKS}/${stored?.upstreamTaskId}`)).toBe(false);
    } else {
      expect(creates).toHaveLength(2);
      expect(results.sort()).toEqual(['scheduled', 'superseded']);
      expect(deletes.some((d) => d.path !== `${TASKS}/${stored?.upstreamTaskId}`)).toBe(true);
    }
  });

  it('hands a finished video over once when two polls race, and completes and charges once when two rehosts race', async () => {
    const { p, task } = await aTask('late poll late-case');
    expect(await advanceVideoTask(w.h.ctx, task.id)).toBe('scheduled');
    expect((await row(task.id))?.upstreamAttempts).toBe(1);
    await new Promise((r) => setTimeout(r, 400));
    // The second either sees the first's rehost job (and polls again later) or adds the same job id (collapsed).
    const polls = await Promise.all([advanceVideoTask(w.h.ctx, task.id), advanceVideoTask(w.h.ctx, task.id)]);
    expect(polls).toContain('handed-off');
    expect(polls.every((r) => r === 'handed-off' || r === 'scheduled')).toBe(true);
    const rehosts = await w.h.ctx.queues.queue('video-rehost').getJobs(['waiting', 'delayed', 'active']);
    expect(rehosts.map((j) => j.id)).toEqual([rehostJobId(task.id)]);
    const results = await Promise.all([completeVideoTask(w.h.ctx, task.id), completeVideoTask(w.h.ctx, task.id)]);
    expect(results.sort()).toEqual(['completed', 'superseded']);
    expect(await advanceVideoTask(w.h.ctx, task.id)).toBe('finished');
    const stored = await row(task.id);
    expect(stored?.status).toBe('completed');
    // The losing rehost wrote the same object key: it must not have deleted the winner's file.
    expect(await w.h.ctx.storage.exists(stored?.objectKey as string)).toBe(true);
    expect((await consumeRecords(w.h, p.org)).map((r) => r.amount)).toEqual([0.25]);
  });

  it('collapses a second start of the same chain into the one job', async () => {
    const { task } = await aTask('double start');
    await startTaskChain(w.h.ctx, task.id);
    await startTaskChain(w.h.ctx, task.id);
    const queue = w.h.ctx.queues.queue('video');
    const jobs = await queue.getJobs(['waiting', 'delayed', 'active', 'prioritized']);
    expect(jobs.filter((j) => j.data.taskId === task.id).map((j) => j.id)).toEqual([chainJobId(task.id)]);
  });
});
