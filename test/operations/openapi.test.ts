import SwaggerParser from '@apidevtools/swagger-parser';
import { listRoutes } from '../../api/openapi/route-list.js';
import { areaRouter } from '../../api/routes/mount.js';
import type { Area } from '../../api/routes/route.js';
import { createHarness, type Harness } from '../support/harness.js';

let h: Harness;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

type Paths = Record<string, Record<string, unknown>>;

describe('the OpenAPI document', () => {
  it('is served at /openapi.json and validates as OpenAPI 3.1', async () => {
    const res = await h.http.get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const validated = await SwaggerParser.validate(structuredClone(res.body));
    expect(Object.keys(validated.paths ?? {}).length).toBeGreaterThan(40);
  });

  it('documents every route the app answers, and no route it does not', async () => {
    const paths = (await h.http.get('/openapi.json')).body.paths as Paths;
    const routes = listRoutes(h.app);
    expect(routes.length).toBeGreaterThan(40);
    const undocumented = routes.filter((r) => !paths[r.path]?.[r.method]).map((r) => `${r.method} ${r.path}`);
    expect(undocumented).toEqual([]);
    const answered = new Set(routes.map((r) => `${r.method} ${r.path}`));
    const stale = Object.entries(paths).flatMap(([path, ops]) =>
      Object.keys(ops)
        .map((method) => `${method} ${path}`)
        .filter((key) => !answered.has(key)),
    );
    expect(stale).toEqual([]);
  });

  it('types what a generated client sends: paging as integers, the catalog {type} as its four values', async () => {
    type Parameter = { name: string; in: string; schema: { type?: string; enum?: string[] } };
    const paths = (await h.http.get('/openapi.json')).body.paths as Record<
      string,
      Record<string, { parameters?: Parameter[] }>
    >;
    const parameters = Object.entries(paths).flatMap(([path, ops]) =>
      Object.entries(ops).flatMap(([method, op]) =>
        (op.parameters ?? []).map((p) => ({ at: `${method} ${path}`, ...p })),
      ),
    );
    const paging = parameters.filter((p) => p.in === 'query' && /^(page|pageSize|size|limit|days)$/.test(p.name));
    expect(paging.length).toBeGreaterThan(20);
    // openapi-typescript typed `page` as a string while the query's pattern was documented, not the integer it reads.
    expect(paging.filter((p) => p.schema.type !== 'integer').map((p) => `${p.at} ${p.name}`)).toEqual([]);
    const catalogTypes = parameters.filter((p) => p.in === 'path' && p.name === 'type' && p.at.includes('/api/v1/'));
    expect(catalogTypes.length).toBeGreaterThan(20);
    expect(catalogTypes.filter((p) => p.schema.enum?.join() !== 'mcp,skill,agent,soul').map((p) => p.at)).toEqual([]);
  });

  it('refuses to mount a signed-in route that does not declare what it does to the daily quota', () => {
    const area: Area = {
      tag: 'Test',
      routes: [{ method: 'get', path: '/x', summary: 'x', access: 'bearer', handler: () => (_req, res) => res.end() }],
    };
    expect(() => areaRouter(area, h.ctx, '/api/v1/test')).toThrow('GET /api/v1/test/x: declare its dailyQuota');
  });

  it('describes request bodies with the zod schemas the routes validate with', async () => {
    type Operation = {
      requestBody: { content: Record<string, { schema: { required: string[]; properties: object } }> };
      responses: Record<string, { content: Record<string, { schema: { $ref: string } }> }>;
    };
    const paths = (await h.http.get('/openapi.json')).body.paths as Record<string, Record<string, Operation>>;
    const post = (path: string) => paths[path]?.post as Operation;
    const login = post('/api/v1/auth/login').requestBody.content['application/json']?.schema;
    expect(login?.required).toEqual(expect.arrayContaining(['email', 'password']));
    const messages = post('/v1/messages').requestBody.content['application/json']?.schema;
    expect(Object.keys(messages?.properties ?? {})).toEqual(
      expect.arrayContaining(['model', 'messages', 'max_tokens']),
    );
    expect(post('/v1/messages').responses['400']?.content['application/json']?.schema.$ref).toBe(
      '#/components/schemas/AnthropicError',
    );
  });

  it('documents what the routes answer where SPEC names it: markdown, no body (200 and 204), the models list', async () => {
    type Operation = { responses: Record<string, { description: string; content?: Record<string, unknown> }> };
    const paths = (await h.http.get('/openapi.json')).body.paths as Record<string, Record<string, Operation>>;
    const ok = (path: string, method: string) => paths[path]?.[method]?.responses['200'];
    expect(Object.keys(ok('/api/v1/{type}/{slug}/prompt.txt', 'get')?.content ?? {})).toEqual(['text/markdown']);
    for (const [path, method] of [
      ['/api/v1/api-keys/{keyId}/enable', 'post'],
      ['/api/v1/api-keys/{keyId}/disable', 'post'],
      ['/api/v1/api-keys/{keyId}', 'delete'],
    ] as const) {
      expect(ok(path, method)?.content).toBeUndefined();
    }
    // Sign-outs answer 204 with no body.
    for (const [path, method] of [
      ['/api/v1/auth/session', 'delete'],
      ['/admin/session', 'post'],
      ['/admin/session', 'delete'],
    ] as const) {
      expect(Object.keys(paths[path]?.[method]?.responses ?? {})).toContain('204');
      expect(paths[path]?.[method]?.responses['204']?.content).toBeUndefined();
    }
    expect(ok('/v1/models', 'get')?.description).toContain('has_more, first_id, last_id');
  });

  it('documents the 409 a route declares for a limit, beside an idempotency conflict', async () => {
    type Operation = { responses: Record<string, { description: string; content: Record<string, unknown> }> };
    const paths = (await h.http.get('/openapi.json')).body.paths as Record<string, Record<string, Operation>>;
    const conflict = (path: string, method = 'post') => paths[path]?.[method]?.responses['409'];
    expect(conflict('/api/v1/api-keys')?.description).toMatch(/^ApiKey\.LimitReached: .*100 keys/);
    expect(conflict('/api/v1/api-keys')?.content['application/problem+json']).toBeDefined();
    expect(conflict('/api/project-templates')?.description).toMatch(
      /^Template\.LimitReached: .*100 templates .*; Template\.PublicLimitReached: 20 public/,
    );
    expect(conflict('/api/projects')?.description).toMatch(/^Project\.LimitReached: .*1,000 projects/);
    expect(conflict('/api/projects/from-template')?.description).toMatch(
      /^Project\.LimitReached: .* ApiKey\.LimitReached/,
    );
    expect(conflict('/api/project-templates', 'get')).toBeUndefined();
    expect(conflict('/v1/videos')?.description).toMatch(/^Idempotency\.RequestInFlight/);
    expect(paths['/api/project-templates']?.get?.responses['400']).toBeDefined();
  });

  it('documents what the gateway and organization routes answer besides success (SPEC sections 3 and 4)', async () => {
    type Operation = { responses: Record<string, { description: string; content?: Record<string, unknown> }> };
    const paths = (await h.http.get('/openapi.json')).body.paths as Record<string, Record<string, Operation>>;
    const statuses = (path: string, method = 'post') => Object.keys(paths[path]?.[method]?.responses ?? {});
    for (const paid of [
      '/v1/messages',
      '/v1/chat/completions',
      '/v1/responses',
      '/v1/videos',
      '/v1/web/search',
      '/v1/web/fetch',
    ]) {
      expect(statuses(paid)).toEqual(expect.arrayContaining(['402', '429']));
      expect(paths[paid]?.post?.responses['429']?.description).toMatch(/Project\.QuotaExceeded/);
    }
    expect(paths['/v1/messages']?.post?.responses['402']?.content?.['application/json']).toEqual({
      schema: { $ref: '#/components/schemas/AnthropicError' },
    });
    // count_tokens and cancel are counted but free; count_tokens only on a wallet with money (402 at or below zero);
    // reading a task or the models is neither counted nor billed
    expect(statuses('/v1/messages/count_tokens', 'post')).toEqual(expect.arrayContaining(['402', '429']));
    expect(paths['/v1/messages/count_tokens']?.post?.responses['402']?.description).toMatch(/at or below zero/);
    expect(statuses('/v1/videos/{id}/cancel', 'post')).toContain('429');
    expect(statuses('/v1/videos/{id}/cancel', 'post')).not.toContain('402');
    for (const path of ['/v1/videos/{id}', '/v1/videos/{id}/content', '/v1/videos', '/v1/models']) {
      expect(statuses(path, 'get')).not.toContain('402');
      expect(statuses(path, 'get')).not.toContain('429');
    }
    expect(statuses('/v1/videos/{id}/content', 'get')).toEqual(expect.arrayContaining(['302', '409']));
    expect(paths['/v1/videos/{id}/content']?.get?.responses['409']?.description).toMatch(/^Video\.NotCompleted/);
    expect(statuses('/api/organization/invites/{token}/accept')).toEqual(expect.arrayContaining(['404', '409', '410']));
    expect(paths['/api/organization/invites/{token}/accept']?.post?.responses['410']?.description).toMatch(
      /^Invite\.Expired/,
    );
    expect(statuses('/api/organization/wallet/alerts/test')).toContain('202');
    expect(statuses('/api/projects/from-template')).toContain('404');
    expect(paths['/api/organization/wallet']?.get?.responses['400']?.description).toMatch(/Organization\.NotSelected/);
    expect(statuses('/api/organization/members', 'get')).toContain('404');
    expect(statuses('/api/organization/members/{userId}/role', 'put')).toContain('409');
    expect(statuses('/api/organization/members/{userId}', 'delete')).toContain('409');
    expect(paths['/api/organization/wallet/records/{recordId}/refund']?.post?.responses['409']?.description).toMatch(
      /^Wallet\.AlreadyRefunded/,
    );
  });

  it('documents the 401 of a login and the second success status of a replay or an update', async () => {
    type Operation = { responses: Record<string, { description: string }> };
    const paths = (await h.http.get('/openapi.json')).body.paths as Record<string, Record<string, Operation>>;
    const responses = (path: string) => paths[path]?.post?.responses ?? {};
    for (const login of ['/api/v1/auth/login', '/api/v1/auth/session']) {
      expect(responses(login)['401']?.description).toMatch(/^Auth\.InvalidCredentials: /);
    }
    for (const replayed of [
      '/api/organization/wallet/redeem',
      '/api/organization/wallet/recharge',
      '/api/organization/wallet/records/{recordId}/refund',
    ]) {
      expect([Object.keys(responses(replayed)), responses(replayed)['200']?.description]).toEqual([
        expect.arrayContaining(['200', '201']),
        expect.stringMatching(/record again\.$/),
      ]);
    }
    expect(responses('/api/projects/{projectId}/members')['201']?.description).toBe('The member was added.');
    expect(responses('/api/projects/{projectId}/members')['200']?.description).toMatch(/its role is changed/);
    // The 401 documented is what a wrong login answers (the replays' 200 is tested with each route).
    const wrong = await h.http
      .post('/api/v1/auth/login')
      .send({ email: 'nobody@test.ockhub.local', password: 'x'.repeat(12) });
    expect([wrong.status, wrong.body.title]).toEqual([401, 'Auth.InvalidCredentials']);
  });

  it('documents the byte ranges of /files: Range and If-Range, 206 with Content-Range, 416', async () => {
    type Operation = {
      parameters: { name: string; in: string }[];
      responses: Record<string, { description: string; headers?: Record<string, unknown> }>;
    };
    const paths = (await h.http.get('/openapi.json')).body.paths as Record<string, Record<string, Operation>>;
    const files = paths['/files/{key}']?.get as Operation;
    expect(files.parameters.filter((p) => p.in === 'header').map((p) => p.name)).toEqual([
      'if-none-match',
      'range',
      'if-range',
    ]);
    expect(Object.keys(files.responses)).toEqual(expect.arrayContaining(['200', '206', '304', '416']));
    expect(Object.keys(files.responses['200']?.headers ?? {})).toEqual(['ETag', 'Accept-Ranges']);
    expect(Object.keys(files.responses['206']?.headers ?? {})).toContain('Content-Range');
    expect(files.responses['416']?.description).toMatch(/^File\.RangeNotSatisfiable: /);
    expect(Object.keys(files.responses['416']?.headers ?? {})).toEqual(['Content-Range']);
  });

  it('keeps summaries plain text (code spans go to the description, which /docs renders as CommonMark)', async () => {
    type Operation = { summary: string; description?: string };
    const paths = (await h.http.get('/openapi.json')).body.paths as Record<string, Record<string, Operation>>;
    const operations = Object.values(paths).flatMap((byMethod) => Object.values(byMethod));
    expect(operations.filter((op) => op.summary.includes('`'))).toEqual([]);
    expect(paths['/v1/messages']?.post).toMatchObject({
      summary: 'Anthropic Messages; stream: true answers with server-sent events',
      description: 'Anthropic Messages; `stream: true` answers with server-sent events',
    });
  });

  it('serves the interactive reference at /docs with its assets from the package, not a CDN', async () => {
    const page = await h.http.get('/docs');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).not.toMatch(/https?:\/\//);
    const bundle = await h.http.get('/docs/swagger-ui-bundle.js');
    expect(bundle.status).toBe(200);
    expect(bundle.text.length).toBeGreaterThan(100_000);
    expect((await h.http.get('/docs/swagger-ui.css')).status).toBe(200);
    // Its icon too: without one the browser asks for /favicon.ico, a 404 in the page's console.
    const icon = page.text.match(/<link rel="icon" [^>]*href="([^"]+)"/)?.[1] ?? 'no icon link';
    const iconFile = await h.http.get(icon);
    expect([iconFile.status, iconFile.headers['content-type']]).toEqual([200, 'image/png']);
  });
});
