import { randomInt } from 'node:crypto';
import {
  type Actors,
  createActors,
  createCategory,
  createDraft,
  createNamespace,
  publishItem,
  setCounters,
  uniqueSlug,
} from '../support/catalog-factory.js';
import { createHarness, type Harness } from '../support/harness.js';
import { bearer } from '../support/identity.js';

let h: Harness;
let a: Actors;

const problem = (res: { text: string }) => JSON.parse(res.text);
/** A made-up word (letters only) that no other test data contains. */
const madeUpWord = () => `qz${Array.from({ length: 8 }, () => String.fromCharCode(97 + randomInt(26))).join('')}`;

type Summary = { id: string; slug: string; isFeatured: boolean; publishedAt: string; installCount: number };

async function allPages(path: string, pageSize: number): Promise<Summary[]> {
  const seen: Summary[] = [];
  for (let page = 1; ; page++) {
    const res = await h.http.get(`${path}&page=${page}&pageSize=${pageSize}`);
    expect(res.status).toBe(200);
    seen.push(...res.body.items);
    if (!res.body.hasNext) {
      expect(seen.length).toBe(res.body.total);
      return seen;
    }
  }
}

beforeAll(async () => {
  h = await createHarness();
  a = await createActors(h);
});
afterAll(async () => h.close());

describe('sorting with ties across pages', () => {
  const stats = new Map<string, { install: number; usage: number; ratingSum: number; ratingCount: number }>();
  let tag: string;

  beforeAll(async () => {
    tag = uniqueSlug('sort');
    for (let n = 0; n < 23; n++) {
      const item = await publishItem(h, a, 'mcp', { tags: [tag] });
      // Few distinct values, so most items tie with others on the sort key.
      const s = { install: n % 3, usage: n % 2 ? 7 : 0, ratingCount: n % 4, ratingSum: (n % 4) * ((n % 2) + 3) };
      stats.set(item.id, { ...s });
      await setCounters(h, item.id, {
        installCount: s.install,
        usageCount: s.usage,
        ratingSum: s.ratingSum,
        ratingCount: s.ratingCount,
      });
      if (n % 5 === 0) {
        await h.http
          .put(`/api/v1/moderation/mcp/${item.id}/featured`)
          .set(bearer(a.moderator.session))
          .send({ featured: true })
          .expect(200);
      }
    }
  });

  const average = (id: string) => {
    const s = stats.get(id)!;
    return s.ratingCount === 0 ? 0 : s.ratingSum / s.ratingCount;
  };
  /** Compares two neighbours: -1 if they are in order, 0 on a full tie (not allowed), 1 if out of order. */
  const keys: Record<string, (x: Summary) => (number | string)[]> = {
    popular: (x) => [stats.get(x.id)!.install, x.id],
    mostusage: (x) => [stats.get(x.id)!.usage, x.id],
    rating: (x) => [average(x.id), stats.get(x.id)!.ratingCount, x.id],
    featured: (x) => [x.isFeatured ? 1 : 0, x.publishedAt, x.id],
    latest: (x) => [x.publishedAt, x.id],
  };

  function expectDescending(items: Summary[], key: (x: Summary) => (number | string)[]) {
    for (let n = 1; n < items.length; n++) {
      const before = key(items[n - 1]!);
      const after = key(items[n]!);
      const firstDifferent = before.findIndex((v, k) => v !== after[k]);
      expect(firstDifferent).toBeGreaterThanOrEqual(0);
      expect(before[firstDifferent]! > after[firstDifferent]!).toBe(true);
    }
  }

  it.each(['popular', 'mostusage', 'rating', 'featured', 'latest'])(
    'sort=%s pages through every item exactly once, ties broken on id',
    async (sort) => {
      const items = await allPages(`/api/v1/mcp?tag=${tag}&sort=${sort}`, 4);
      expect(items).toHaveLength(23);
      expect(new Set(items.map((x) => x.id)).size).toBe(23);
      expectDescending(items, keys[sort]!);
    },
  );

  it('sorts by publish date, newest first, by default and for an unknown sort', async () => {
    const latest = await allPages(`/api/v1/mcp?tag=${tag}&sort=latest`, 23);
    expect((await allPages(`/api/v1/mcp?tag=${tag}`, 23)).map((x) => x.id)).toEqual(latest.map((x) => x.id));
    expect((await allPages(`/api/v1/mcp?tag=${tag}&sort=bogus`, 23)).map((x) => x.id)).toEqual(latest.map((x) => x.id));
  });

  it('puts featured items first with sort=featured', async () => {
    const items = await allPages(`/api/v1/mcp?tag=${tag}&sort=featured`, 10);
    const featured = items.filter((x) => x.isFeatured).length;
    expect(featured).toBe(5);
    expect(items.slice(0, 5).every((x) => x.isFeatured)).toBe(true);
  });
});

describe('search', () => {
  it('ranks name over summary over description, and an exact name first', async () => {
    const word = madeUpWord();
    const tag = uniqueSlug('search');
    const inDescription = await publishItem(h, a, 'skill', { tags: [tag], description: `Mentions ${word} once.` });
    const inSummary = await publishItem(h, a, 'skill', { tags: [tag], summary: `About ${word}.` });
    const inName = await publishItem(h, a, 'skill', { tags: [tag], name: `${word} Toolkit` });
    const noise = await publishItem(h, a, 'skill', {
      tags: [tag],
      name: `Big ${word} ${word} Suite`,
      summary: `${word} for ${word}`,
      description: `${word} ${word} ${word}`,
    });
    const exact = await publishItem(h, a, 'skill', { tags: [tag], name: word[0]!.toUpperCase() + word.slice(1) });
    await publishItem(h, a, 'skill', { tags: [tag], name: 'Unrelated' });

    const res = await h.http.get(`/api/v1/skill?tag=${tag}&search=${word}`);
    expect(res.status).toBe(200);
    const ids = res.body.items.map((x: Summary) => x.id);
    expect(res.body.total).toBe(5);
    expect(ids[0]).toBe(exact.id);
    expect(ids.indexOf(noise.id)).toBeLessThan(ids.indexOf(inSummary.id));
    expect(ids.indexOf(inName.id)).toBeLessThan(ids.indexOf(inSummary.id));
    expect(ids.indexOf(inSummary.id)).toBeLessThan(ids.indexOf(inDescription.id));
    expect(ids[4]).toBe(inDescription.id);
  });

  it('matches a prefix that English stemming would rewrite (happy → happi), whatever the made-up word', async () => {
    const tag = uniqueSlug('stem');
    const word = `${madeUpWord()}y`;
    const named = await publishItem(h, a, 'agent', { tags: [tag], name: `${word}hub Connector` });
    const res = await h.http.get(`/api/v1/agent?tag=${tag}&search=${word}`);
    expect(res.body.items.map((x: Summary) => x.id)).toEqual([named.id]);
  });

  it('matches a prefix of a word in the name', async () => {
    const word = madeUpWord();
    const tag = uniqueSlug('prefix');
    const named = await publishItem(h, a, 'agent', { tags: [tag], name: `${word}hub Connector` });
    await publishItem(h, a, 'agent', { tags: [tag], description: `Talks about ${word}hub.` });
    const res = await h.http.get(`/api/v1/agent?tag=${tag}&search=${word.slice(0, 6)}`);
    expect(res.body.items.map((x: Summary) => x.id)).toEqual([named.id]);
    const slugSearch = await h.http.get(`/api/v1/agent?tag=${tag}&search=${encodeURIComponent(named.slug)}`);
    expect(slugSearch.body.items[0]?.id).toBe(named.id);
  });

  it('follows an explicit sort instead of relevance', async () => {
    const word = madeUpWord();
    const tag = uniqueSlug('ssort');
    const nameHit = await publishItem(h, a, 'mcp', { tags: [tag], name: word });
    const popular = await publishItem(h, a, 'mcp', { tags: [tag], description: word });
    await setCounters(h, popular.id, { installCount: 50 });
    const relevance = await h.http.get(`/api/v1/mcp?tag=${tag}&search=${word}`);
    expect(relevance.body.items.map((x: Summary) => x.id)).toEqual([nameHit.id, popular.id]);
    const byPopularity = await h.http.get(`/api/v1/mcp?tag=${tag}&search=${word}&sort=popular`);
    expect(byPopularity.body.items.map((x: Summary) => x.id)).toEqual([popular.id, nameHit.id]);
  });

  it('answers an empty page for a search with no words and for one with no match', async () => {
    const tag = uniqueSlug('none');
    await publishItem(h, a, 'mcp', { tags: [tag] });
    for (const search of ['!!!', madeUpWord(), 'the']) {
      const res = await h.http.get(`/api/v1/mcp?tag=${tag}&search=${encodeURIComponent(search)}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ items: [], total: 0, hasNext: false });
    }
  });
});

describe('filters', () => {
  it('filters by category, tag and source', async () => {
    const tag = uniqueSlug('filter');
    const category = await createCategory(h, 'soul', 'persona');
    const official = await createNamespace(h, a.publisher, { verified: true });
    const inCategory = await publishItem(h, a, 'soul', { tags: [tag], categories: [category] });
    const fromOfficial = await publishItem(h, a, 'soul', { tags: [tag], namespace: official });
    await createDraft(h, a, 'soul', { tags: [tag], categories: [category] });

    const byCategory = await h.http.get(`/api/v1/soul?category=${category}`);
    expect(byCategory.body.items.map((x: Summary) => x.id)).toEqual([inCategory.id]);
    const officialOnly = await h.http.get(`/api/v1/soul?tag=${tag}&source=official`);
    expect(officialOnly.body.items.map((x: Summary) => x.id)).toEqual([fromOfficial.id]);
    expect(officialOnly.body.items[0]).toMatchObject({ source: 'official', isOfficial: true });
    const userOnly = await h.http.get(`/api/v1/soul?tag=${tag}&source=user`);
    expect(userOnly.body.items.map((x: Summary) => x.id)).toEqual([inCategory.id]);
    const both = await h.http.get(`/api/v1/soul?tag=${tag}&category=${category}&source=official`);
    expect(both.body.total).toBe(0);
  });

  it('answers pages past the end with an empty list and the true total', async () => {
    const tag = uniqueSlug('end');
    await publishItem(h, a, 'agent', { tags: [tag] });
    const res = await h.http.get(`/api/v1/agent?tag=${tag}&page=3&pageSize=1`);
    expect(res.body).toEqual({ items: [], page: 3, pageSize: 1, total: 1, hasNext: false });
  });
});

describe('bad list queries', () => {
  it.each([
    'page=0',
    'page=-1',
    'page=abc',
    'page=1.5',
    'pageSize=0',
    'pageSize=101',
    'source=community',
    'category=Not_A_Slug',
    'tag=%20',
    'page=1&page=2',
    `search=${'x'.repeat(201)}`,
  ])('answers 400 Catalog.InvalidQuery for %s', async (q) => {
    const res = await h.http.get(`/api/v1/mcp?${q}`);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(problem(res)).toMatchObject({ title: 'Catalog.InvalidQuery', status: 400, detail: expect.any(String) });
  });

  it('says a repeated parameter is given twice (zod said "expected string, received array")', async () => {
    for (const q of ['page=1&page=2', 'sort=popular&sort=rating', 'search=a&search=b']) {
      const res = await h.http.get(`/api/v1/mcp?${q}`);
      const name = q.split('=')[0];
      expect([res.status, problem(res).detail]).toEqual([400, `${name}: Give this parameter once.`]);
    }
  });

  it('accepts pageSize 1 and 100', async () => {
    expect((await h.http.get('/api/v1/mcp?pageSize=1')).body.pageSize).toBe(1);
    expect((await h.http.get('/api/v1/mcp?pageSize=100')).body.pageSize).toBe(100);
  });
});
