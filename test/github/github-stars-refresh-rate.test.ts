// While GitHub fails, the count stays stale and every read of the public route asks for a refresh: those asks must
// not turn an anonymous script's reads into GitHub calls (security review #72).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { REFRESH_JOB_ID } from '../../shared/github/star-count.js';
import { createHarness, type Harness, startProcess, type WorkerProcess, waitUntil } from '../support/harness.js';

let github: http.Server;
let calls = 0;
let h: Harness;
let worker: WorkerProcess;

beforeAll(async () => {
  github = http.createServer((_req, res) => {
    calls++;
    res.statusCode = 403; // GitHub's answer once its rate limit for our address is used up
    res.end(JSON.stringify({ message: 'API rate limit exceeded' }));
  });
  await new Promise<void>((r) => github.listen(0, '127.0.0.1', r));
  h = await createHarness({
    GITHUB_API_URL: `http://127.0.0.1:${(github.address() as AddressInfo).port}`,
    GITHUB_REPO: 'acme/widgets',
  });
  worker = await startProcess(h.env, { extraEnv: { WORKER_QUEUES: 'maintenance' } });
});
afterAll(async () => {
  await worker.stop();
  await h.close();
  await new Promise((r) => github.close(r));
});

const refreshDone = () =>
  waitUntil(async () => ((await h.ctx.queues.queue('maintenance').getJob(REFRESH_JOB_ID)) ? undefined : true));

it('asks GitHub once, not once per read, while GitHub keeps failing', async () => {
  const reads = 8;
  for (let i = 0; i < reads; i++) {
    const res = await h.http.get('/api/v1/github/stars');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ stars: null, stale: true });
    await refreshDone();
  }
  // The route's first ask, and perhaps the worker's own scheduled refresh at its start.
  expect(calls).toBeGreaterThanOrEqual(1);
  expect(calls).toBeLessThanOrEqual(2);
});
