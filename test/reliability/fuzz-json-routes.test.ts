import { type BodyRouteWorld, openBodyRouteWorld } from '../support/json-routes.js';
import { recordFigures } from './support/figures.js';
import { malformedBodies, seeded } from './support/malformed-bodies.js';
import { malformedQueries } from './support/malformed-queries.js';

const SEED = 20261122;
const BODIES_PER_ROUTE = 25;

let world: BodyRouteWorld;

beforeAll(async () => {
  world = await openBodyRouteWorld();
});
afterAll(async () => {
  await world.close();
});

describe('malformed JSON bodies sent to every JSON route', () => {
  it('answer 400 Request.InvalidText, not 500, for a NUL character PostgreSQL cannot store', async () => {
    // A project's description is free text; names refuse control characters in validation (security review #79).
    const route = { method: 'post', path: '/api/projects' };
    const res = await world.send(route, JSON.stringify({ name: 'Fuzzed', description: 'a\u0000b' }));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('Request.InvalidText');
  });

  it('never answer 5xx', async () => {
    const rng = seeded(SEED);
    const { routes } = world;
    expect(routes.length).toBeGreaterThan(30);
    const failures: string[] = [];
    let sent = 0;
    const statuses = new Map<number, number>();
    for (const route of routes) {
      const huge = world.isGateway(route) ? 2_000_000 : 900_000;
      for (const body of malformedBodies(rng, world.documentedFields(route), BODIES_PER_ROUTE, huge)) {
        const res = await world.send(route, body);
        sent++;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status >= 500) {
          failures.push(
            `${route.method.toUpperCase()} ${route.path} ${res.status} body=${body.slice(0, 120)} → ${res.text.slice(0, 200)}`,
          );
        }
      }
    }
    recordFigures('Fuzz: malformed JSON to every JSON route', { requests: sent, answered5xx: failures.length });
    expect(sent).toBeGreaterThan(routes.length * BODIES_PER_ROUTE);
    expect(failures).toEqual([]);
    // The bodies got past authentication to validation: most answers are 400 (or 413 for the huge ones).
    process.stdout.write(`fuzz: ${sent} requests, statuses ${JSON.stringify(Object.fromEntries(statuses))}\n`);
    expect((statuses.get(400) ?? 0) + (statuses.get(413) ?? 0)).toBeGreaterThan(sent / 2);
  }, 180_000);

  it('never answer 5xx to malformed query strings on any GET route that documents a query', async () => {
    const rng = seeded(SEED + 1);
    const routes = world.queryRoutes;
    expect(routes.map((r) => r.path)).toEqual(
      expect.arrayContaining(['/api/organization/audit-log', '/api/v1/admin/audit-log']),
    );
    const failures: string[] = [];
    let sent = 0;
    for (const route of routes) {
      for (const q of malformedQueries(rng, world.documentedQuery(route), BODIES_PER_ROUTE)) {
        const res = await world.get(route, q);
        sent++;
        if (res.status >= 500)
          failures.push(`GET ${route.path}?${q.slice(0, 200)} ${res.status} → ${res.text.slice(0, 200)}`);
      }
    }
    recordFigures('Fuzz: malformed query strings to every GET route with a query', {
      requests: sent,
      answered5xx: failures.length,
    });
    expect(sent).toBe(routes.length * BODIES_PER_ROUTE);
    expect(failures).toEqual([]);
  }, 180_000);
});
