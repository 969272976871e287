// Security review #152: telemetry's in-process cache of slugs held published items and unknown slugs in one map,
// emptied whole once it passed 50,000 entries. Anyone naming 50,001 made-up slugs (#147 counts them per address, so
// from 167 addresses for a minute, or one IPv6 /48) emptied it, and every client's next event for every item was a
// PostgreSQL lookup again, counted against that client's own allowance of uncached reads. Unknown slugs now have a
// bounded map of their own, and the events of a batch that name one slug share one lookup, counted once.
import { jest } from '@jest/globals';
import { createActors, publishItem } from '../support/catalog-factory.js';
import { createHarness, type Harness } from '../support/harness.js';

jest.setTimeout(300_000);
let h: Harness;

afterEach(async () => {
  jest.restoreAllMocks();
  await h?.close();
});

const events = (slugs: string[]) => ({
  events: slugs.map((slug) => ({ itemType: 'skill', slug, eventType: 'view', clientId: 'c' })),
});
const codes = (body: { results: { error?: { code: string } }[] }) =>
  body.results.map((r) => r.error?.code ?? 'recorded');

it('keeps a published item it looked up while made-up slugs pass the old bound of 50,000', async () => {
  h = await createHarness({ PUBLIC_READ_MISSES_PER_ADDRESS_PER_MINUTE: '0' });
  const a = await createActors(h);
  const item = await publishItem(h, a, 'skill');
  const first = await h.http.post('/api/v1/telemetry').send(events([item.slug]));
  expect(codes(first.body)).toEqual(['recorded']);
  // The witness that no lookup happens later: the item leaves the catalog, which a lookup would see (404), while
  // the process's cached id stays good for its 60 s.
  const unpublished = await h.http
    .post(`/api/v1/publisher/skill/${item.id}/unpublish`)
    .set('authorization', `Bearer ${a.publisher.session}`)
    .send({});
  expect(unpublished.status).toBe(200);

  // The process's clock stands still while the slugs are sent, so the item's 60 s stays good however slow the
  // machine is (the cache reads Date.now; Redis and PostgreSQL keep their own clocks).
  const now = Date.now();
  const clock = jest.spyOn(Date, 'now').mockReturnValue(now);
  const run = `made-up-${now}`;
  for (let batch = 0; batch < 501; batch++) {
    const slugs = Array.from({ length: 100 }, (_, i) => `${run}-${batch}-${i}`);
    const res = await h.http.post('/api/v1/telemetry').send(events(slugs));
    expect([res.status, res.body.results ? 'results' : res.text]).toEqual([200, 'results']);
    expect(new Set(codes(res.body))).toEqual(new Set(['Skill.NotFound']));
  }

  const after = await h.http.post('/api/v1/telemetry').send(events([item.slug]));
  clock.mockRestore();
  expect(codes(after.body)).toEqual(['recorded']);
});

it('counts one lookup for the events of a batch that name one slug', async () => {
  h = await createHarness({ PUBLIC_READ_MISSES_PER_ADDRESS_PER_MINUTE: '5', TRUST_PROXY: '1' });
  const slug = `made-up-once-${Date.now()}`;
  const res = await h.http
    .post('/api/v1/telemetry')
    .set('x-forwarded-for', '203.0.113.60')
    .send(events(Array.from({ length: 20 }, () => slug)));
  expect(codes(res.body)).toEqual(Array.from({ length: 20 }, () => 'Skill.NotFound'));
});
