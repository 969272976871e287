import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { Agent, request } from 'undici';
import { catalogItems, mcpToolUsage, telemetryOnceEvents } from '../../shared/db/schema/index.js';
import { acceptTelemetry, type TelemetryInput } from '../../shared/telemetry/telemetry-ingest.js';
import { telemetryKeys } from '../../shared/telemetry/telemetry-keys.js';
import { type Actors, createActors, publishItem } from '../support/catalog-factory.js';
import { createHarness, type Harness, startProcess, type WorkerProcess, waitUntil } from '../support/harness.js';

let h: Harness;
let a: Actors;
let workers: WorkerProcess[];

beforeAll(async () => {
  // These tests send thousands of events from one address: the per-address limit has its own test file.
  h = await createHarness({ TELEMETRY_RATE_LIMIT_PER_MINUTE: '0' });
  a = await createActors(h);
  workers = await Promise.all([
    startProcess(h.env, { extraEnv: { WORKER_QUEUES: 'telemetry' } }),
    startProcess(h.env, { extraEnv: { WORKER_QUEUES: 'telemetry' } }),
  ]);
});
afterAll(async () => {
  for (const w of workers ?? []) await w.stop();
  await h.close();
});

const counters = async (id: string) => {
  const [row] = await h.ctx.db
    .select({
      viewCount: catalogItems.viewCount,
      installCount: catalogItems.installCount,
      usageCount: catalogItems.usageCount,
      favoriteCount: catalogItems.favoriteCount,
    })
    .from(catalogItems)
    .where(eq(catalogItems.id, id));
  return row;
};

/** Waits until the queue has drained and the counters reached what is expected (they are eventually exact). */
type Counters = NonNullable<Awaited<ReturnType<typeof counters>>>;

async function settle(id: string, expected: Partial<Counters>, timeoutMs = 30_000) {
  return waitUntil(
    async () => {
      const now = await counters(id);
      return Object.entries(expected).every(([k, v]) => now?.[k as keyof typeof now] === v) ? now : undefined;
    },
    timeoutMs,
    200,
  );
}

describe('POST /api/v1/telemetry', () => {
  it('records an event for a published item and answers {recorded:true}', async () => {
    const item = await publishItem(h, a, 'agent');
    const res = await h.http.post('/api/v1/telemetry').send({ itemType: 'agent', slug: item.slug, eventType: 'view' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ recorded: true });
    expect(await settle(item.id, { viewCount: 1 })).toMatchObject({ viewCount: 1 });
  });

  it.each([
    ['an unknown type', { itemType: 'plugin', slug: 'x', eventType: 'view' }],
    ['an unknown event', { itemType: 'mcp', slug: 'x', eventType: 'download' }],
    ['no slug', { itemType: 'mcp', eventType: 'view' }],
    ['a versionId that is not a uuid', { itemType: 'mcp', slug: 'x', eventType: 'view', versionId: '1.0.0' }],
  ])('refuses %s with 400', async (_label, body) => {
    const res = await h.http.post('/api/v1/telemetry').send(body);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).title).toBe('Telemetry.Invalid');
  });

  it('answers 404 for an unknown or unpublished slug', async () => {
    const res = await h.http
      .post('/api/v1/telemetry')
      .send({ itemType: 'mcp', slug: 'no-such-item', eventType: 'view' });
    expect(res.status).toBe(404);
    expect(JSON.parse(res.text).title).toBe('Mcp.NotFound');
  });
});

describe('POST /api/v1/telemetry with {events:[…]} (the batch form)', () => {
  it('records up to 100 events in one request and answers each in order', async () => {
    const item = await publishItem(h, a, 'mcp');
    const events = [
      { itemType: 'mcp', slug: item.slug, eventType: 'usage', clientId: 'batch-a', toolName: 'search' },
      { itemType: 'mcp', slug: item.slug, eventType: 'view', clientId: 'batch-a' },
      { itemType: 'mcp', slug: 'no-such-item', eventType: 'view' },
      { itemType: 'mcp', slug: item.slug, eventType: 'download' },
      { itemType: 'mcp', slug: item.slug, eventType: 'install', clientId: 'batch-a' },
      { itemType: 'mcp', slug: item.slug, eventType: 'install', clientId: 'batch-a' },
      { itemType: 'mcp', slug: item.slug, eventType: 'view', clientId: 'batch-a' },
    ];
    const res = await h.http.post('/api/v1/telemetry').send({ events });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      recorded: 5,
      results: [
        { recorded: true },
        { recorded: true },
        { recorded: false, error: { status: 404, code: 'Mcp.NotFound', message: expect.any(String) } },
        {
          recorded: false,
          error: { status: 400, code: 'Telemetry.Invalid', message: expect.stringMatching(/^eventType: /) },
        },
        { recorded: true },
        { recorded: true },
        { recorded: true },
      ],
    });
    // deduplicated like single events: one view, one install
    expect(await settle(item.id, { usageCount: 1, viewCount: 1, installCount: 1 })).toMatchObject({
      usageCount: 1,
      viewCount: 1,
      installCount: 1,
    });
  });

  it.each([
    ['an empty batch', { events: [] }],
    ['more than 100 events', { events: Array.from({ length: 101 }, () => ({})) }],
    ['events that are not a list', { events: 'view' }],
  ])('refuses %s with 400', async (_label, batch) => {
    const res = await h.http.post('/api/v1/telemetry').send(batch);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).title).toBe('Telemetry.Invalid');
  });
});

describe('deduplication (SPEC section 2)', () => {
  const send = (item: { slug: string }, input: Partial<TelemetryInput>, ip: string, now = new Date()) =>
    acceptTelemetry(h.ctx, { itemType: 'mcp', slug: item.slug, eventType: 'view', ...input }, { ip, now });

  it('keeps a dedup key only until an hour after its UTC day ends (issue 24: no per-event key outlives its use)', async () => {
    const item = await publishItem(h, a, 'mcp');
    const now = new Date();
    await send(item, { clientId: 'device-ttl' }, '10.0.0.9', now);
    await send(item, { clientId: 'device-ttl', eventType: 'usage' }, '10.0.0.9', now);
    const base = telemetryKeys(h.ctx.config.REDIS_PREFIX)
      .view(item.id, 'x', 'x')
      .replace(/:v:.*$/, '');
    const keys = [
      ...(await h.ctx.redis.keys(`${base}:v:${item.id}:*`)),
      ...(await h.ctx.redis.keys(`${base}:u:${item.id}:*`)),
    ];
    expect(keys).toHaveLength(2);
    const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
    const untilMidnight = Math.ceil((midnight - now.getTime()) / 1000);
    for (const key of keys) {
      const ttl = await h.ctx.redis.ttl(key);
      expect(ttl).toBeGreaterThan(3_600 - 5);
      expect(ttl).toBeLessThanOrEqual(untilMidnight + 3_600);
    }
    // Nothing per event remains: the intake leaves no marker per event id (a sender's `eventId` is the one exception).
    expect(await h.ctx.redis.keys(`${base}:*done*`)).toEqual([]);
  });

  it('counts a view once per client, item and UTC day', async () => {
    const item = await publishItem(h, a, 'mcp');
    const day1 = new Date('2026-11-20T10:00:00Z');
    const laterDay1 = new Date('2026-11-20T23:59:59Z');
    const day2 = new Date('2026-11-21T00:00:01Z');
    await send(item, { clientId: 'device-a' }, '10.0.0.1', day1);
    await send(item, { clientId: 'device-a' }, '10.0.0.2', laterDay1);
    await send(item, { clientId: 'device-b' }, '10.0.0.1', day1);
    await send(item, {}, '198.51.100.7', day1);
    await send(item, {}, '198.51.100.7', day1);
    await send(item, { clientId: 'device-a' }, '10.0.0.1', day2);
    expect(await settle(item.id, { viewCount: 4 })).toMatchObject({ viewCount: 4 });
  });

  it('counts install and favorite once per client and item, ever', async () => {
    const item = await publishItem(h, a, 'mcp');
    for (const day of ['2026-11-20T10:00:00Z', '2026-11-22T10:00:00Z']) {
      await send(item, { clientId: 'device-a', eventType: 'install' }, '10.0.0.1', new Date(day));
      await send(item, { clientId: 'device-a', eventType: 'favorite' }, '10.0.0.1', new Date(day));
    }
    await send(item, { clientId: 'device-b', eventType: 'install' }, '10.0.0.1');
    expect(await settle(item.id, { installCount: 2, favoriteCount: 1 })).toMatchObject({
      installCount: 2,
      favoriteCount: 1,
    });
    const stored = await h.ctx.db.select().from(telemetryOnceEvents).where(eq(telemetryOnceEvents.itemId, item.id));
    expect(stored.every((r) => /^[0-9a-f]{16}$/.test(r.clientHash))).toBe(true);
    expect(JSON.stringify(stored)).not.toContain('device-a');
  });

  it('counts every usage up to 1,000 per client, item and day, and MCP usage per tool', async () => {
    const item = await publishItem(h, a, 'mcp');
    const day = new Date('2026-11-20T12:00:00Z');
    await Promise.all(
      Array.from({ length: 1_003 }, (_, i) =>
        send(
          item,
          { clientId: 'busy-client', eventType: 'usage', toolName: i % 2 ? 'search' : 'fetch' },
          '10.0.0.1',
          day,
        ),
      ),
    );
    await send(
      item,
      { clientId: 'busy-client', eventType: 'usage', toolName: 'search' },
      '10.0.0.1',
      new Date('2026-11-21T12:00:00Z'),
    );
    await send(item, { clientId: 'other', eventType: 'usage' }, '10.0.0.1', day);
    expect(await settle(item.id, { usageCount: 1_002 })).toMatchObject({ usageCount: 1_002 });
    const tools = await h.ctx.db.select().from(mcpToolUsage).where(eq(mcpToolUsage.itemId, item.id));
    const byTool = Object.fromEntries(tools.map((t) => [t.toolName, t.usageCount]));
    expect((byTool.search ?? 0) + (byTool.fetch ?? 0)).toBe(1_001);
  });
});

describe('exact counters under load', () => {
  it('counts 20,000 events sent concurrently through the API exactly, with two workers', async () => {
    const item = await publishItem(h, a, 'skill');
    const server: Server = h.app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/telemetry`;
    const agent = new Agent({ connections: 64 });
    // 10,000 usage events from 20 clients (500 each) and 10,000 views from 5,000 clients (twice each).
    const events = [
      ...Array.from({ length: 10_000 }, (_, i) => ({ eventType: 'usage', clientId: `user-${i % 20}` })),
      ...Array.from({ length: 10_000 }, (_, i) => ({ eventType: 'view', clientId: `viewer-${i % 5_000}` })),
    ];
    let next = 0;
    let failures = 0;
    try {
      await Promise.all(
        Array.from({ length: 64 }, async () => {
          while (next < events.length) {
            const event = events[next++];
            const res = await request(url, {
              method: 'POST',
              dispatcher: agent,
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ itemType: 'skill', slug: item.slug, ...event }),
            });
            await res.body.dump();
            if (res.statusCode !== 200) failures++;
          }
        }),
      );
    } finally {
      await agent.close();
      await new Promise((r) => server.close(r));
    }
    expect(failures).toBe(0);
    expect(await settle(item.id, { usageCount: 10_000, viewCount: 5_000 }, 120_000)).toMatchObject({
      usageCount: 10_000,
      viewCount: 5_000,
    });
    // drained: nothing is left to flush, and the counters stay put
    const keys = telemetryKeys(h.config.REDIS_PREFIX);
    await waitUntil(
      async () =>
        (await h.ctx.redis.exists(keys.pending, keys.flushing)) === 0 && (await h.ctx.redis.xlen(keys.once)) === 0,
    );
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await counters(item.id)).toMatchObject({ usageCount: 10_000, viewCount: 5_000 });
  }, 240_000);
});
