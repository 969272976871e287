// A rating does not empty the public read cache (security review #77). It did: every PUT of a rating, by any
// account with a console session (which counts no daily quota) at request speed, dropped every cached public read
// of the process, so each visitor's next read, of any page, went to PostgreSQL: one script defeated the cache for
// everyone. Ratings are counters like the telemetry's: they show in public reads within CATALOG_READ_CACHE_MS.
import { catalogReadCache, type PublicReadCache } from '../../api/http/read-cache.js';
import { type Actors, createActors, publishItem } from '../support/catalog-factory.js';
import { createHarness, type Harness, waitUntil } from '../support/harness.js';
import { bearer, createUser } from '../support/identity.js';

const TTL_MS = 2_000;
let h: Harness;
let a: Actors;

beforeAll(async () => {
  h = await createHarness({ CATALOG_READ_CACHE_MS: String(TTL_MS) });
  a = await createActors(h);
});
afterAll(() => h.close());

/** Counts the answers the cache stores from now on: each one a read that missed and went to PostgreSQL. */
function countStores(cache: PublicReadCache): { count: number; restore(): void } {
  const counter = { count: 0, restore: () => Reflect.deleteProperty(cache, 'put') };
  const put = cache.put.bind(cache);
  cache.put = (...args) => {
    counter.count++;
    return put(...args);
  };
  return counter;
}

it("one account's ratings at request speed leave other visitors' cached reads cached", async () => {
  const item = await publishItem(h, a, 'agent');
  const rater = await createUser(h);
  const visit = () => h.http.get('/api/v1/agent?sort=rating');
  expect((await visit()).status).toBe(200);

  const stores = countStores(catalogReadCache(h.ctx, 'catalog'));
  const started = Date.now();
  try {
    for (let i = 0; i < 20; i++) {
      const rated = await h.http
        .put(`/api/v1/agent/${item.slug}/rating`)
        .set(bearer(rater.session))
        .send({ score: 4 + (i % 2) });
      expect(rated.status).toBe(200);
      expect((await visit()).status).toBe(200);
    }
    // The visitor's reads are answered from the cache: a new copy only each time the last one expired.
    expect(stores.count).toBeLessThanOrEqual(Math.ceil((Date.now() - started) / TTL_MS));
  } finally {
    stores.restore();
  }

  // The rating shows once the cached answer expires.
  await waitUntil(async () => {
    const detail = await h.http.get(`/api/v1/agent/${item.slug}`);
    return detail.body.stats?.ratingCount === 1 && detail.body.ratingAverage === 5;
  });
});
