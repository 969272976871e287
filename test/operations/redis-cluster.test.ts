// ockhub on a real 3-master Redis Cluster (private, started for this file) with the documented settings:
// REDIS_CLUSTER_NODES and the hash-tagged prefix `{ockhub}`. The API (in this process) and a worker process running
// every queue use cluster clients; each queue's producer and processor run once; the quota and wallet Lua steps,
// the credential cache, telemetry intake and flush, a rate limiter and idempotency claims run on the cluster.
import { randomUUID } from 'node:crypto';
import { invalidationChannel } from '../../shared/identity/local-credentials.js';
import { type QueueName, queueNames } from '../../shared/queues/registry.js';
import { deleteKeysWithPrefix } from '../../shared/redis/connection.js';
import { organizationKeyBase } from '../../shared/redis/tagged-keys.js';
import { waitUntil } from '../support/harness.js';
import { bearer, createUser } from '../support/identity.js';
import {
  countedInstalls,
  createVideo,
  type ListeningWorld,
  openListeningWorld,
  paidMessages,
} from '../support/listening-world.js';
import { type PageServer, startPageServer } from '../support/page-server.js';
import { PrivateRedisCluster } from '../support/private-redis-cluster.js';
import { finalVideo } from '../support/video-world.js';

const PREFIX = '{ockhub}';
const METRICS_TOKEN = 'cluster-test-metrics-token-0123456789';

let cluster: PrivateRedisCluster;
let w: ListeningWorld;
let site: PageServer;

beforeAll(async () => {
  cluster = await PrivateRedisCluster.start(3);
  site = await startPageServer();
  w = await openListeningWorld({
    REDIS_CLUSTER_NODES: cluster.nodes,
    REDIS_PREFIX: PREFIX,
    AUTH_FAILURES_PER_ACCOUNT: '2',
    METRICS_TOKEN,
    OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
  });
}, 90_000);

afterAll(async () => {
  await w?.close();
  await cluster?.dispose();
  await site?.close();
});

const auth = () => ({ authorization: `Bearer ${w.key}` });

/** Queues whose jobs completed in the worker process, read from BullMQ's completed sets on the cluster. */
async function completedQueues(): Promise<Set<QueueName>> {
  const done = new Set<QueueName>();
  for (const name of queueNames) {
    if ((await w.h.ctx.queues.queue(name).getCompletedCount()) > 0) done.add(name);
  }
  return done;
}

describe('on a 3-master Redis Cluster with the prefix {ockhub}', () => {
  it('serves 30 concurrent paid requests with an exact wallet (quota, wallet and key cache steps; ledger queue)', async () => {
    const { statuses, spentMicros } = await paidMessages(w, 30, 3);
    expect(statuses).toEqual(Array(30).fill(200));
    expect(spentMicros).toBeGreaterThan(0);
  });

  it('creates one video task for two concurrent requests with one Idempotency-Key and runs it to the end', async () => {
    const [a, b] = await Promise.all([1, 2].map(() => createVideo(w, { 'idempotency-key': 'kite-1' })));
    const statuses = [a?.status, b?.status].sort();
    // The second request either replays the first answer or is told the first is still in flight.
    expect([
      [200, 200],
      [200, 409],
    ]).toContainEqual(statuses);
    const id = (a?.status === 200 ? a : b)?.body.id as string;
    if (a?.status === 200 && b?.status === 200) expect(b.body.id).toBe(a.body.id);
    const done = await finalVideo(w, id);
    expect(done.status).toBe('completed');
    expect((await fetch(done.video_url)).status).toBe(200);
  });

  it('counts telemetry events once through the intake and the flush in the worker', async () => {
    const counted = await countedInstalls(w, ['a', 'b', 'c', 'a'], 3);
    expect(counted).toBe(3);
  });

  it('limits failed sign-ins per account with the sliding window', async () => {
    const user = await createUser(w.h);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await w.h.http.post('/api/v1/auth/login').send({ email: user.email, password: 'wrong password' });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 429]);
  });

  it('fetches a page through the web-fetch queue, the API waiting on QueueEvents over the cluster', async () => {
    const res = await w.h.http
      .post('/v1/web/fetch')
      .set(auth())
      .send({ urls: [`${site.origin}/article`] });
    expect(res.status).toBe(200);
    expect(res.body.items[0].title).toBe('The Lighthouse Logbooks');
  });

  it('runs one job of every queue in the worker process', async () => {
    const q = w.h.ctx.queues;
    // Jobs no API call above produced; each processor finds nothing to do for an unknown id and completes.
    const added = await Promise.all([
      q.add('skill-bundle', 'parse', { itemId: crypto.randomUUID(), versionId: crypto.randomUUID() }),
      q.add('quota', 'rollover', {}),
      q.add('alerts', 'test-alert', { alertId: crypto.randomUUID() }),
      q.add('maintenance', 'wallet-sweep', {}),
    ]);
    const states = await waitUntil(async () => {
      const now = await Promise.all(added.map((job) => job.getState()));
      return now.every((s) => s === 'completed' || s === 'failed') ? now : undefined;
    }, 40_000);
    expect(states).toEqual(added.map(() => 'completed'));
    // With the calls above (ledger, video, video-rehost, telemetry), every queue has completed a job; web-fetch
    // batches are removed once the API read them, and the fetch above is that queue's proof.
    const kept = queueNames.filter((name) => name !== 'web-fetch');
    expect([...(await completedQueues())].sort()).toEqual([...kept].sort());
    const failed = await Promise.all(queueNames.map((name) => q.queue(name).getFailed()));
    expect(failed.flat().map((j) => `${j.queueName}/${j.name}: ${j.failedReason}`)).toEqual([]);
  });

  it("lists the key's usage from the key cache counters, reports ready, and serves queue depths in /metrics", async () => {
    const owner = await createUser(w.h);
    const created = await w.h.http.post('/api/v1/api-keys').set(bearer(owner.session)).send({ name: 'counted' });
    await w.h.http.get('/api/v1/auth/me').set(bearer(created.body.token));
    await w.h.http.get('/api/v1/auth/me').set(bearer(created.body.token));
    const keys = await w.h.http.get('/api/v1/api-keys').set(bearer(created.body.token));
    expect(keys.status).toBe(200);
    const counted = keys.body.find((k: { id: string }) => k.id === created.body.id);
    // the list request itself is the third use of the key today
    expect(counted.usage).toEqual({ today: 3, total: 3 });
    const ready = await w.h.http.get('/ready');
    expect(ready.status).toBe(200);
    const metrics = await w.h.http.get('/metrics').set('authorization', `Bearer ${METRICS_TOKEN}`);
    expect(metrics.status).toBe(200);
    for (const name of queueNames) expect(metrics.text).toContain(`queue="${name}"`);
  });

  it('refuses a revoked key at once: the in-process key copy hears the invalidation over cluster pub/sub', async () => {
    const created = await w.h.http
      .post('/api/v1/api-keys')
      .set(bearer(w.org.admin.session))
      .send({ name: 'revoked soon', projectId: w.projectId });
    const ask = () =>
      w.h.http
        .post('/v1/messages')
        .set(bearer(created.body.token))
        .send({ model: 'claude-sonnet-5', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
    expect((await ask()).status).toBe(200);
    // The API process's subscriber is listening on one of the masters (NUMSUB counts a node's own subscribers).
    const channel = invalidationChannel(PREFIX);
    const subscribers = await Promise.all(
      cluster.ports.map(async (p) => Number((await cluster.cli(p, 'pubsub', 'numsub', channel)).split('\n')[1])),
    );
    expect(subscribers.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    const revoked = await w.h.http.delete(`/api/v1/api-keys/${created.body.id}`).set(bearer(w.org.admin.session));
    expect(revoked.status).toBeLessThan(300);
    expect((await ask()).status).toBe(401);
  });

  it('spreads organization keys over the masters and scans every master', async () => {
    // The few organizations above may all hash to one master (a one-in-nine chance for two); twelve more keys built
    // the way the wallet mirror builds them land on one master with a chance of about 1 in 177,000.
    for (let i = 0; i < 12; i++) {
      await w.h.ctx.redis.set(`${organizationKeyBase(PREFIX, randomUUID())}:probe`, '1', 'EX', 60);
    }
    const perNode = await cluster.keysPerNode();
    expect(perNode.filter((n) => n > 0).length).toBeGreaterThan(1);
    await w.worker.stop();
    // Queue and cache keys live under `{ockhub}`; organization and telemetry keys under `ockhub:{o:…}`/`ockhub:{tel}`.
    const deleted = await deleteKeysWithPrefix(w.h.ctx.redis, PREFIX);
    const organizationKeys = await deleteKeysWithPrefix(w.h.ctx.redis, 'ockhub:');
    expect(deleted).toBeGreaterThan(0);
    expect(organizationKeys).toBeGreaterThan(0);
    expect(await cluster.keysPerNode()).toEqual([0, 0, 0]);
  });

  it('left no cross-slot or cluster error in the worker output', () => {
    // Redis's own error words, in capitals as Redis writes them ("MOVED 3999 host:port", "ASK …", "CROSSSLOT …"):
    // case-insensitive, "ASK " also matched a video log's "task " and failed CI.
    expect(w.worker.logs.join('')).not.toMatch(/CROSSSLOT|\bMOVED \d|\bASK \d|ClusterAllFailed|hash slot|same slot/);
  });
});
