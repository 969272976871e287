// Security review #147: every event names an item by slug, and a slug the process has not looked up lately costs
// PostgreSQL a query. Unknown slugs were never counted (only taken events count against the telemetry limit), so
// one address sent batch after batch of 100 made-up slugs: 30,000 lookups in 40 s, never a 429. Such lookups now
// count against the address's allowance of uncached public reads, as the catalog's misses do (#76).
import { createActors, publishItem } from '../support/catalog-factory.js';
import { createHarness, type Harness } from '../support/harness.js';

const ALLOWANCE = 5;
let h: Harness;

beforeAll(async () => {
  h = await createHarness({ PUBLIC_READ_MISSES_PER_ADDRESS_PER_MINUTE: String(ALLOWANCE), TRUST_PROXY: '1' });
});
afterAll(async () => h.close());

const batch = (address: string, slugs: string[]) =>
  h.http
    .post('/api/v1/telemetry')
    .set('x-forwarded-for', address)
    .send({ events: slugs.map((slug) => ({ itemType: 'skill', slug, eventType: 'view', clientId: 'c' })) });

const codes = (body: { results: { error?: { code: string } }[] }) =>
  body.results.map((r) => r.error?.code ?? 'recorded');

it("counts a batch's uncached slug lookups against the address's public read allowance", async () => {
  const made = Array.from({ length: 20 }, (_, i) => `made-up-${Date.now()}-${i}`);
  const res = await batch('203.0.113.40', made);
  const seen = codes(res.body);
  expect(seen.filter((c) => c === 'Skill.NotFound')).toHaveLength(ALLOWANCE);
  expect(seen.filter((c) => c === 'Catalog.TooManyReads')).toHaveLength(made.length - ALLOWANCE);
  // A batch with nothing left to look up waits for the allowance's window, not one second.
  const refused = await batch('203.0.113.40', ['made-up-again']);
  expect(refused.status).toBe(429);
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(30);

  // Another address is not touched, and a slug the process already knows costs no lookup and is not refused.
  const a = await createActors(h);
  const item = await publishItem(h, a, 'skill');
  expect(codes((await batch('203.0.113.41', [item.slug])).body)).toEqual(['recorded']);
  expect(codes((await batch('203.0.113.40', [item.slug])).body)).toEqual(['recorded']);
});
