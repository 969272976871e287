// A redistributor's trial (docs/telemetry.md, 2026-11-28): an agent app's backend relays its users' events to the
// hub from one server address, in 100-event batches, over public HTTP only (fetch), as such a relay would: bursts of
// batches at once, a batch whose answer was lost and is sent again, a malformed event and unknown slugs among good
// ones. After the workers drain, the counters on the public item pages are exactly what the day's events make.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { telemetryKeys } from '../../shared/telemetry/telemetry-keys.js';
import { type Actors, createActors, publishItem } from '../support/catalog-factory.js';
import { createHarness, type Harness, startProcess, type WorkerProcess, waitUntil } from '../support/harness.js';

const LIMIT = 2_000;
let h: Harness;
let a: Actors;
let worker: WorkerProcess;
let server: Server;
let base: string;

beforeAll(async () => {
  // The relay sits behind one load balancer of the hub (TRUST_PROXY 1), so each test names its relay's address.
  h = await createHarness({ TELEMETRY_RATE_LIMIT_PER_MINUTE: String(LIMIT), TRUST_PROXY: '1' });
  a = await createActors(h);
  worker = await startProcess(h.env, { extraEnv: { WORKER_QUEUES: 'telemetry' } });
  server = h.app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server?.close(r));
  await worker?.stop();
  await h?.close();
});

type Event = Record<string, unknown>;
type Result = { recorded: true } | { recorded: false; error: { status: number; code: string; message: string } };

async function post(relay: string, events: Event[]) {
  const res = await fetch(`${base}/api/v1/telemetry`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': relay },
    body: JSON.stringify({ events }),
  });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() };
}

const chunks = <T>(list: T[], size: number) =>
  Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));

const publicCounters = async (type: string, slug: string) => {
  const res = await fetch(`${base}/api/v1/${type}/${slug}`);
  const { stats: item } = (await res.json()) as { stats: Record<string, number> };
  return {
    viewCount: item.viewCount,
    installCount: item.installCount,
    usageCount: item.usageCount,
    favoriteCount: item.favoriteCount,
  };
};

it('counts a relayed day exactly: bursts, a batch sent again after a lost answer, bad events refused alone', async () => {
  const items = [
    { type: 'mcp', slug: (await publishItem(h, a, 'mcp')).slug },
    { type: 'skill', slug: (await publishItem(h, a, 'skill')).slug },
    { type: 'agent', slug: (await publishItem(h, a, 'agent')).slug },
  ];
  const relay = '198.51.100.40';
  // 120 users of the app; the relay sends each user's id as clientId (never the relay's address for all of them).
  const events: Event[] = [];
  let seq = 0;
  const add = (e: Event) => events.push({ ...e, eventId: `relay-${seq++}` });
  for (let u = 0; u < 120; u++) {
    const clientId = `user-${u}`;
    const item = items[u % 3] as (typeof items)[number];
    add({ itemType: item.type, slug: item.slug, eventType: 'view', clientId });
    if (u % 2 === 0) add({ itemType: item.type, slug: item.slug, eventType: 'view', clientId }); // a second look
    if (u % 4 === 0) add({ itemType: item.type, slug: item.slug, eventType: 'install', clientId });
    if (u % 8 === 0) add({ itemType: item.type, slug: item.slug, eventType: 'install', clientId }); // reinstall
    if (u % 5 === 0) add({ itemType: item.type, slug: item.slug, eventType: 'favorite', clientId });
    for (let k = 0; k < u % 4; k++) {
      add({ itemType: item.type, slug: item.slug, eventType: 'usage', clientId, toolName: `tool-${k}` });
    }
  }
  // What SPEC's rules make of these: a view once per user and item today, an install and a favorite once per user
  // and item, every usage.
  const expected = new Map(
    items.map((i) => [i.slug, { viewCount: 0, installCount: 0, usageCount: 0, favoriteCount: 0 }]),
  );
  const seen = new Set<string>();
  for (const e of events) {
    const counts = expected.get(e.slug as string);
    if (!counts) continue;
    const key = `${e.eventType}|${e.clientId}|${e.slug}`;
    if (e.eventType === 'usage') counts.usageCount++;
    else if (!seen.has(key)) counts[`${e.eventType}Count` as keyof typeof counts]++;
    seen.add(key);
  }
  // A malformed event and unknown slugs among the good ones, as a client of an older catalog sends them.
  events.splice(10, 0, { itemType: 'mcp', eventType: 'usage', clientId: 'user-1' });
  events.splice(40, 0, { itemType: 'mcp', slug: 'withdrawn-item', eventType: 'view', clientId: 'user-2' });
  events.splice(150, 0, { itemType: 'plugin', slug: items[0]?.slug, eventType: 'view', clientId: 'user-3' });
  events.splice(230, 0, { itemType: 'skill', slug: 'renamed-skill', eventType: 'install', clientId: 'user-4' });
  const batches = chunks(events, 100);
  expect(batches.length).toBeGreaterThan(2);

  // A burst: every batch at once.
  const answers = await Promise.all(batches.map((b) => post(relay, b)));
  const results = answers.flatMap((r) => {
    expect(r.status).toBe(200);
    return (r.body as { results: Result[] }).results;
  });
  expect(results).toHaveLength(events.length);
  const refused = results.flatMap((r, i) => (r.recorded ? [] : [{ i, ...r.error }]));
  expect(refused).toEqual([
    expect.objectContaining({ i: 10, status: 400, code: 'Telemetry.Invalid' }),
    expect.objectContaining({ i: 40, status: 404, code: 'Mcp.NotFound' }),
    expect.objectContaining({ i: 150, status: 400, code: 'Telemetry.Invalid' }),
    expect.objectContaining({ i: 230, status: 404, code: 'Skill.NotFound' }),
  ]);
  expect(answers.reduce((n, r) => n + (r.body as { recorded: number }).recorded, 0)).toBe(events.length - 4);

  // The relay's request for the usage-heavy batch timed out on its side after the hub had taken it: the relay sends
  // the same batch again (the same events, the same eventIds). It must not count twice.
  const again = await post(relay, batches[batches.length - 1] as Event[]);
  expect(again.status).toBe(200);

  for (const item of items) {
    const want = expected.get(item.slug);
    const got = await waitUntil(
      async () => {
        const now = await publicCounters(item.type, item.slug);
        return JSON.stringify(now) === JSON.stringify(want) ? now : undefined;
      },
      30_000,
      250,
    ).catch(async () => publicCounters(item.type, item.slug));
    expect({ slug: item.slug, ...got }).toEqual({ slug: item.slug, ...want });
  }
  // Exact after the drain, not just once: no late flush adds the retried events.
  const keys = telemetryKeys(h.config.REDIS_PREFIX);
  await waitUntil(async () => (await h.ctx.redis.exists(keys.pending, keys.flushing)) === 0, 30_000, 100);
  await waitUntil(async () => (await h.ctx.redis.xlen(keys.once)) === 0, 30_000, 100);
  for (const item of items) {
    await waitUntil(
      async () =>
        JSON.stringify(await publicCounters(item.type, item.slug)) === JSON.stringify(expected.get(item.slug)),
      10_000,
      250,
    );
  }
});

it('tells a relay over its address limit which events to send again, and when', async () => {
  const item = await publishItem(h, a, 'mcp');
  const relay = '198.51.100.41';
  const usage = (i: number) => ({
    itemType: 'mcp',
    slug: item.slug,
    eventType: 'usage',
    clientId: `u${i % 50}`,
    eventId: `e${i}`,
  });
  const events = Array.from({ length: LIMIT + 50 }, (_, i) => usage(i));
  // A first batch of 50, then full ones: the last batch reaches 50 past the limit.
  const batches = [events.slice(0, 50), ...chunks(events.slice(50), 100)];
  const answers = [];
  for (const b of batches) answers.push(await post(relay, b));
  // The first LIMIT events fit; the last batch is half taken: 200, its last 50 results 429, and a Retry-After.
  const last = answers[answers.length - 1] as Awaited<ReturnType<typeof post>>;
  expect(last.status).toBe(200);
  expect(Number(last.retryAfter)).toBeGreaterThanOrEqual(1);
  const lastResults = (last.body as { results: Result[] }).results;
  expect(lastResults.slice(0, 50).every((r) => r.recorded)).toBe(true);
  expect(lastResults.slice(50).every((r) => !r.recorded && r.error.status === 429)).toBe(true);
  // A batch wholly over the limit: 429 problem, Retry-After, nothing counted.
  const over = await post(relay, [usage(LIMIT + 50)]);
  expect(over.status).toBe(429);
  expect(Number(over.retryAfter)).toBeGreaterThanOrEqual(1);
  expect(over.body).toMatchObject({ title: 'Telemetry.RateLimited', status: 429 });
  const got = await waitUntil(
    async () => ((await publicCounters('mcp', item.slug)).usageCount === LIMIT ? true : undefined),
    30_000,
    250,
  ).catch(() => false);
  expect(got).toBe(true);
});

it('counts one event sent again with its eventId once, through the lean lane too; a non-string eventId is ignored', async () => {
  const item = await publishItem(h, a, 'skill');
  const relay = '198.51.100.42';
  const one = async (event: Event) => {
    const res = await fetch(`${base}/api/v1/telemetry`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': relay },
      body: JSON.stringify({ itemType: 'skill', slug: item.slug, eventType: 'usage', ...event }),
    });
    return { status: res.status, body: await res.json() };
  };
  // The same event three times (the answer lost twice): one usage.
  for (let i = 0; i < 3; i++) expect(await one({ clientId: 'user-a', eventId: 'ev-1' })).toEqual(ok);
  // Another user's event with the same id is another event; so is a new id of the same user.
  expect(await one({ clientId: 'user-b', eventId: 'ev-1' })).toEqual(ok);
  expect(await one({ clientId: 'user-a', eventId: 'ev-2' })).toEqual(ok);
  // Without eventId every usage counts, as SPEC says; an eventId that is not a string is not refused, only unused.
  expect(await one({ clientId: 'user-a' })).toEqual(ok);
  expect(await one({ clientId: 'user-a' })).toEqual(ok);
  expect(await one({ clientId: 'user-a', eventId: 7 })).toEqual(ok);
  expect(await one({ clientId: 'user-a', eventId: 7 })).toEqual(ok);
  const counted = await waitUntil(
    async () => ((await publicCounters('skill', item.slug)).usageCount === 7 ? true : undefined),
    30_000,
    250,
  ).catch(() => false);
  expect(counted).toBe(true);
  // The remembered ids are hashed (the sender's id is never stored) and leave after 24 hours.
  const sentKeys = await h.ctx.redis.keys(telemetryKeys(h.config.REDIS_PREFIX).sent('*'));
  expect(sentKeys.length).toBeGreaterThanOrEqual(3);
  expect(sentKeys.join()).not.toContain('ev-1');
  for (const key of sentKeys) expect(await h.ctx.redis.ttl(key)).toBeLessThanOrEqual(86_400);
  for (const key of sentKeys) expect(await h.ctx.redis.ttl(key)).toBeGreaterThan(86_000);
});

const ok = { status: 200, body: { recorded: true } };

describe('a relay the operator names in TRUST_PROXY (docs/telemetry.md)', () => {
  let own: Harness;
  beforeAll(async () => {
    // The relay connects from loopback here; the operator trusts it as a proxy, so each user's address it forwards
    // is the address the limit counts.
    own = await createHarness({ TELEMETRY_RATE_LIMIT_PER_MINUTE: '3', TRUST_PROXY: 'loopback' });
  });
  afterAll(async () => {
    await own?.close();
  });

  it("limits each forwarded user's address on its own", async () => {
    const item = await publishItem(own, await createActors(own), 'agent');
    const send = (user: string) =>
      own.http
        .post('/api/v1/telemetry')
        .set('x-forwarded-for', user)
        .send({ events: [{ itemType: 'agent', slug: item.slug, eventType: 'usage', clientId: user }] });
    for (let i = 0; i < 3; i++) expect((await send('192.0.2.1')).status).toBe(200);
    expect((await send('192.0.2.1')).status).toBe(429);
    expect((await send('192.0.2.2')).status).toBe(200);
  });
});
