import { createHarness, type Harness, startProcess, type WorkerProcess, waitUntil } from '../support/harness.js';
import { freePort } from '../support/loopback-ports.js';

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';

/** The value of one sample line, e.g. sample(text, 'ockhub_job_failures_total{queue="quota"}'); 0 when absent. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

const completed = 'ockhub_job_duration_seconds_count{queue="quota",outcome="completed"}';
const failed = 'ockhub_job_duration_seconds_count{queue="quota",outcome="failed"}';
const failures = 'ockhub_job_failures_total{queue="quota"}';

let h: Harness;
let worker: WorkerProcess;
let metricsUrl: string;

beforeAll(async () => {
  h = await createHarness({ METRICS_TOKEN });
  const port = await freePort();
  metricsUrl = `http://127.0.0.1:${port}/metrics`;
  // The quota queue has no interval schedule, so every job it runs here is one this file added.
  worker = await startProcess(h.env, { extraEnv: { WORKER_QUEUES: 'quota', WORKER_METRICS_PORT: String(port) } });
});
afterAll(async () => {
  await worker.stop();
  await h.close();
});

const scrape = async () => {
  const res = await fetch(metricsUrl, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  return res.text();
};

describe('a worker process with WORKER_METRICS_PORT', () => {
  it('answers 401 without the bearer token or with a wrong one, and 404 on any other path', async () => {
    expect((await fetch(metricsUrl)).status).toBe(401);
    const wrong = await fetch(metricsUrl, { headers: { authorization: 'Bearer not-the-metrics-token-at-all' } });
    expect(wrong.status).toBe(401);
    const elsewhere = await fetch(metricsUrl.replace('/metrics', '/status'), {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(elsewhere.status).toBe(404);
  });

  it('answers GET /health with 200 and no token, for a container health check', async () => {
    const health = await fetch(metricsUrl.replace('/metrics', '/health'));
    expect(health.status).toBe(200);
    expect(await health.text()).toBe('ok\n');
  });

  it('serves its process metrics labelled role="worker" with the token', async () => {
    const text = await scrape();
    expect(sample(text, 'process_cpu_user_seconds_total{role="worker"}')).toBeGreaterThan(0);
    expect(sample(text, 'nodejs_heap_size_used_bytes{role="worker"}')).toBeGreaterThan(0);
    expect(text).toContain('# TYPE ockhub_job_duration_seconds histogram');
  });

  it('observes the duration of a job it processed, by queue and outcome', async () => {
    const job = await h.ctx.queues.add('quota', 'rollover', {});
    const text = await waitUntil(async () => {
      const t = await scrape();
      return sample(t, completed) > 0 && t;
    });
    expect(await job.getState()).toBe('completed');
    expect(sample(text, completed)).toBe(1);
    expect(sample(text, 'ockhub_job_duration_seconds_sum{queue="quota",outcome="completed"}')).toBeGreaterThan(0);
    expect(sample(text, 'ockhub_job_duration_seconds_bucket{le="+Inf",queue="quota",outcome="completed"}')).toBe(1);
    expect(sample(text, failures)).toBe(0);
  });

  it('counts a failed job per queue and observes its duration with outcome "failed"', async () => {
    // A job name the quota queue does not know fails at the worker's payload check, without retries.
    const job = await h.ctx.queues.queue('quota').add('no-such-job', {}, { attempts: 1 });
    const text = await waitUntil(async () => {
      const t = await scrape();
      return sample(t, failures) > 0 && t;
    });
    expect(await job.getState()).toBe('failed');
    expect(sample(text, failures)).toBe(1);
    expect(sample(text, failed)).toBe(1);
    expect(sample(text, completed)).toBe(1);
  });

  it('refuses to start on a port another process holds, before taking any job', async () => {
    const taken = new URL(metricsUrl).port;
    await expect(
      startProcess(h.env, { extraEnv: { WORKER_QUEUES: 'quota', WORKER_METRICS_PORT: taken } }),
    ).rejects.toThrow(/worker metrics cannot listen on WORKER_METRICS_PORT: .*EADDRINUSE/);
  });
});

describe('the API process', () => {
  it('collects its process metrics labelled role="web" on /metrics', async () => {
    const port = await freePort();
    const api = await startProcess(
      { ...h.env, PORT: String(port) },
      { script: 'api/server.ts', readyLine: /API listening/ },
    );
    try {
      const res = await fetch(`http://127.0.0.1:${port}/metrics`, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(sample(text, 'process_cpu_user_seconds_total{role="web"}')).toBeGreaterThan(0);
      expect(text).toContain('ockhub_queue_jobs{queue="quota",state="waiting"} 0');
    } finally {
      expect(await api.stop()).toBe(0);
    }
  });
});

describe('shutdown', () => {
  it('closes the metrics endpoint with the worker on SIGTERM and exits 0', async () => {
    expect(await worker.stop()).toBe(0);
    await expect(fetch(metricsUrl)).rejects.toThrow();
  });
});
