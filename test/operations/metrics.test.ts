import { randomUUID } from 'node:crypto';
import { createAppContext } from '../../shared/context.js';
import { defineQueueWorker } from '../../workers/processor.js';
import { startWorkers } from '../../workers/runtime.js';
import { type GatewayWorld, openGatewayWorld } from '../support/gateway.js';
import { createHarness, type Harness, waitUntil } from '../support/harness.js';
import { bearer } from '../support/identity.js';

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';

/** The value of one sample line, e.g. sample(text, 'ockhub_queue_jobs{queue="quota",state="waiting"}'). */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

let w: GatewayWorld;

beforeAll(async () => {
  w = await openGatewayWorld({ balance: '10', env: { METRICS_TOKEN } });
});
afterAll(async () => {
  await w.close();
});

const scrape = async () => {
  const res = await w.h.http.get('/metrics').set(bearer(METRICS_TOKEN));
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain/);
  return res.text;
};

describe('/metrics', () => {
  it('answers 401 without the bearer token or with a wrong one', async () => {
    expect((await w.h.http.get('/metrics')).status).toBe(401);
    expect((await w.h.http.get('/metrics').set(bearer('not-the-metrics-token-at-all'))).status).toBe(401);
  });

  it('is 404 like any unknown path when METRICS_TOKEN is not set', async () => {
    let h: Harness | undefined;
    try {
      h = await createHarness();
      const res = await h.http.get('/metrics').set(bearer(METRICS_TOKEN));
      expect(res.status).toBe(404);
      expect(res.text).toContain('Route.NotFound');
    } finally {
      await h?.close();
    }
  });

  it('observes HTTP latency by route family and status class', async () => {
    const before = await scrape();
    const series = 'ockhub_http_request_duration_seconds_count{family="catalog",status_class="4xx"}';
    await w.h.http.get('/api/v1/no-such-route');
    await w.h.http.get('/api/v1/no-such-route');
    const after = await scrape();
    expect(sample(after, series) - sample(before, series)).toBe(2);
    expect(after).toContain('ockhub_http_request_duration_seconds_bucket{le="0.005",family=');
  });

  it('counts queue depth per queue and state at scrape time', async () => {
    await w.h.ctx.queues.add('maintenance', 'wallet-sweep', {});
    await w.h.ctx.queues.add('maintenance', 'github-stars', {});
    await w.h.ctx.queues.add('alerts', 'test-alert', { alertId: crypto.randomUUID() }, { delay: 60_000 });
    const text = await scrape();
    expect(sample(text, 'ockhub_queue_jobs{queue="maintenance",state="waiting"}')).toBe(2);
    expect(sample(text, 'ockhub_queue_jobs{queue="alerts",state="delayed"}')).toBe(1);
    expect(text).toContain('ockhub_queue_jobs{queue="video",state="failed"} 0');
    expect(text).toContain('ockhub_queue_jobs_finished{queue="quota",outcome="completed"} 0');
  });

  it('counts settled gateway requests, their tokens and spend, and the upstream latency per provider', async () => {
    const before = await scrape();
    const res = await w.h.http
      .post('/v1/messages')
      .set(bearer(w.key))
      .send({ model: 'claude-sonnet-5', max_tokens: 50, messages: [{ role: 'user', content: 'hello there' }] });
    expect(res.status).toBe(200);
    // The request is settled (and counted) after its answer is sent, so wait for the settlement to show.
    const settled = 'ockhub_gateway_requests_total{operation="messages",status="succeeded"}';
    const after = await waitUntil(async () => {
      const t = await scrape();
      return sample(t, settled) > sample(before, settled) && t;
    });
    const delta = (series: string) => sample(after, series) - sample(before, series);
    expect(delta('ockhub_gateway_requests_total{operation="messages",status="succeeded"}')).toBe(1);
    expect(delta('ockhub_gateway_tokens_total{operation="messages",kind="input"}')).toBe(res.body.usage.input_tokens);
    expect(delta('ockhub_gateway_tokens_total{operation="messages",kind="output"}')).toBe(res.body.usage.output_tokens);
    expect(delta('ockhub_gateway_spend_micro_usd_total{operation="messages"}')).toBeGreaterThan(0);
    expect(delta('ockhub_upstream_response_seconds_count{provider="anthropic",status_class="2xx"}')).toBe(1);
  });
});

describe('/metrics with a worker running', () => {
  it('counts finished jobs per queue and shows the processing time of recent jobs', async () => {
    const workerCtx = createAppContext(w.h.config, 'worker', 'test-worker');
    const running = await startWorkers(workerCtx, ['ledger'], async () =>
      defineQueueWorker('ledger', { write: () => new Promise((r) => setTimeout(r, 60)) }),
    );
    try {
      // A ledger job of an earlier test's settled request may still be waiting, and this worker takes it too: count
      // from what was finished before, and at least the three added here.
      const completed = 'ockhub_queue_jobs_finished{queue="ledger",outcome="completed"}';
      const before = sample(await scrape(), completed);
      for (let i = 0; i < 3; i++) await w.h.ctx.queues.add('ledger', 'write', { organizationId: randomUUID() });
      const text = await waitUntil(async () => {
        const t = await scrape();
        return sample(t, completed) >= before + 3 && t;
      });
      expect(
        sample(text, 'ockhub_queue_recent_job_duration_seconds{queue="ledger",quantile="0.5"}'),
      ).toBeGreaterThanOrEqual(0.05);
      expect(text).not.toContain('ockhub_queue_recent_job_duration_seconds{queue="video"');
    } finally {
      await running.close();
      await workerCtx.close();
    }
  });
});
