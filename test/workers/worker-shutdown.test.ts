import { createHarness, type Harness, startProcess, waitUntil } from '../support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

it('finishes the job in hand when the worker gets SIGTERM, then exits 0', async () => {
  const worker = await startProcess(h.env, { script: 'test/workers/slow-worker.ts' });
  const job = await h.ctx.queues.add('maintenance', 'expire-credentials', {});
  const probe = `${h.config.REDIS_PREFIX}:probe:${job.id}`;
  await waitUntil(async () => (await h.ctx.redis.get(probe)) === 'started');

  const code = await worker.stop('SIGTERM');

  expect(code).toBe(0);
  // Its last line says it stopped cleanly, so a supervisor's log shows why the process ended.
  // 'exit' can come before the last of the child's output is read: wait for the line, then check it is the last.
  await waitUntil(async () => worker.logs.join('').includes('worker stopped:'), 10_000, 20);
  expect(worker.logs.join('').trim().split('\n').at(-1)).toMatch(
    /"signal":"SIGTERM".*"msg":"worker stopped: jobs in hand finished/,
  );
  expect(await h.ctx.redis.get(probe)).toBe('finished');
  expect(await job.getState()).toBe('completed');
});

it('refuses to start when WORKER_QUEUES names an unknown queue', async () => {
  await expect(startProcess({ ...h.env, WORKER_QUEUES: 'video,nonsense' })).rejects.toThrow(/nonsense/);
});
