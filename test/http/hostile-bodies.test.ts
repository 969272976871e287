// Hostile bodies on every route that takes one (the fuzzer's cases that run in npm test; the route list is the
// reliability fuzzer's, test/support/json-routes.ts): corrupt and unsupported encodings, other charsets, nesting of
// 10 / 1,000 / 100,000 levels, huge numbers and lone surrogates. Never a 5xx; each refusal in the route family's
// shape, before any recursive code sees the body.
import type { Response } from 'supertest';
import { type RouteFamily, routeFamilyOf } from '../../api/http/route-family.js';
import { MAX_JSON_DEPTH } from '../../shared/validation/json-shape.js';
import { createActors, draftBody } from '../support/catalog-factory.js';
import { type Expected, hostileBodies, hostileCodes } from '../support/hostile-bodies.js';
import { bearer } from '../support/identity.js';
import { type BodyRouteWorld, openBodyRouteWorld } from '../support/json-routes.js';

let world: BodyRouteWorld;
beforeAll(async () => {
  world = await openBodyRouteWorld();
});
afterAll(async () => world.close());

/** The error's code and message as the family renders them (the Anthropic shape has no code: its type stands in). */
function errorIn(res: Response, family: RouteFamily): { code?: string; message?: string } {
  const body = res.body ?? {};
  switch (family) {
    case 'catalog':
      return /^application\/problem\+json/.test(res.headers['content-type'] ?? '')
        ? { code: body.title, message: body.detail }
        : {};
    case 'organization':
      return body.data === null && body.code === res.status ? (body.error ?? {}) : {};
    case 'gateway':
      return body.error ?? {};
    case 'messages':
      return body.type === 'error' ? { code: body.error?.type, message: body.error?.message } : {};
    case 'mcpRegistry':
      return typeof body.error === 'string' ? { message: body.error } : {};
  }
}

function answersAsExpected(res: Response, family: RouteFamily, expected: Expected): boolean {
  const { code, message } = errorIn(res, family);
  // The Anthropic shape has no code (its type stands in), the registry's `{error}` only a message.
  const codeMatches =
    family === 'messages' ? typeof code === 'string' : family === 'mcpRegistry' || code === expected.code;
  return res.status === expected.status && codeMatches && expected.message.test(message ?? '');
}

it('never answers 5xx to hostile bodies on any route, and refuses each in its family shape', async () => {
  const started = Date.now();
  const failures: string[] = [];
  const statuses = new Map<number, number>();
  let sent = 0;
  expect(world.routes.length).toBeGreaterThan(30);
  for (const route of world.routes) {
    const family = routeFamilyOf(route.path);
    for (const hostile of hostileBodies(world.documentedFields(route)[0])) {
      const res = await world.send(route, hostile.body, hostile.headers);
      sent++;
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      const where = `${route.method.toUpperCase()} ${route.path} (${hostile.name})`;
      const got = `${res.status} ${res.text.slice(0, 160)}`;
      if (res.status >= 500) failures.push(`${where}: ${got}`);
      else if (hostile.expected && !answersAsExpected(res, family, hostile.expected)) {
        failures.push(`${where}: expected ${hostile.expected.status} ${hostile.expected.code}, got ${got}`);
      } else if (!hostile.expected && hostileCodes.has(errorIn(res, family).code ?? '')) {
        failures.push(`${where}: refused a body that is not hostile: ${got}`);
      }
    }
  }
  const seconds = Math.round((Date.now() - started) / 100) / 10;
  process.stdout.write(
    `hostile bodies: ${sent} requests to ${world.routes.length} routes in ${seconds} s, ` +
      `5xx ${failures.filter((f) => / 5\d\d /.test(f)).length}, statuses ${JSON.stringify(Object.fromEntries(statuses))}\n`,
  );
  expect(failures).toEqual([]);
  expect(sent).toBe(world.routes.length * hostileBodies().length);
}, 300_000);

/** `{"a":{"a":…{}}}`: an object `depth` levels deep (the outermost counts), as JSON text (JSON.stringify recurses). */
const nestedObject = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;

describe('the bodies that answered 5xx before (issue 22)', () => {
  it('a corrupt gzip body: 400 Request.InvalidEncoding, was 500', async () => {
    const res = await world.w.h.http
      .post('/api/organizations')
      .set({ 'content-type': 'application/json', 'content-encoding': 'gzip' })
      .serialize((bytes) => bytes)
      .send(Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0xde, 0xad, 0xbe, 0xef]));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('Request.InvalidEncoding');
  });

  it('a 5,000-deep inputSchema on a draft: 400 Request.TooDeep, was 500; 128 levels are stored', async () => {
    const a = await createActors(world.w.h);
    const draft = (depth: number) =>
      world.w.h.http
        .post('/api/v1/publisher/mcp/drafts')
        .set({ ...bearer(a.publisher.session), 'content-type': 'application/json' })
        .send(
          JSON.stringify(draftBody(a, 'mcp', { version: { tools: [{ name: 'deep', inputSchema: 'DEEP' }] } })).replace(
            '"DEEP"',
            nestedObject(depth),
          ),
        );
    const refused = await draft(5_000);
    expect(refused.status).toBe(400);
    expect(refused.body.title).toBe('Request.TooDeep');
    // The body's own levels (draft, version, tools, the tool) count: the schema may use what remains.
    const deepest = await draft(MAX_JSON_DEPTH - 4);
    expect(deepest.status).toBe(200);
    expect((await draft(MAX_JSON_DEPTH - 3)).body.title).toBe('Request.TooDeep');
  });

  it('a 100,000-deep metadata on /v1/messages: 400 in the Anthropic shape, was 529', async () => {
    const metadata = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    const res = await world.w.h.http
      .post('/v1/messages')
      .set({ 'x-api-key': world.w.key, 'content-type': 'application/json' })
      .send(`{"model":"claude-sonnet-5","max_tokens":10,"messages":[],"metadata":${metadata}}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringMatching(/nested deeper than 128/) },
    });
  });
});
