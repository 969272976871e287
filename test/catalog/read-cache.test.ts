import { eq } from 'drizzle-orm';
import { catalogItems } from '../../shared/db/schema/index.js';
import { type Actors, createActors, publishItem } from '../support/catalog-factory.js';
import { createHarness, type Harness } from '../support/harness.js';
import { bearer } from '../support/identity.js';

let h: Harness;
let a: Actors;

beforeAll(async () => {
  h = await createHarness({ CATALOG_READ_CACHE_MS: '60000' });
  a = await createActors(h);
});
afterAll(async () => h.close());

/** A write no catalog service made (as by another process): only the TTL makes it visible. */
const renameBehindTheCache = (id: string, name: string) =>
  h.ctx.db.update(catalogItems).set({ name }).where(eq(catalogItems.id, id));

describe('the in-process read cache of public reads', () => {
  it('answers repeated reads from the cache until a catalog write in this process drops it', async () => {
    const item = await publishItem(h, a, 'agent', { name: 'Before' });
    expect((await h.http.get(`/api/v1/agent/${item.slug}`)).body.name).toBe('Before');
    await renameBehindTheCache(item.id, 'Behind');
    const cached = await h.http.get(`/api/v1/agent/${item.slug}`);
    expect(cached.body.name).toBe('Before');
    expect(cached.headers.etag).toBeDefined();
    // A rating is a counter (it shows after the TTL, security review #77): the cached entry stays.
    await h.http.put(`/api/v1/agent/${item.slug}/rating`).set(bearer(a.outsider.apiKey)).send({ score: 4 }).expect(200);
    expect((await h.http.get(`/api/v1/agent/${item.slug}`)).body.name).toBe('Before');
    // Curation changes public data: every cached entry goes.
    await h.http
      .put(`/api/v1/moderation/agent/${item.id}/featured`)
      .set(bearer(a.moderator.session))
      .send({ featured: true })
      .expect(200);
    const fresh = await h.http.get(`/api/v1/agent/${item.slug}`);
    expect(fresh.body).toMatchObject({ name: 'Behind', isFeatured: true, stats: { ratingCount: 1 } });
  });

  it('never caches an error', async () => {
    expect((await h.http.get('/api/v1/soul/not-yet-there')).status).toBe(404);
    const soul = await publishItem(h, a, 'soul', { slug: 'not-yet-there' });
    expect((await h.http.get(`/api/v1/soul/${soul.slug}`)).status).toBe(200);
  });
});

describe('with CATALOG_READ_CACHE_MS=0', () => {
  it('reads the database every time', async () => {
    const uncached = await createHarness({ CATALOG_READ_CACHE_MS: '0' });
    try {
      const item = await publishItem(h, a, 'mcp', { name: 'One' });
      expect((await uncached.http.get(`/api/v1/mcp/${item.slug}`)).body.name).toBe('One');
      await renameBehindTheCache(item.id, 'Two');
      expect((await uncached.http.get(`/api/v1/mcp/${item.slug}`)).body.name).toBe('Two');
    } finally {
      await uncached.close();
    }
  });
});
