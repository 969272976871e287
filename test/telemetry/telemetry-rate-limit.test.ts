// SPEC section 2: anonymous telemetry is limited per client address (TELEMETRY_RATE_LIMIT_PER_MINUTE); over it the
// answer is 429 and nothing is counted.
import { eq } from 'drizzle-orm';
import { catalogItems } from '../../shared/db/schema/index.js';
import { telemetryKeys } from '../../shared/telemetry/telemetry-keys.js';
import { createActors, publishItem } from '../support/catalog-factory.js';
import { createHarness, type Harness, startProcess, type WorkerProcess, waitUntil } from '../support/harness.js';

const LIMIT = 5;
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

const send = (slug: string, address: string, clientId: string) =>
  h.http
    .post('/api/v1/telemetry')
    .set('x-forwarded-for', address)
    .send({ itemType: 'skill', slug, eventType: 'usage', clientId });

const usageOf = async (id: string) =>
  (await h.ctx.db.select({ n: catalogItems.usageCount }).from(catalogItems).where(eq(catalogItems.id, id)))[0]?.n;

it('answers 429 with Retry-After over the per-address limit and counts only the accepted events', async () => {
  const item = await publishItem(h, await createActors(h), 'skill');
  const answers = await Promise.all(
    Array.from({ length: LIMIT + 3 }, (_, i) => send(item.slug, '203.0.113.10', `client-${i}`)),
  );
  expect(answers.filter((r) => r.status === 200)).toHaveLength(LIMIT);
  const refused = answers.filter((r) => r.status === 429);
  expect(refused).toHaveLength(3);
  for (const res of refused) {
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(JSON.parse(res.text)).toMatchObject({ title: 'Telemetry.RateLimited', status: 429 });
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
  }
  // Another address has its own allowance.
  expect((await send(item.slug, '203.0.113.11', 'elsewhere')).status).toBe(200);

  await waitUntil(async () => (await usageOf(item.id)) === LIMIT + 1, 30_000, 200);
  const keys = telemetryKeys(h.config.REDIS_PREFIX);
  await waitUntil(async () => (await h.ctx.redis.exists(keys.pending, keys.flushing)) === 0);
  expect(await usageOf(item.id)).toBe(LIMIT + 1);
});

it('counts a batch against the same limit, event by event: the ones over it are refused alone', async () => {
  const item = await publishItem(h, await createActors(h), 'skill');
  const event = (i: number) => ({ itemType: 'skill', slug: item.slug, eventType: 'usage', clientId: `b${i}` });
  const address = '203.0.113.20';
  expect((await send(item.slug, address, 'first')).status).toBe(200);
  const res = await h.http
    .post('/api/v1/telemetry')
    .set('x-forwarded-for', address)
    .send({ events: Array.from({ length: LIMIT + 2 }, (_, i) => event(i)) });
  expect(res.status).toBe(200);
  expect(res.body.recorded).toBe(LIMIT - 1);
  expect(res.body.results.slice(LIMIT - 1)).toEqual(
    Array.from({ length: 3 }, () => ({
      recorded: false,
      error: { status: 429, code: 'Telemetry.RateLimited', message: expect.any(String) },
    })),
  );
  expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  // a batch with nothing left to record is refused as a whole, like a single event
  const refused = await h.http
    .post('/api/v1/telemetry')
    .set('x-forwarded-for', address)
    .send({ events: [event(9)] });
  expect(refused.status).toBe(429);
  expect(JSON.parse(refused.text)).toMatchObject({ title: 'Telemetry.RateLimited' });
  await waitUntil(async () => (await usageOf(item.id)) === LIMIT, 30_000, 200);
});

it('is off with a limit of 0', async () => {
  const open = await createHarness({ TELEMETRY_RATE_LIMIT_PER_MINUTE: '0' });
  try {
    const item = await publishItem(open, await createActors(open), 'skill');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        open.http
          .post('/api/v1/telemetry')
          .send({ itemType: 'skill', slug: item.slug, eventType: 'view', clientId: `c${i}` }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
  } finally {
    await open.close();
  }
});
