// Every route of the app that takes a body (POST, PUT, PATCH, DELETE, read from the Express router itself), with a
// world whose credentials get a request past authentication, for the fuzzers: the reliability suite's malformed
// bodies (test/reliability/fuzz-json-routes.test.ts) and npm test's hostile bodies (test/http/hostile-bodies.test.ts).
import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { openApiDocument } from '../../api/openapi/document.js';
import { type AppRoute, listRoutes } from '../../api/openapi/route-list.js';
import { aProjectWithKey, type GatewayWorld, openGatewayWorld } from './gateway.js';
import { createUser } from './identity.js';
import { anOrganization, aProject } from './org-fixtures.js';

export type BodyRouteWorld = {
  w: GatewayWorld;
  /** Every route with a body; logging out (which revokes the session the others use) comes last. */
  routes: AppRoute[];
  isGateway(route: AppRoute): boolean;
  /** The route's path with its parameters filled in (random ids, the world's project, the skill type). */
  concretePath(route: AppRoute): string;
  /** The JSON field names the OpenAPI document gives the route's body. */
  documentedFields(route: AppRoute): string[];
  /** Sends raw bytes to the route with a credential that passes authentication and the world's organization. */
  send(route: AppRoute, body: string | Buffer, headers?: Record<string, string>): Promise<Response>;
  /** Every GET route whose OpenAPI entry documents query parameters, and their names. */
  queryRoutes: AppRoute[];
  documentedQuery(route: AppRoute): string[];
  /** GETs the route with the raw query string and the same credentials as `send`. */
  get(route: AppRoute, query: string): Promise<Response>;
  close(): Promise<void>;
};

type Operation = {
  requestBody?: { content?: Record<string, { schema?: { properties?: object } }> };
  parameters?: { in: string; name: string }[];
  responses?: Record<string, unknown>;
};

export async function openBodyRouteWorld(): Promise<BodyRouteWorld> {
  const w = await openGatewayWorld({ balance: '5' });
  const admin = await createUser(w.h, { roles: ['Admin', 'Publisher', 'Moderator'] });
  const org = await anOrganization(w.h, admin);
  const projectId = (await aProject(w.h, org)).id;
  const gatewayKey = (await aProjectWithKey(w.h, '5')).key;
  const paths = openApiDocument().paths as Record<string, Record<string, Operation>>;
  const routes = listRoutes(w.h.app)
    .filter((r) => ['post', 'put', 'patch', 'delete'].includes(r.method))
    // Routes declared as not offered (the MCP Registry API's optional version edit and delete) answer 501 to
    // anything, as that API asks: no body reaches them.
    .filter((r) => !paths[r.path]?.[r.method]?.responses?.['501'])
    .sort((a, b) => Number(a.path.endsWith('/logout')) - Number(b.path.endsWith('/logout')));
  const isGateway = (route: AppRoute) => route.path.startsWith('/v1/');
  const concretePath = (route: AppRoute) =>
    route.path.replace(/\{(\w+)\}/g, (_, name: string) =>
      name === 'projectId' ? projectId : name === 'type' ? 'skill' : randomUUID(),
    );
  const credential = (route: AppRoute) => `Bearer ${isGateway(route) ? gatewayKey : admin.session}`;
  const documentedQuery = (route: AppRoute) =>
    (paths[route.path]?.get?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
  return {
    w,
    routes,
    isGateway,
    concretePath,
    queryRoutes: listRoutes(w.h.app).filter((r) => r.method === 'get' && documentedQuery(r).length > 0),
    documentedQuery,
    get: (route, query) =>
      w.h.http
        .get(`${concretePath(route)}?${query}`)
        .set('authorization', credential(route))
        .set('x-organization-id', org.id),
    documentedFields(route) {
      const schema = paths[route.path]?.[route.method]?.requestBody?.content?.['application/json']?.schema;
      return Object.keys(schema?.properties ?? {});
    },
    send(route, body, headers = {}) {
      return (
        w.h.http[route.method as 'post'](concretePath(route))
          .set('authorization', credential(route))
          .set('x-organization-id', org.id)
          .set('content-type', 'application/json')
          .set(headers)
          // superagent would write a Buffer as JSON (`{"type":"Buffer",…}`) under a JSON content type: send the bytes.
          .serialize((bytes) => bytes)
          .send(body)
      );
    },
    close: () => w.close(),
  };
}
