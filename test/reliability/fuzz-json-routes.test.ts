import { randomUUID } from 'node:crypto';
import { openApiDocument } from '../../api/openapi/document.js';
import { listRoutes } from '../../api/openapi/route-list.js';
import { anOrganization, aProject } from '../organizations/org-fixtures.js';
import { aProjectWithKey, type GatewayWorld, openGatewayWorld } from '../support/gateway.js';
import { createUser } from '../support/identity.js';
import { recordFigures } from './support/figures.js';
import { malformedBodies, seeded } from './support/malformed-bodies.js';

const SEED = 20261122;
const BODIES_PER_ROUTE = 25;

let w: GatewayWorld;
let session: string;
let orgId: string;
let projectId: string;
let gatewayKey: string;

beforeAll(async () => {
  w = await openGatewayWorld({ balance: '5' });
  const admin = await createUser(w.h, { roles: ['Admin', 'Publisher', 'Moderator'] });
  session = admin.session;
  const org = await anOrganization(w.h, admin);
  orgId = org.id;
  projectId = (await aProject(w.h, org)).id;
  gatewayKey = (await aProjectWithKey(w.h, '5')).key;
});
afterAll(async () => {
  await w.close();
});

type Operation = { requestBody?: { content?: Record<string, { schema?: { properties?: object } }> } };

function documentedFields(path: string, method: string): string[] {
  const paths = openApiDocument().paths as Record<string, Record<string, Operation>>;
  const schema = paths[path]?.[method]?.requestBody?.content?.['application/json']?.schema;
  return Object.keys(schema?.properties ?? {});
}

function concretePath(path: string): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) =>
    name === 'projectId' ? projectId : name === 'type' ? 'skill' : randomUUID(),
  );
}

describe('malformed JSON bodies sent to every JSON route', () => {
  it('answer 400 Request.InvalidText, not 500, for a NUL character PostgreSQL cannot store', async () => {
    const res = await w.h.http
      .post('/api/organizations')
      .set('authorization', `Bearer ${session}`)
      .send({ name: '\u0000' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('Request.InvalidText');
  });

  it('never answer 5xx', async () => {
    const rng = seeded(SEED);
    // Logging out revokes the session the other routes use: it goes last.
    const routes = listRoutes(w.h.app)
      .filter((r) => ['post', 'put', 'patch', 'delete'].includes(r.method))
      .sort((a, b) => Number(a.path.endsWith('/logout')) - Number(b.path.endsWith('/logout')));
    expect(routes.length).toBeGreaterThan(30);
    const failures: string[] = [];
    let sent = 0;
    const statuses = new Map<number, number>();
    for (const route of routes) {
      const gateway = route.path.startsWith('/v1/');
      const fields = documentedFields(route.path, route.method);
      const huge = gateway ? 2_000_000 : 900_000;
      for (const body of malformedBodies(rng, fields, BODIES_PER_ROUTE, huge)) {
        const path = concretePath(route.path);
        const res = await w.h.http[route.method as 'post'](path)
          .set('authorization', `Bearer ${gateway ? gatewayKey : session}`)
          .set('x-organization-id', orgId)
          .set('content-type', 'application/json')
          .send(body);
        sent++;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status >= 500) {
          failures.push(
            `${route.method.toUpperCase()} ${path} ${res.status} body=${body.slice(0, 120)} → ${res.text.slice(0, 200)}`,
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
});
