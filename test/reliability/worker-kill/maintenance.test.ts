// maintenance: the worker is SIGKILLed while its GitHub stars refresh waits for the GitHub API's answer; the
// replacement worker runs the job again and it completes once, filling the star cache.
import { createHarness, type Harness, type WorkerProcess, waitUntil } from '../../support/harness.js';
import { type HoldingServer, startHoldingServer } from '../../support/held-requests.js';
import { recordFigures, secondsBetween } from '../support/figures.js';
import { FAST_STALL_RECOVERY, killMidJob, startQueueWorker } from '../support/worker-kill.js';

let h: Harness;
let github: HoldingServer;
let worker: WorkerProcess | undefined;

beforeAll(async () => {
  github = await startHoldingServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ full_name: 'acme/lighthouse', stargazers_count: 777 }));
  });
  h = await createHarness({ ...FAST_STALL_RECOVERY, GITHUB_API_URL: github.origin, GITHUB_REPO: 'acme/lighthouse' });
});
afterAll(async () => {
  await worker?.stop();
  await h?.close();
  await github?.close();
});

it('completes a stars refresh whose worker was SIGKILLed mid-request', async () => {
  // Queued before the worker starts (and registers its schedules), so it is the first job the worker takes.
  const job = await h.ctx.queues.add('maintenance', 'github-stars', {}, { jobId: 'stars-kill-case' });
  worker = await startQueueWorker(h.env, 'maintenance');
  const killed = await killMidJob(h, worker, 'maintenance', {
    midJob: async () => github.gate.held === 1 && (await job.getState()) === 'active',
    release: () => {
      github.gate.holding = false;
    },
  });
  worker = killed.replacement;
  expect(killed.signal).toBe('SIGKILL');

  await waitUntil(async () => (await job.getState()) === 'completed', 30_000);
  const completedAt = Date.now();
  const finished = await h.ctx.queues.queue('maintenance').getJob('stars-kill-case');
  expect(finished?.stalledCounter).toBe(1);
  expect(finished?.returnvalue).toMatchObject({ repo: 'acme/lighthouse', stars: 777 });
  const cached = await h.http.get('/api/v1/github/stars');
  expect(cached.body).toMatchObject({ repo: 'acme/lighthouse', stars: 777, stale: false });
  expect(github.requests.length).toBeGreaterThanOrEqual(2);

  recordFigures('SIGKILL mid-job: maintenance', {
    jobsAtRisk: killed.inFlight,
    jobsLost: finished?.finishedOn ? 0 : 1,
    requeueSeconds: secondsBetween(killed.killedAt, completedAt),
  });
});
