// The telemetry intake's group commit: the requests that arrive while an intake step is in flight are taken in one
// Lua call, each exactly as if alone and in arrival order (per-address limit, dedup, counters), and a Redis error
// fails every request of that call as it fails a single one.
import { eq } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import { catalogItems } from '../../shared/db/schema/index.js';
import { duplicateRedis } from '../../shared/redis/connection.js';
import { clientHashOf } from '../../shared/telemetry/telemetry-ingest.js';
import { INTAKE_CALL_MAX_EVENTS, type IntakeEvent, intake } from '../../shared/telemetry/telemetry-intake.js';
import { counterField, telemetryKeys } from '../../shared/telemetry/telemetry-keys.js';
import { createActors, publishItem } from '../support/catalog-factory.js';
import { createHarness, type Harness, startProcess, type WorkerProcess, waitUntil } from '../support/harness.js';
import { freePort } from '../support/loopback-ports.js';
import { PrivateRedis } from '../support/private-redis.js';

const LIMIT = 5;

/**
 * A connection of the test's own (not auto-pipelined) that records the intake calls it sends: each still goes to
 * Redis as ever. Ready once the intake script is known to Redis, so no call is sent twice (NOSCRIPT, then EVAL).
 */
async function recordingConnection(redis: Redis, settings: { prefix: string; limitPerMinute: number }) {
  const connection = duplicateRedis(redis, { enableAutoPipelining: false, enableOfflineQueue: true });
  await intake(connection, settings, '198.51.100.250', [], new Date());
  const calls: string[][] = [];
  const sendCommand = connection.sendCommand.bind(connection);
  connection.sendCommand = (command, stream) => {
    if (command.name === 'evalsha' || command.name === 'eval') calls.push(command.args.map(String));
    return sendCommand(command, stream);
  };
  return { connection, calls };
}

/** How many events one intake call carried (a usage event names its dedup key, `…:{tel}:u:…`). */
const eventsOf = (args: string[]) => args.filter((a) => a.includes(':{tel}:u:')).length;

describe('on the shared Redis', () => {
  let h: Harness;
  let worker: WorkerProcess;

  beforeAll(async () => {
    h = await createHarness({ TELEMETRY_RATE_LIMIT_PER_MINUTE: String(LIMIT), TRUST_PROXY: '1' });
    worker = await startProcess(h.env, { extraEnv: { WORKER_QUEUES: 'telemetry' } });
  });
  afterAll(async () => {
    await worker.stop();
    await h.close();
  });

  const usageOf = async (id: string) =>
    (await h.ctx.db.select({ n: catalogItems.usageCount }).from(catalogItems).where(eq(catalogItems.id, id)))[0]?.n;

  it('takes the events waiting behind a call in one call of at most 100, each address limited in arrival order', async () => {
    const item = await publishItem(h, await createActors(h), 'skill');
    const settings = { prefix: h.config.REDIS_PREFIX, limitPerMinute: LIMIT };
    const addresses = ['198.51.100.1', '198.51.100.2', '198.51.100.3', '198.51.100.4'];
    // 250 single events, addresses interleaved unevenly; address 4 sends only 3 (under its limit).
    const arrivals = Array.from({ length: 250 }, (_, i) => (i < 3 ? addresses[3] : addresses[i % 3]) as string);
    const event = (i: number): IntakeEvent => ({
      itemId: item.id,
      eventType: 'usage',
      clientHash: clientHashOf(`g${i}`, item.id),
    });
    const { connection, calls } = await recordingConnection(h.ctx.redis, settings);
    try {
      // All in one turn, as requests that arrive together: the first leaves alone, the others wait for its answer
      // (or leave as soon as 100 of them wait).
      const taken = await Promise.all(
        arrivals.map((address, i) => intake(connection, settings, address, [event(i)], new Date())),
      );
      expect(calls).toHaveLength(1 + Math.ceil(249 / INTAKE_CALL_MAX_EVENTS));
      expect(calls.map(eventsOf)).toEqual([1, 100, 100, 49]);

      // The sequential rule: an address's first LIMIT events (in arrival order) are accepted, the others refused.
      const seen = new Map<string, number>();
      const expected = arrivals.map((address) => {
        const n = (seen.get(address) ?? 0) + 1;
        seen.set(address, n);
        return n <= LIMIT;
      });
      expect(taken.map((t) => t.accepted === 1)).toEqual(expected);
      for (const t of taken.filter((r) => r.accepted === 0)) {
        expect(t.retryAfterMs).toBeGreaterThan(0);
        expect(t.retryAfterMs).toBeLessThanOrEqual(60_000);
      }
      for (const t of taken.filter((r) => r.accepted === 1)) expect(t.retryAfterMs).toBe(0);
    } finally {
      connection.disconnect();
    }
    const accepted = 3 * LIMIT + 3;
    await waitUntil(async () => (await usageOf(item.id)) === accepted, 30_000, 200);
  });

  it('never splits a batch request, and never puts more than 100 events in one call', async () => {
    const item = await publishItem(h, await createActors(h), 'skill');
    const settings = { prefix: h.config.REDIS_PREFIX, limitPerMinute: 1_000 };
    const batch = (b: number): IntakeEvent[] =>
      Array.from({ length: 60 }, (_, k) => ({
        itemId: item.id,
        eventType: 'usage',
        clientHash: clientHashOf(`b${b}-${k}`, item.id),
      }));
    const { connection, calls } = await recordingConnection(h.ctx.redis, settings);
    try {
      // The first leaves alone; the second and third wait for it (or leave once 100 events wait), each in a call of
      // its own: 120 events would pass the bound.
      const taken = await Promise.all(
        [0, 1, 2].map((b) => intake(connection, settings, `198.51.100.${21 + b}`, batch(b), new Date())),
      );
      expect(taken).toEqual([0, 1, 2].map(() => ({ accepted: 60, retryAfterMs: 0 })));
      expect(calls.map(eventsOf)).toEqual([60, 60, 60]);
    } finally {
      connection.disconnect();
    }
    await waitUntil(async () => (await usageOf(item.id)) === 180, 30_000, 200);
  });

  it('answers concurrent single events from several addresses as one at a time would, and counts exactly', async () => {
    const item = await publishItem(h, await createActors(h), 'skill');
    const sends = { '203.0.113.31': 2, '203.0.113.32': LIMIT, '203.0.113.33': LIMIT + 4, '203.0.113.34': 3 * LIMIT };
    const requests = Object.entries(sends).flatMap(([address, n]) => Array.from({ length: n }, () => address));
    // interleaved (whether they share calls depends on timing here: the tests above prove the grouping)
    requests.sort(() => Math.random() - 0.5);
    const answers = await Promise.all(
      requests.map((address, i) =>
        h.http
          .post('/api/v1/telemetry')
          .set('x-forwarded-for', address)
          .send({ itemType: 'skill', slug: item.slug, eventType: 'usage', clientId: `c${i}` }),
      ),
    );
    for (const [address, n] of Object.entries(sends)) {
      const mine = answers.filter((_, i) => requests[i] === address);
      expect(mine.filter((r) => r.status === 200)).toHaveLength(Math.min(n, LIMIT));
      const refused = mine.filter((r) => r.status === 429);
      expect(refused).toHaveLength(Math.max(0, n - LIMIT));
      for (const res of refused) {
        expect(JSON.parse(res.text)).toMatchObject({ title: 'Telemetry.RateLimited', status: 429 });
        expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      }
    }
    const accepted = 2 + LIMIT + LIMIT + LIMIT;
    await waitUntil(async () => (await usageOf(item.id)) === accepted, 30_000, 200);
    const keys = telemetryKeys(h.config.REDIS_PREFIX);
    await waitUntil(async () => (await h.ctx.redis.hexists(keys.pending, counterField(item.id, 'usage'))) === 0);
    expect(await usageOf(item.id)).toBe(accepted);
  });
});

describe('when Redis refuses the grouped call', () => {
  let redis: PrivateRedis;
  let h: Harness;

  beforeAll(async () => {
    redis = await PrivateRedis.start();
    h = await createHarness({
      REDIS_URL: redis.url,
      TELEMETRY_RATE_LIMIT_PER_MINUTE: String(LIMIT),
      TRUST_PROXY: '1',
    });
  });
  afterAll(async () => {
    await h?.close();
    await redis?.dispose();
  });

  it('fails every request of the call with the error one request gets, counts none of them, and recovers', async () => {
    const item = await publishItem(h, await createActors(h), 'skill');
    const send = (address: string, clientId: string) =>
      h.http
        .post('/api/v1/telemetry')
        .set('x-forwarded-for', address)
        .send({ itemType: 'skill', slug: item.slug, eventType: 'usage', clientId });
    expect((await send('192.0.2.1', 'before')).status).toBe(200);

    // A demoted primary (a replica now, of a primary that is not there): Redis refuses the script at its first write,
    // which comes before any group is counted, so the call writes nothing.
    await h.ctx.redis.replicaof('127.0.0.1', String(await freePort()));
    try {
      const alone = await send('192.0.2.2', 'alone');
      expect(alone.status).toBe(500);
      const problem = ({ title, status, detail }: Record<string, unknown>) => ({ title, status, detail });
      expect(problem(JSON.parse(alone.text))).toMatchObject({ title: 'Server.Error', status: 500 });
      const addresses = ['192.0.2.3', '192.0.2.4', '192.0.2.5'];
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) => send(addresses[i % 3] as string, `oom${i}`)),
      );
      for (const res of answers) {
        expect(res.status).toBe(alone.status);
        expect(problem(JSON.parse(res.text))).toEqual(problem(JSON.parse(alone.text)));
      }

      // The same at the intake itself, with 150 events in one turn (two grouped calls behind the first): each
      // request is rejected with Redis's own error.
      const settings = { prefix: h.config.REDIS_PREFIX, limitPerMinute: LIMIT };
      const outcomes = await Promise.allSettled(
        Array.from({ length: 150 }, (_, i) =>
          intake(
            h.ctx.redis,
            settings,
            `192.0.2.${10 + (i % 50)}`,
            [{ itemId: item.id, eventType: 'usage', clientHash: clientHashOf(`x${i}`, item.id) }],
            new Date(),
          ),
        ),
      );
      for (const o of outcomes) {
        expect(o.status).toBe('rejected');
        expect(String((o as PromiseRejectedResult).reason)).toMatch(/READONLY/);
      }
    } finally {
      await h.ctx.redis.replicaof('NO', 'ONE');
    }

    // Nothing of the refused requests was written: one usage counted, no window of the refused addresses.
    const keys = telemetryKeys(h.config.REDIS_PREFIX);
    expect(await h.ctx.redis.hget(keys.pending, counterField(item.id, 'usage'))).toBe('1');
    for (const bucket of ['192.0.2.2', '192.0.2.3', '192.0.2.4', '192.0.2.5', '192.0.2.10']) {
      expect(await h.ctx.redis.exists(keys.rateLimit(bucket))).toBe(0);
    }

    // The intake is not stuck: concurrent requests are taken again, each address within its limit.
    const again = await Promise.all(Array.from({ length: 8 }, (_, i) => send('192.0.2.3', `after${i}`)));
    expect(again.filter((r) => r.status === 200)).toHaveLength(LIMIT);
    expect(again.filter((r) => r.status === 429)).toHaveLength(8 - LIMIT);
    expect(await h.ctx.redis.hget(keys.pending, counterField(item.id, 'usage'))).toBe(String(1 + LIMIT));
  });
});
