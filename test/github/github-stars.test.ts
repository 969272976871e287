import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHarness, type Harness, startProcess, type WorkerProcess, waitUntil } from '../support/harness.js';

let github: http.Server;
const requests: string[] = [];
let stars = 4242;
let h: Harness;
let worker: WorkerProcess;

beforeAll(async () => {
  github = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url} ${req.headers.accept}`);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ full_name: 'acme/widgets', stargazers_count: stars }));
  });
  await new Promise<void>((r) => github.listen(0, '127.0.0.1', r));
  const env = {
    GITHUB_API_URL: `http://127.0.0.1:${(github.address() as AddressInfo).port}`,
    GITHUB_REPO: 'acme/widgets',
  };
  h = await createHarness(env);
});
afterAll(async () => {
  await worker.stop();
  await h.close();
  await new Promise((r) => github.close(r));
});

describe('GET /api/v1/github/stars', () => {
  it('answers at once from the cache; the first call asks the worker, which fills it from the GitHub API', async () => {
    const first = await h.http.get('/api/v1/github/stars');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ stars: null, repo: 'acme/widgets', fetchedAt: null, stale: true });
    expect(await h.ctx.queues.queue('maintenance').getJobCounts('waiting')).toEqual({ waiting: 1 });

    worker = await startProcess(h.env, { extraEnv: { WORKER_QUEUES: 'maintenance' } });

    const filled = await waitUntil(async () => {
      const res = await h.http.get('/api/v1/github/stars');
      return res.body.stars !== null ? res : undefined;
    });
    expect(filled.body).toEqual({ repo: 'acme/widgets', stars: 4242, fetchedAt: expect.any(String), stale: false });
    expect(Date.now() - Date.parse(filled.body.fetchedAt)).toBeLessThan(60_000);
    // the route's refresh and the scheduler's first tick may both have run; each asked for the right thing
    expect(new Set(requests)).toEqual(new Set(['GET /repos/acme/widgets application/vnd.github+json']));
    expect(filled.headers['x-correlation-id']).toBeDefined();
  });

  it('keeps serving the last count while GitHub fails, and never waits for it', async () => {
    stars = -1; // GitHub answering nonsense makes the refresh fail
    await h.ctx.queues.add('maintenance', 'github-stars', {});
    const res = await h.http.get('/api/v1/github/stars');
    expect(res.body.stars).toBe(4242);
  });

  it('says once, not at every refresh, that GitHub cannot be reached', async () => {
    stars = -1;
    const warnings = () =>
      worker.logs
        .join('')
        .split('\n')
        .filter((line) => line.includes('GitHub star count cannot be fetched') && line.includes('"level":40'));
    const before = warnings().length;
    for (let i = 0; i < 3; i++) {
      const job = await h.ctx.queues.add('maintenance', 'github-stars', {});
      const done = await waitUntil(async () => ((await job.getState()) === 'completed' ? job : undefined));
      expect(done.id).toBe(job.id);
    }
    expect(warnings().length - before).toBeLessThanOrEqual(1);
    expect(warnings().length).toBe(1);
    expect(worker.logs.join('')).not.toMatch(/"msg":"job failed".*github-stars|github-stars.*"msg":"job failed"/);
  });
});
