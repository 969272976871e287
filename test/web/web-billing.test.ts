import { windowKey } from '../../shared/rate-limit/sliding-window.js';
import { reconcileWallets } from '../../shared/wallet/reconciliation.js';
import {
  aProjectWithKey,
  consumeRecords,
  type GatewayWorld,
  openGatewayWorld,
  requestLogsOf,
  walletOf,
} from '../support/gateway.js';
import { startProcess, type WorkerProcess, waitUntil } from '../support/harness.js';
import { bearer } from '../support/identity.js';
import { inOrg } from '../support/org-fixtures.js';
import { type PageServer, startPageServer } from '../support/page-server.js';

const micros = (usd: number) => BigInt(Math.round(usd * 1_000_000));

describe('billing of /v1/web/search and /v1/web/fetch', () => {
  let w: GatewayWorld;
  let site: PageServer;
  let worker: WorkerProcess;
  // WEB_BILLING_MULTIPLIER 2.5: each request costs 0.001 × 2.5 = 0.0025 USD.
  const price = 2_500n;

  beforeAll(async () => {
    site = await startPageServer();
    // 100 fetches of one organization at once, with its share of batches in progress at the default: the ones past
    // it wait their turn (web-fetch-batch-share), and every one is still served and billed once.
    w = await openGatewayWorld({ env: { OUTBOUND_ALLOWED_HOSTS: '127.0.0.1', WEB_BILLING_MULTIPLIER: '2.5' } });
    worker = await startProcess(w.h.env, { extraEnv: { WORKER_QUEUES: 'web-fetch' } });
  }, 60_000);
  afterAll(async () => {
    await worker?.stop();
    await w?.close();
    await site?.close();
  });

  const search = (key: string, body: object) => w.h.http.post('/v1/web/search').set(bearer(key)).send(body);
  const fetchUrls = (key: string, urls: string[]) => w.h.http.post('/v1/web/fetch').set(bearer(key)).send({ urls });

  it('bills 100 concurrent searches and fetches exactly once each, and the ledger reconciles', async () => {
    const project = await aProjectWithKey(w.h, '1');
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        i % 2 === 0
          ? search(project.key, { query: `concurrent ${i}`, maxResults: 3 })
          : fetchUrls(project.key, [`${site.origin}/page/${i}`, `${site.origin}/pdf`]),
      ),
    );
    // The refused ones with their answers, so that a failure says why.
    expect(answers.filter((a) => a.status !== 200).map((a) => [a.status, a.body])).toEqual([]);
    const records = await consumeRecords(w.h, project.org);
    expect(records).toHaveLength(100);
    expect(new Set(records.map((r) => r.requestLogId)).size).toBe(100);
    expect(records.every((r) => micros(r.amount) === price)).toBe(true);
    const wallet = await walletOf(w.h, project.org);
    expect(micros(wallet.balance)).toBe(micros(1) - 100n * price);
    expect(wallet.frozenAmount).toBe(0);
    const logs = await requestLogsOf(w.h, project.projectId);
    expect(logs).toHaveLength(100);
    expect(logs.filter((l) => l.operation === 'web_search')).toHaveLength(50);
    expect(logs.filter((l) => l.operation === 'web_fetch')).toHaveLength(50);
    expect(logs.every((l) => l.costMicros === price && l.status === 'succeeded')).toBe(true);
    const usage = await w.h.http
      .get(`/api/projects/${project.projectId}/quota-usage?period=day`)
      .set(inOrg(project.org.admin, project.org.id));
    expect(usage.body.data.dailyUsage.requestCount).toBe(100);
    expect((await reconcileWallets(w.h.ctx.db)).problems).toEqual([]);
  });

  it('answers 401 authentication_error without a valid key', async () => {
    const missing = await w.h.http.post('/v1/web/search').send({ query: 'x' });
    expect(missing.status).toBe(401);
    expect(missing.body.error).toMatchObject({ type: 'authentication_error', message: expect.any(String) });
    const unknown = await fetchUrls('ock_not_a_real_key', [`${site.origin}/article`]);
    expect(unknown.status).toBe(401);
    expect(unknown.body.error.type).toBe('authentication_error');
  });

  it('answers 402 when the wallet is empty, counting nothing in the quota', async () => {
    const project = await aProjectWithKey(w.h);
    const searched = await search(project.key, { query: 'no money' });
    expect(searched.status).toBe(402);
    expect(searched.body.error).toMatchObject({ type: 'insufficient_quota', code: 'Wallet.InsufficientBalance' });
    const fetched = await fetchUrls(project.key, [`${site.origin}/article`]);
    expect(fetched.status).toBe(402);
    const usage = await w.h.http
      .get(`/api/projects/${project.projectId}/quota-usage?period=day`)
      .set(inOrg(project.org.admin, project.org.id));
    expect(usage.body.data.dailyUsage.requestCount).toBe(0);
  });

  it('answers 429 with retry-after once the project quota is used, without charging', async () => {
    const project = await aProjectWithKey(w.h, '1');
    const quota = await w.h.http
      .post(`/api/projects/${project.projectId}/quota`)
      .set(inOrg(project.org.admin, project.org.id))
      .send({ dailyRequestLimit: 2, enforceQuota: true });
    expect(quota.status).toBeLessThan(300);
    expect((await search(project.key, { query: 'one' })).status).toBe(200);
    expect((await fetchUrls(project.key, [`${site.origin}/article`])).status).toBe(200);
    for (const rejected of [
      await search(project.key, { query: 'three' }),
      await fetchUrls(project.key, [`${site.origin}/article`]),
    ]) {
      expect(rejected.status).toBe(429);
      expect(rejected.body.error.type).toBe('rate_limit_error');
      expect(Number(rejected.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(await consumeRecords(w.h, project.org)).toHaveLength(2);
    expect((await walletOf(w.h, project.org)).frozenAmount).toBe(0);
  });
});

describe('a web fetch no worker answers', () => {
  let w: GatewayWorld;
  beforeAll(async () => {
    w = await openGatewayWorld({ balance: '1', env: { WEB_FETCH_WAIT_MS: '800' } });
  });
  afterAll(async () => w?.close());

  it('answers 503 with retry-after at the deadline, bills nothing and drops the waiting batch', async () => {
    const res = await w.h.http
      .post('/v1/web/fetch')
      .set(bearer(w.key))
      .send({ urls: ['http://example.com/'] });
    expect(res.status).toBe(503);
    expect(res.body.error).toMatchObject({ type: 'service_unavailable', code: 'WebFetch.Timeout' });
    expect(res.headers['retry-after']).toBe('5');
    expect(await consumeRecords(w.h, w.org)).toHaveLength(0);
    expect((await walletOf(w.h, w.org)).frozenAmount).toBe(0);
    expect(await w.h.ctx.queues.queue('web-fetch').getWaitingCount()).toBe(0);
    const [log] = await requestLogsOf(w.h, w.projectId);
    expect(log).toMatchObject({ operation: 'web_fetch', status: 'failed', costMicros: 0n, httpStatus: 503 });
  });
});

describe("an organization's share of web fetches, taken for the whole wait", () => {
  let w: GatewayWorld;
  beforeAll(async () => {
    w = await openGatewayWorld({
      balance: '1',
      env: { WEB_FETCH_WAIT_MS: '800', WEB_FETCH_BATCHES_PER_ORGANIZATION: '1' },
    });
  });
  afterAll(async () => w?.close());

  it('keeps the next fetch waiting for its turn, then answers 429 WebFetch.TooManyBatches, nothing charged', async () => {
    const fetchOne = (path: string) =>
      w.h.http
        .post('/v1/web/fetch')
        .set(bearer(w.key))
        .send({ urls: [`http://example.com/${path}`] });
    // No worker runs: the first fetch holds the organization's one place until its wait ends (and after, as a worker
    // might still be running it). That a fetch past the share is served once a place frees is
    // web-fetch-batch-share.test.ts; here the place never frees.
    const first = fetchOne('first').then((res) => res); // supertest sends a request once it is awaited or then'd
    const places = windowKey(w.h.ctx.config.REDIS_PREFIX, 'web-fetch-batches', w.org.id);
    await waitUntil(async () => (await w.h.ctx.redis.zcard(places)) === 1, 10_000);
    const second = await fetchOne('second');
    expect(second.status).toBe(429);
    expect(second.body.error).toMatchObject({ type: 'rate_limit_error', code: 'WebFetch.TooManyBatches' });
    expect(Number(second.headers['retry-after'])).toBeGreaterThan(0);
    expect((await first).status).toBe(503);
    expect(await consumeRecords(w.h, w.org)).toHaveLength(0);
    expect(await walletOf(w.h, w.org)).toMatchObject({ balance: 1, frozenAmount: 0 });
  });
});
