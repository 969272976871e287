// Public catalog and MCP Registry reads that miss the read cache are limited per client address (security review
// #76): each costs PostgreSQL a page query and its count, where a cached answer costs nothing, so one anonymous
// script with a unique `search` per request kept the API and the database saturated. Cached answers stay free.
import { admitPublicReadMiss, publicReadMissesPerMinute } from '../../shared/catalog/public-read-limit.js';
import { createRedis } from '../../shared/redis/connection.js';
import { createActors, publishItem } from '../support/catalog-factory.js';
import { createHarness, type Harness } from '../support/harness.js';

const LIMIT = 4;
let h: Harness;
let slug: string;

beforeAll(async () => {
  // A long TTL, so the cached answers of the test are still cached when it reads them again.
  h = await createHarness({
    PUBLIC_READ_MISSES_PER_ADDRESS_PER_MINUTE: String(LIMIT),
    CATALOG_READ_CACHE_MS: '60000',
    TRUST_PROXY: '1',
  });
  slug = (await publishItem(h, await createActors(h), 'mcp')).slug;
});
afterAll(() => h.close());

const from = (address: string, path: string) => h.http.get(path).set('x-forwarded-for', address);
const unique = (label: string, i: number) => `${label}${i}x${Math.random().toString(36).slice(2, 8)}`;

it('refuses the read past the limit of distinct uncached reads from one address: 429 problem+json, Retry-After', async () => {
  const address = '198.51.100.7';
  const first = `/api/v1/mcp?search=${unique('first', 0)}`;
  expect((await from(address, first)).status).toBe(200);
  for (let i = 1; i < LIMIT; i++) {
    expect((await from(address, `/api/v1/mcp?search=${unique('q', i)}`)).status).toBe(200);
  }

  const refused = await from(address, `/api/v1/mcp?search=${unique('over', 0)}`);
  expect(refused.status).toBe(429);
  expect(refused.headers['content-type']).toMatch(/application\/problem\+json/);
  expect(JSON.parse(refused.text)).toMatchObject({ title: 'Catalog.TooManyReads', status: 429 });
  expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
  // A detail that is not cached yet is a miss too.
  expect((await from(address, `/api/v1/mcp/${slug}/versions`)).status).toBe(429);

  // Cached answers are never refused: the first list, read again and again, and revalidated.
  for (let i = 0; i < 10; i++) {
    const again = await from(address, first);
    expect(again.status).toBe(200);
    const revalidated = await from(address, first).set('if-none-match', again.headers.etag as string);
    expect(revalidated.status).toBe(304);
  }

  // Another address has its own allowance, and once it has read the detail, the first address reads it cached.
  expect((await from('198.51.100.8', `/api/v1/mcp/${slug}/versions`)).status).toBe(200);
  expect((await from(address, `/api/v1/mcp/${slug}/versions`)).status).toBe(200);
});

it('limits the MCP Registry reads the same way, in the registry error shape', async () => {
  const address = '2001:db8:76::1';
  for (let i = 0; i < LIMIT; i++) {
    expect((await from(address, `/v0.1/servers?search=${unique('r', i)}`)).status).toBe(200);
  }
  // The same /64 is the same client.
  const refused = await from('2001:db8:76::2', `/v0.1/servers?search=${unique('r', LIMIT)}`);
  expect(refused.status).toBe(429);
  expect(refused.body).toEqual({ error: expect.stringContaining('Too many') });
  expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(refused.headers['access-control-allow-origin']).toBe('*');
  expect(refused.headers['access-control-expose-headers']).toMatch(/Retry-After/);
  expect((await from('2001:db8:77::1', `/v0.1/servers?search=${unique('r', 0)}`)).status).toBe(200);
});

it('lets a miss through when Redis cannot answer: catalog reads need only PostgreSQL', async () => {
  // An API connection to a port nothing listens on: it refuses commands at once, as during an outage.
  const down = createRedis({ REDIS_URL: 'redis://127.0.0.1:1/0' }, 'api');
  try {
    await expect(admitPublicReadMiss({ ...h.ctx, redis: down }, '198.51.100.9')).resolves.toBeUndefined();
  } finally {
    down.disconnect();
  }
});

it('allows 300 a minute in production by default, and none is counted elsewhere unless the setting says so', () => {
  const unset = { ...h.config, PUBLIC_READ_MISSES_PER_ADDRESS_PER_MINUTE: undefined };
  expect(publicReadMissesPerMinute({ ...unset, NODE_ENV: 'production' })).toBe(300);
  expect(publicReadMissesPerMinute({ ...unset, NODE_ENV: 'development' })).toBe(0);
  expect(publicReadMissesPerMinute({ ...unset, NODE_ENV: 'test' })).toBe(0);
  expect(
    publicReadMissesPerMinute({ ...unset, NODE_ENV: 'production', PUBLIC_READ_MISSES_PER_ADDRESS_PER_MINUTE: 0 }),
  ).toBe(0);
  expect(publicReadMissesPerMinute(h.config)).toBe(LIMIT);
});
