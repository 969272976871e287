// The public read cache's memory is bounded (api/http/read-cache.ts): a flood of distinct URLs for the same answer
// keeps one copy, a flood of distinct answers stays within the byte budget, and nothing is held once the TTL has
// passed, even when no request follows. From a security review's proof: the cache was keyed by the raw URL and
// bounded by entry count only, so `?n=1`, `?n=2`, ... on a ~1 MB detail held ~1 GB per process, for ever.
import { catalogReadCache, PublicReadCache } from '../../api/http/read-cache.js';
import { type Actors, createActors, publishItem } from '../support/catalog-factory.js';
import { createHarness, type Harness } from '../support/harness.js';

const TTL_MS = 1_500;
let h: Harness;
let a: Actors;

beforeAll(async () => {
  h = await createHarness({ CATALOG_READ_CACHE_MS: String(TTL_MS) });
  a = await createActors(h);
});
afterAll(async () => h.close());

/** A detail of ~1 MB (readme and tools), just under the 1 MiB a cached body may have. */
const bigVersion = {
  version: '1.0.0',
  readme: 'r'.repeat(200_000),
  tools: Array.from({ length: 200 }, (_, i) => ({ name: `tool-${i}`, description: 'd'.repeat(4000) })),
};

const pastTheTtl = () => new Promise((r) => setTimeout(r, TTL_MS + 300));

/** The keys a cache stores under from now on (a slow machine may store one key again once it expired). */
function keysStored(cache: PublicReadCache): Set<string> {
  const keys = new Set<string>();
  const put = cache.put.bind(cache);
  cache.put = (key, ...rest) => {
    keys.add(key);
    return put(key, ...rest);
  };
  restores.push(() => Reflect.deleteProperty(cache, 'put'));
  return keys;
}

const restores: (() => void)[] = [];
afterEach(() => {
  for (const restore of restores.splice(0)) restore();
});

describe('the public read cache under a flood of query strings', () => {
  it('keeps one copy of a detail however many junk parameters ask for it, and none after the TTL', async () => {
    const cache = catalogReadCache(h.ctx, 'catalog');
    const item = await publishItem(h, a, 'mcp', { version: bigVersion });
    const stored = keysStored(cache);
    const etags = new Set<string>();
    let bodyBytes = 0;
    const encoded = `%${item.slug.charCodeAt(0).toString(16)}${item.slug.slice(1)}`;
    const variants = [`/api/v1/mcp/${item.slug}/`, `/API/v1/mcp/${encoded}`];
    for (let n = 0; n < 60; n++) {
      const res = await h.http.get(`${variants[n % 2]}?n=${n}&page=${n}`);
      expect(res.status).toBe(200);
      etags.add(res.headers.etag as string);
      bodyBytes = Number(res.headers['content-length']);
    }
    expect(bodyBytes).toBeGreaterThan(1_000_000);
    expect(etags.size).toBe(1);
    expect(stored.size).toBe(1);
    expect(cache.size).toBeLessThanOrEqual(1);
    expect(cache.bytes).toBeLessThan(bodyBytes + 1_024);
    // Nothing reads the item again: the sweep alone gives the memory back (it held ~60 MB for ever before).
    await pastTheTtl();
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
  }, 60_000);

  it('keys a list on the parameters it reads, in any order, not on others', async () => {
    const stored = keysStored(catalogReadCache(h.ctx, 'catalog'));
    for (let n = 0; n < 20; n++) {
      const query = n % 2 === 0 ? `sort=latest&pageSize=5&junk=${n}` : `junk=${n}&pageSize=5&sort=latest`;
      expect((await h.http.get(`/api/v1/skill?${query}`)).status).toBe(200);
    }
    expect(stored.size).toBe(1);
    expect((await h.http.get('/api/v1/skill?sort=latest&pageSize=6')).status).toBe(200);
    expect(stored.size).toBe(2);
  });

  it('keys the MCP registry list on its own parameters too', async () => {
    const stored = keysStored(catalogReadCache(h.ctx, 'mcp-registry'));
    for (let n = 0; n < 20; n++) expect((await h.http.get(`/v0.1/servers?limit=3&n=${n}`)).status).toBe(200);
    expect(stored.size).toBe(1);
  });
});

describe('PublicReadCache bounds', () => {
  const limits = { maxBytes: 64 * 1_024, maxBodyBytes: 8 * 1_024 };

  it('stays within its byte budget under distinct answers, dropping the oldest first', () => {
    const cache = new PublicReadCache(60_000, limits);
    const body = 'x'.repeat(4_000);
    for (let n = 0; n < 1_000; n++) {
      cache.put(`key-${n}`, `${n}${body}`, 'text/plain', cache.begin());
      expect(cache.bytes).toBeLessThanOrEqual(limits.maxBytes);
    }
    expect(cache.size).toBeGreaterThanOrEqual(14); // 64 KiB of ~4.3 KB entries
    expect(cache.get('key-999')?.body.toString()).toBe(`999${body}`);
    expect(cache.get('key-0')).toBeUndefined();
  });

  it('answers but never stores a body over the per-body limit', () => {
    const cache = new PublicReadCache(60_000, limits);
    const answer = cache.put('big', 'x'.repeat(limits.maxBodyBytes + 1), 'text/plain', cache.begin());
    expect(answer.body.length).toBe(limits.maxBodyBytes + 1);
    expect(answer.etag).toMatch(/^"/);
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
  });

  it('replacing a key does not count it twice', () => {
    const cache = new PublicReadCache(60_000, limits);
    for (let n = 0; n < 100; n++) cache.put('same', 'x'.repeat(1_000), 'text/plain', cache.begin());
    expect(cache.size).toBe(1);
    expect(cache.bytes).toBeLessThan(1_000 + 512);
  });

  it('gives every byte back once its entries expire, with no further reads or writes', async () => {
    const cache = new PublicReadCache(50, limits);
    for (let n = 0; n < 10; n++) cache.put(`key-${n}`, 'x'.repeat(1_000), 'text/plain', cache.begin());
    expect(cache.bytes).toBeGreaterThan(10_000);
    await new Promise((r) => setTimeout(r, 120));
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
  });

  it('drops everything on clear, and a read begun before it stores nothing', () => {
    const cache = new PublicReadCache(60_000, limits);
    const since = cache.begin();
    cache.put('a', 'x', 'text/plain', since);
    cache.clear();
    cache.put('b', 'y', 'text/plain', since);
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
  });
});
