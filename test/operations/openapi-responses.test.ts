// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the catalog writes its placeholders literally as ${NAME}.
// The success schemas of /openapi.json (Route.response) hold what the routes really answer: every route that
// declares one is called in a real world (PostgreSQL, Redis, the catalog's publish workflow, the gateway's models,
// with the simulated provider and video and web-fetch workers behind the gateway, an alerts worker delivering a
// webhook), and its answer is validated with
// Ajv against the schema as the document gives it, every object without an explicit
// `additionalProperties` taken as closed, so a field the presenters send and the schema does not name fails here.
import { jest } from '@jest/globals';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { openApiPath } from '../../api/openapi/route-list.js';
import { mountedAreas } from '../../api/routes/areas.js';
import { type SimulatedProvider, startSimulatedProvider } from '../../scripts/simulated-provider/server.js';
import { registryNamespace } from '../../shared/mcp-registry/server-names.js';
import {
  type Actors,
  attachBundle,
  createActors,
  createCategory,
  createDraft,
  decide,
  draftBody,
  publishItem,
  submit,
  uniqueSlug,
  uploadBundle,
} from '../support/catalog-factory.js';
import { aProjectWithKey, recharge, SIMULATOR_KEY, simulatorUpstreams, writeLedgers } from '../support/gateway.js';
import { createHarness, type Harness, startProcess, type WorkerProcess, waitUntil } from '../support/harness.js';
import { bearer, createUser, platformAdminOf, type TestUser, uniqueEmail } from '../support/identity.js';
import { aMember, anOrganization, inOrg, type TestOrg } from '../support/org-fixtures.js';
import { type PageServer, startPageServer } from '../support/page-server.js';
import { usd } from '../support/wallet-factory.js';
import { spend } from '../support/wallet-spend.js';
import { buildZip, skillMd } from '../support/zip-builders.js';

type Schema = Record<string, unknown>;
type Operation = {
  responses: Record<string, { content?: Record<string, { schema: Schema }>; headers?: Record<string, unknown> }>;
};
type Answer = { status: number; body: unknown; headers: Record<string, string> };

// Real worker processes (video, web fetch, alerts) and a simulated upstream on a loaded 2-core machine.
jest.setTimeout(120_000);

let h: Harness;
let sim: SimulatedProvider;
let site: PageServer;
let worker: WorkerProcess;
let a: Actors;
let org: TestOrg;
let doc: { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };
let ajv: Ajv2020;
const mcpSlug = uniqueSlug('tides');

/** Every route that declares a response schema, or only ever refuses (its family's error body), as
 * `get /api/v1/{type}` (both prefixes of the MCP registry). */
const declared = mountedAreas.flatMap(({ prefix, family, area }) =>
  area.routes
    .filter((route) => route.response || (route.status ?? 200) >= 400)
    .map((route) => ({
      operation: `${route.method} ${openApiPath(`${prefix}${route.path === '/' ? '' : route.path}`) || '/'}`,
      enveloped: family === 'organization' && (route.status ?? 200) < 400,
      status: String(route.status ?? 200),
    })),
);
const validated = new Set<string>();

/** Closes every object that does not say what other properties it takes (zod's z.object, not its looseObject). */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    // A $ref names a component, kept in $defs of the schema compiled.
    out[key] = key === '$ref' ? (value as string).replace('#/components/schemas/', '#/$defs/') : closed(value);
  }
  if (out.type === 'object' && out.properties && !('additionalProperties' in out)) out.additionalProperties = false;
  return out;
}

const compiled = new Map<string, ValidateFunction>();

/** The answer's violations of the documented schema of its status and media type (empty when it conforms). */
function violations(operation: string, res: Answer): string[] {
  const [method, path] = operation.split(' ') as [string, string];
  const key = `${operation} ${res.status}`;
  let validate = compiled.get(key);
  if (!validate) {
    const content = doc.paths[path]?.[method]?.responses[res.status]?.content ?? {};
    const schema = content['application/json']?.schema;
    if (!schema) return [`no application/json schema documented for ${key}`];
    validate = ajv.compile({ ...(closed(schema) as Schema), $defs: closed(doc.components.schemas) as Schema });
    compiled.set(key, validate);
  }
  return validate(res.body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
}

/** The document's response of an operation for a status. */
function documentedResponse(operation: string, status: number) {
  const [method, path] = operation.split(' ') as [string, string];
  return doc.paths[path]?.[method]?.responses[String(status)];
}

/** Headers a client reads (the daily quota's, Retry-After, ETag) that the answer carries and the document does not
 * name for its status: a generated client would not know them. */
function undocumentedHeaders(operation: string, res: Answer): string[] {
  const named = Object.keys(documentedResponse(operation, res.status)?.headers ?? {}).map((n) => n.toLowerCase());
  return ['x-ratelimit-limit', 'x-ratelimit-remaining', 'retry-after', 'etag']
    .filter((name) => res.headers[name] !== undefined && !named.includes(name))
    .map((name) => `${operation} ${res.status}: ${name}`);
}

/** Holds one real answer of a declared route to its documented schema. */
function expectDocumented(operation: string, res: Answer, status = 200) {
  expect([operation, res.status, res.headers['content-type']]).toEqual([
    operation,
    status,
    expect.stringMatching(/^application\/json/),
  ]);
  expect(violations(operation, res)).toEqual([]);
  expect(undocumentedHeaders(operation, res)).toEqual([]);
  validated.add(operation);
}

/** Holds a real refusal to the document: its status is one the operation lists, in the media type and error body the
 * document gives for it (closed, as the success bodies), with the headers a client reads. */
function expectDocumentedError(operation: string, res: Answer, status: number, code?: string) {
  const response = documentedResponse(operation, res.status);
  const [mediaType, content] = Object.entries(response?.content ?? {})[0] ?? [];
  expect([operation, res.status, response ? 'documented' : 'undocumented']).toEqual([operation, status, 'documented']);
  expect(res.headers['content-type']?.split(';')[0]).toBe(mediaType);
  const validate = ajv.compile({
    ...(closed(content?.schema) as Schema),
    $defs: closed(doc.components.schemas) as Schema,
  });
  expect(validate(res.body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`)).toEqual(
    [],
  );
  expect(undocumentedHeaders(operation, res)).toEqual([]);
  if (code) expect((res.body as { title?: string; error?: unknown }).title ?? res.body).toEqual(code);
}

const mcpVersion = {
  version: '1.0.0',
  sourceUrl: 'https://github.com/acme/tides-mcp',
  connections: [
    { transport: 'stdio', command: 'npx', args: ['-y', '@acme/tides@1.0.0', '--port', '${PORT}'], env: { MODE: 'x' } },
    {
      transport: 'streamable-http',
      url: 'https://tides.example/mcp/${REGION}',
      headers: { Authorization: '${TOKEN}' },
    },
  ],
  tools: [{ name: 'high_water', description: 'Next high water', inputSchema: { type: 'object' }, annotations: {} }],
  resources: [{ name: 'harbours', uri: 'tides://harbours' }],
  prompts: [{ name: 'plan', arguments: [{ name: 'harbour', required: true }] }],
  configFields: [
    { name: 'TOKEN', label: 'Token', type: 'secret', required: true },
    { name: 'PORT', type: 'number', default: 8080 },
    { name: 'REGION', description: 'Sea area' },
  ],
  permissions: ['network'],
};

beforeAll(async () => {
  sim = await startSimulatedProvider({ apiKey: SIMULATOR_KEY, videoDurationMs: 500 });
  site = await startPageServer();
  h = await createHarness({
    ...simulatorUpstreams(sim.url),
    OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
    VIDEO_POLL_INTERVAL_MS: '200',
  });
  worker = await startProcess(h.env, { extraEnv: { WORKER_QUEUES: 'video,video-rehost,web-fetch,alerts' } });
  a = await createActors(h, { verified: true });
  const category = await createCategory(h, 'mcp');
  await publishItem(h, a, 'mcp', { slug: mcpSlug, tags: ['tides'], categories: [category], version: mcpVersion });
  await publishItem(h, a, 'soul', { version: { soulMd: '# Calm', packageUrl: 'https://example.com/soul.zip' } });
  await publishItem(h, a, 'skill');
  org = await anOrganization(h);
  doc = (await h.http.get('/openapi.json').expect(200)).body;
  ajv = new Ajv2020({ allErrors: true, strict: false });
  ajvFormats.default(ajv);
});
afterAll(async () => {
  await worker?.stop();
  await h?.close();
  await sim?.close();
  await site?.close();
});

describe('the documented success schemas hold what the routes answer', () => {
  it('documents a non-empty success schema for every route that declares one', () => {
    expect(declared.length).toBeGreaterThan(30);
    const empty = declared.filter(({ operation, enveloped, status }) => {
      const [method, path] = operation.split(' ') as [string, string];
      const success = Object.entries(doc.paths[path]?.[method]?.responses ?? {}).filter(
        ([s]) => /^2/.test(s) || s === status,
      );
      return (
        success.length === 0 ||
        success.some(([, r]) => {
          const schema = r.content?.['application/json']?.schema as { properties?: { data?: Schema } } | undefined;
          const data = enveloped ? schema?.properties?.data : schema;
          return !data || Object.keys(data).length === 0;
        })
      );
    });
    expect(empty.map((d) => d.operation)).toEqual([]);
  });

  it('the catalog: a page, an item, its versions and categories, a report and a rating', async () => {
    for (const type of ['mcp', 'soul', 'skill']) {
      expectDocumented('get /api/v1/{type}', await h.http.get(`/api/v1/${type}?pageSize=100`));
    }
    const search = await h.http.get(`/api/v1/mcp?search=${mcpSlug}`);
    expectDocumented('get /api/v1/{type}', search);
    expect(search.body.items.map((i: { slug: string }) => i.slug)).toEqual([mcpSlug]);
    const souls = (await h.http.get('/api/v1/soul?pageSize=100')).body.items as { slug: string }[];
    const skills = (await h.http.get('/api/v1/skill?pageSize=100')).body.items as { slug: string }[];
    for (const path of [
      `/api/v1/mcp/${mcpSlug}`,
      `/api/v1/soul/${souls[0]?.slug}`,
      `/api/v1/skill/${skills[0]?.slug}`,
    ]) {
      expectDocumented('get /api/v1/{type}/{slug}', await h.http.get(path));
    }
    expectDocumented('get /api/v1/{type}/categories', await h.http.get('/api/v1/mcp/categories'));
    expectDocumented('get /api/v1/{type}/{slug}/versions', await h.http.get(`/api/v1/mcp/${mcpSlug}/versions`));
    const version = await h.http.get(`/api/v1/mcp/${mcpSlug}/versions/1.0.0`);
    expectDocumented('get /api/v1/{type}/{slug}/versions/{version}', version);
    expect(version.body.tools[0].annotations).toEqual({});
    const reader = a.outsider;
    expectDocumented(
      'post /api/v1/{type}/{slug}/report',
      await h.http.post(`/api/v1/mcp/${mcpSlug}/report`).set(bearer(reader.apiKey)).send({ reason: 'spam' }),
    );
    expectDocumented(
      'put /api/v1/{type}/{slug}/rating',
      await h.http.put(`/api/v1/mcp/${mcpSlug}/rating`).set(bearer(reader.apiKey)).send({ score: 4 }),
    );
    expectDocumented(
      'get /api/v1/{type}/{slug}/rating',
      await h.http.get(`/api/v1/mcp/${mcpSlug}/rating`).set(bearer(reader.apiKey)),
    );
  });

  it('sign-in and the account: login, console session, me, profile, password, logout', async () => {
    const user: TestUser = await createUser(h, { name: 'Schema Reader', roles: ['Publisher'] });
    const credentials = { email: user.email, password: user.password };
    const login = await h.http.post('/api/v1/auth/login').send(credentials);
    expectDocumented('post /api/v1/auth/login', login);
    const session = await h.http.post('/api/v1/auth/session').set('sec-fetch-site', 'same-origin').send(credentials);
    expectDocumented('post /api/v1/auth/session', session);
    expectDocumented('get /api/v1/auth/me', await h.http.get('/api/v1/auth/me').set(bearer(user.apiKey)));
    expectDocumented(
      'put /api/v1/auth/me',
      await h.http.put('/api/v1/auth/me').set(bearer(user.apiKey)).send({ name: 'Schema Writer' }),
    );
    expectDocumented(
      'post /api/v1/auth/me/password',
      await h.http
        .post('/api/v1/auth/me/password')
        .set(bearer(login.body.accessToken))
        .send({ currentPassword: user.password, newPassword: 'another-long-password' }),
    );
    const logout = await h.http.post('/api/v1/auth/logout').set(bearer(login.body.accessToken));
    expectDocumented('post /api/v1/auth/logout', logout);
    expect(logout.body).toEqual({ loggedOut: true });
  });

  it('API keys: the list, a created key, usage and quota requests', async () => {
    const owner = await createUser(h);
    const created = await h.http.post('/api/v1/api-keys').set(bearer(owner.session)).send({ name: 'schema key' });
    expectDocumented('post /api/v1/api-keys', created);
    await h.http.get('/api/v1/auth/me').set(bearer(created.body.token)).expect(200);
    const list = await h.http.get('/api/v1/api-keys').set(bearer(owner.session));
    expectDocumented('get /api/v1/api-keys', list);
    expect(list.body.some((k: { lastUsedAt?: string }) => k.lastUsedAt)).toBe(true);
    expectDocumented(
      'get /api/v1/api-keys/usage',
      await h.http.get('/api/v1/api-keys/usage?days=3').set(bearer(owner.apiKey)),
    );
    expectDocumented(
      'post /api/v1/api-keys/quota-requests',
      await h.http
        .post('/api/v1/api-keys/quota-requests')
        .set(bearer(owner.session))
        .send({ requestedQuota: 5000, reason: 'more' }),
    );
    expectDocumented(
      'get /api/v1/api-keys/quota-requests/mine',
      await h.http.get('/api/v1/api-keys/quota-requests/mine').set(bearer(owner.session)),
    );
  });

  it('organizations and projects', async () => {
    const created = await h.http.post('/api/organizations').set(bearer(org.admin.session)).send({ name: 'Second' });
    expectDocumented('post /api/organizations', created, 201);
    expectDocumented('get /api/organizations', await h.http.get('/api/organizations').set(bearer(org.admin.session)));
    const project = await h.http
      .post('/api/projects')
      .set(inOrg(org.admin, org.id))
      .send({ name: 'Schema project', description: 'Checked against the document.' });
    expectDocumented('post /api/projects', project, 201);
    expectDocumented('get /api/projects', await h.http.get('/api/projects').set(inOrg(org.admin, org.id)));
    const path = `/api/projects/${project.body.data.id}`;
    expectDocumented('get /api/projects/{projectId}', await h.http.get(path).set(inOrg(org.admin, org.id)));
    expectDocumented('delete /api/projects/{projectId}', await h.http.delete(path).set(inOrg(org.admin, org.id)));
  });

  it('organization members and invite tokens: issued, listed, previewed, accepted twice and revoked', async () => {
    const team = await anOrganization(h);
    const admin = inOrg(team.admin, team.id);
    const issued = await h.http
      .post('/api/organization/invite-tokens')
      .set(admin)
      .send({ description: 'schema invite', maxUsageCount: 2, role: 'Member' });
    expectDocumented('post /api/organization/invite-tokens', issued, 201);
    const invite = `/api/organization/invites/${issued.body.data.token}`;
    expectDocumented('get /api/organization/invites/{token}', await h.http.get(invite));
    const joiner = await createUser(h);
    expectDocumented(
      'post /api/organization/invites/{token}/accept',
      await h.http.post(`${invite}/accept`).set(bearer(joiner.session)).send({}),
      201,
    );
    const signedUp = await h.http
      .post(`${invite}/accept`)
      .send({ email: uniqueEmail('invited'), name: 'Invited Reader', password: 'a-long-enough-password' });
    expectDocumented('post /api/organization/invites/{token}/accept', signedUp, 201);
    expect(signedUp.body.data.accountCreated).toBe(true);
    const revoked = await h.http.delete(`/api/organization/invite-tokens/${issued.body.data.id}`).set(admin);
    expectDocumented('delete /api/organization/invite-tokens/{id}', revoked);
    expect(revoked.body.data).toMatchObject({ usageCount: 2, revokedAt: expect.any(String) });
    await h.http.post('/api/organization/invite-tokens').set(admin).send({}).expect(201);
    const tokens = await h.http.get('/api/organization/invite-tokens').set(admin);
    expectDocumented('get /api/organization/invite-tokens', tokens);
    expect(tokens.body.total).toBe(2);
    const members = await h.http.get('/api/organization/members').set(admin);
    expectDocumented('get /api/organization/members', members);
    expect(members.body.data.map((m: { role: string }) => m.role).sort()).toEqual(['Admin', 'Member', 'Member']);
  });

  it('project templates, a project from a template with its key, its quota and its members', async () => {
    const team = await anOrganization(h);
    const admin = inOrg(team.admin, team.id);
    const template = await h.http
      .post('/api/project-templates')
      .set(admin)
      .send({
        name: 'Schema template',
        description: 'Small and slow.',
        tags: ['schema'],
        icon: 'kite',
        config: {
          quota: { dailyRequestLimit: 100, monthlyTokenLimit: 1_000_000 },
          rateLimit: { requestsPerMinuteLimit: 10 },
        },
      });
    expectDocumented('post /api/project-templates', template, 201);
    const templates = await h.http.get('/api/project-templates').set(admin);
    expectDocumented('get /api/project-templates', templates);
    expect(templates.body.data.map((t: { id: string }) => t.id)).toContain(template.body.data.id);
    const created = await h.http
      .post('/api/projects/from-template')
      .set(admin)
      .send({ templateId: template.body.data.id, name: 'From a template' });
    expectDocumented('post /api/projects/from-template', created, 201);
    expect(created.body.data.apiKeys[0].token).toMatch(/^ock_/);
    const path = `/api/projects/${created.body.data.id}`;
    expectDocumented('get /api/projects/{projectId}/quota', await h.http.get(`${path}/quota`).set(admin));
    const quota = await h.http
      .post(`${path}/quota`)
      .set(admin)
      .send({ dailyRequestLimit: null, dailyTokenLimit: 5000, customResetDay: 15 });
    expectDocumented('post /api/projects/{projectId}/quota', quota);
    expect(quota.body.data.dailyRequestLimit).toBeUndefined();
    const colleague = await aMember(h, team);
    const addMember = (role: string) =>
      h.http.post(`${path}/members`).set(admin).send({ userId: colleague.accountId, role });
    expectDocumented('post /api/projects/{projectId}/members', await addMember('Owner'), 201);
    expectDocumented('post /api/projects/{projectId}/members', await addMember('Member'), 200);
    const members = await h.http.get(`${path}/members`).set(admin);
    expectDocumented('get /api/projects/{projectId}/members', members);
    expect(members.body.total).toBe(members.body.data.length);
    const removed = await h.http.delete(`${path}/members/${colleague.accountId}`).set(admin);
    expectDocumented('delete /api/projects/{projectId}/members/{userId}', removed);
    expect(removed.body.data.userId).toBe(colleague.accountId);
    for (const period of ['day', 'month']) {
      const usage = await h.http.get(`${path}/quota-usage?period=${period}`).set(admin);
      expectDocumented('get /api/projects/{projectId}/quota-usage', usage);
      expect(usage.body.data.quotaLimitRemaining.dailyTokens).toBe(5000);
    }
    const keys = await h.http.get(`${path}/api-keys`).set(admin);
    expectDocumented('get /api/projects/{projectId}/api-keys', keys);
    expect(keys.body.data[0].id).toBe(created.body.data.apiKeys[0].id);
    const revoked = await h.http.delete(`${path}/api-keys/${keys.body.data[0].id}`).set(admin);
    expectDocumented('delete /api/projects/{projectId}/api-keys/{keyId}', revoked);
    expect(revoked.body.data.id).toBe(keys.body.data[0].id);
    const deleted = await h.http.delete(`/api/project-templates/${template.body.data.id}`).set(admin);
    expectDocumented('delete /api/project-templates/{templateId}', deleted);
    expect(deleted.body.data.id).toBe(template.body.data.id);
  });

  it('the wallet: balance, a recharge, a redeemed code and the records', async () => {
    const admin = await platformAdminOf(h);
    expectDocumented(
      'post /api/organization/wallet/recharge',
      await h.http
        .post('/api/organization/wallet/recharge')
        .set(inOrg(admin, org.id))
        .send({ amount: 12.5, description: 'schema money' }),
      201,
    );
    const issued = await h.http.post('/api/v1/admin/top-up-codes').set(bearer(admin.session)).send({ amount: 3 });
    expectDocumented('post /api/v1/admin/top-up-codes', issued, 201);
    expectDocumented(
      'post /api/organization/wallet/redeem',
      await h.http
        .post('/api/organization/wallet/redeem')
        .set(inOrg(org.admin, org.id))
        .send({ code: issued.body.codes[0].code }),
      201,
    );
    const wallet = await h.http.get('/api/organization/wallet').set(inOrg(org.admin, org.id));
    expectDocumented('get /api/organization/wallet', wallet);
    expect(wallet.body.data.balance).toBe(15.5);
    const records = await h.http.get('/api/organization/wallet/records').set(inOrg(org.admin, org.id));
    expectDocumented('get /api/organization/wallet/records', records);
    expect(records.body.data.map((r: { type: string }) => r.type)).toEqual(['Recharge', 'Recharge']);
  });

  it("the wallet: a platform Admin's refund of a consumption", async () => {
    const spender = await anOrganization(h);
    const admin = await platformAdminOf(h);
    await h.http
      .post('/api/organization/wallet/recharge')
      .set(inOrg(admin, spender.id))
      .send({ amount: 5 })
      .expect(201);
    const { record } = await spend(h.ctx, spender.id, usd('2'));
    const refund = await h.http
      .post(`/api/organization/wallet/records/${record.id}/refund`)
      .set(bearer(admin.session))
      .send({ amount: 0.5, reason: 'schema goodwill' });
    expectDocumented('post /api/organization/wallet/records/{recordId}/refund', refund, 201);
    expect(refund.body.data).toMatchObject({ type: 'Refund', refundOf: record.id, amount: 0.5 });
  });

  it('the MCP Registry API: the list, versions, one version and a publish, under /v0.1 and /v0', async () => {
    const name = `${registryNamespace(h.config)}.${a.namespace}/${mcpSlug}`;
    const encoded = encodeURIComponent(name);
    for (const prefix of ['/v0.1', '/v0']) {
      const list = await h.http.get(`${prefix}/servers?search=${encodeURIComponent(a.namespace)}`);
      expectDocumented(`get ${prefix}/servers`, list);
      expect(list.body.servers.map((s: { server: { name: string } }) => s.server.name)).toContain(name);
      const entry = list.body.servers.find((s: { server: { name: string } }) => s.server.name === name);
      expect([entry.server.packages.length, entry.server.remotes.length]).toEqual([1, 1]);
      expectDocumented(
        `get ${prefix}/servers/{serverName}/versions`,
        await h.http.get(`${prefix}/servers/${encoded}/versions`),
      );
      expectDocumented(
        `get ${prefix}/servers/{serverName}/versions/{version}`,
        await h.http.get(`${prefix}/servers/${encoded}/versions/latest`),
      );
      const slug = uniqueSlug('published');
      const published = await h.http
        .post(`${prefix}/publish`)
        .set(bearer(a.publisher.apiKey))
        .send({
          $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
          name: `${registryNamespace(h.config)}.${a.namespace}/${slug}`,
          description: 'High and low water.',
          version: '1.0.0',
          remotes: [{ type: 'streamable-http', url: 'https://tides.example/mcp' }],
        });
      expectDocumented(`post ${prefix}/publish`, published);
    }
  });

  it("the gateway's models: Anthropic's page and model, OpenAI's list and model", async () => {
    const key = await h.http
      .post('/api/v1/api-keys')
      .set(bearer(org.admin.session))
      .send({
        name: 'models key',
        projectId: (await h.http.post('/api/projects').set(inOrg(org.admin, org.id)).send({ name: 'Gateway' })).body
          .data.id,
      });
    const token = key.body.token as string;
    const anthropic = await h.http.get('/v1/models').set(bearer(token));
    expectDocumented('get /v1/models', anthropic);
    expect(anthropic.body.data.length).toBeGreaterThan(0);
    expectDocumented('get /v1/models', await h.http.get('/v1/models?limit=1').set('x-api-key', token));
    const openAi = await h.http.get('/v1/models').set(bearer(token)).set('user-agent', 'OpenAI/JS 6.0.0');
    expectDocumented('get /v1/models', openAi);
    expect(openAi.body.object).toBe('list');
    const id = encodeURIComponent(anthropic.body.data[0].id);
    expectDocumented('get /v1/models/{id}', await h.http.get(`/v1/models/${id}`).set(bearer(token)));
    expectDocumented(
      'get /v1/models/{id}',
      await h.http.get(`/v1/models/${id}`).set(bearer(token)).set('user-agent', 'OpenAI/Python 1.0.0'),
    );
  });

  it('top-up codes issued, listed and revoked; the audit log of an organization and of the platform', async () => {
    const admin = await platformAdminOf(h);
    const issued = await h.http
      .post('/api/v1/admin/top-up-codes')
      .set(bearer(admin.session))
      .send({ amount: 2.5, count: 2, description: 'schema codes' });
    expectDocumented('post /api/v1/admin/top-up-codes', issued, 201);
    const revoked = await h.http
      .post(`/api/v1/admin/top-up-codes/${issued.body.codes[0].id}/revoke`)
      .set(bearer(admin.session));
    expectDocumented('post /api/v1/admin/top-up-codes/{id}/revoke', revoked);
    expect(revoked.body.status).toBe('revoked');
    const list = await h.http.get('/api/v1/admin/top-up-codes?pageSize=100').set(bearer(admin.session));
    expectDocumented('get /api/v1/admin/top-up-codes', list);
    expect(list.body.items.map((c: { status: string }) => c.status)).toEqual(
      expect.arrayContaining(['active', 'revoked', 'redeemed']),
    );
    const entries = await h.http.get('/api/organization/audit-log').set(inOrg(org.admin, org.id));
    expectDocumented('get /api/organization/audit-log', entries);
    expect(entries.body.data.map((e: { action: string }) => e.action)).toEqual(
      expect.arrayContaining(['wallet.recharge', 'wallet.redeem']),
    );
    const all = await h.http.get('/api/v1/admin/audit-log?pageSize=100').set(bearer(admin.session));
    expectDocumented('get /api/v1/admin/audit-log', all);
    expect(all.body.items.map((e: { action: string }) => e.action)).toContain('top_up_code.revoke');
  });

  it('the catalog workflow: drafts created and read by their publisher, the review queue and an item under review', async () => {
    const publisher = bearer(a.publisher.session);
    const created = await h.http
      .post('/api/v1/publisher/mcp/drafts')
      .set(publisher)
      .send(draftBody(a, 'mcp', { version: mcpVersion }));
    expectDocumented('post /api/v1/publisher/{type}/drafts', created);
    expectDocumented(
      'get /api/v1/publisher/{type}/{id}',
      await h.http.get(`/api/v1/publisher/mcp/${created.body.id}`).set(publisher),
    );
    await submit(h, a, 'mcp', created.body.id, 'Please look at the tools.').expect(200);
    // A published item with a second version in review: the detail shows both versions in full.
    const published = await publishItem(h, a, 'mcp', { version: mcpVersion });
    await h.http
      .post(`/api/v1/publisher/mcp/${published.id}/versions`)
      .set(publisher)
      .send({ ...mcpVersion, version: '1.1.0', changelog: 'Tide tables for more harbours.' })
      .expect(200);
    await submit(h, a, 'mcp', published.id).expect(200);
    const detail = await h.http.get(`/api/v1/publisher/mcp/${published.id}`).set(publisher);
    expectDocumented('get /api/v1/publisher/{type}/{id}', detail);
    expect(detail.body.versions.map((v: { full: boolean }) => v.full)).toEqual([true, true]);
    const skill = await createDraft(h, a, 'skill');
    await attachBundle(h, skill.versionId);
    expectDocumented(
      'get /api/v1/publisher/{type}/{id}',
      await h.http.get(`/api/v1/publisher/skill/${skill.id}`).set(publisher),
    );
    const moderator = bearer(a.moderator.session);
    const queue = await h.http.get('/api/v1/moderation/queue?type=mcp&pageSize=100').set(moderator);
    expectDocumented('get /api/v1/moderation/queue', queue);
    expect(queue.body.items.map((i: { id: string }) => i.id)).toEqual(
      expect.arrayContaining([created.body.id, published.id]),
    );
    expectDocumented(
      'get /api/v1/moderation/{type}/{id}',
      await h.http.get(`/api/v1/moderation/mcp/${published.id}`).set(moderator),
    );
  });

  it('the gateway: videos created, read while they run, listed, cancelled, completed and failed', async () => {
    const { key, org: owner, projectId } = await aProjectWithKey(h, '100');
    const create = (prompt: string) =>
      h.http
        .post('/v1/videos')
        .set(bearer(key))
        .send({ model: 'seedance-1-0-pro', duration: 5, content: [{ type: 'text', text: prompt }] });
    const created = await create('A kite over the harbour');
    expectDocumented('post /v1/videos', created);
    const failing = await create('A kite that falls [fail]');
    const cancelled = await h.http
      .post(`/v1/videos/${(await create('A kite never flown')).body.id}/cancel`)
      .set(bearer(key));
    expectDocumented('post /v1/videos/{id}/cancel', cancelled);
    expect(cancelled.body.status).toBe('cancelled');
    /** Every answer while the task runs is held to the document, up to its final one. */
    const finalAnswer = (id: string) =>
      waitUntil(async () => {
        const res = await h.http.get(`/v1/videos/${id}`).set(bearer(key));
        expectDocumented('get /v1/videos/{id}', res);
        return ['completed', 'failed', 'cancelled'].includes(res.body.status) ? res.body : undefined;
      }, 60_000);
    expect(await finalAnswer(created.body.id)).toMatchObject({ status: 'completed', usage: { seconds: 5 } });
    expect(await finalAnswer(failing.body.id)).toMatchObject({ status: 'failed', error: { type: expect.any(String) } });
    const list = await h.http.get('/v1/videos').set(bearer(key));
    expectDocumented('get /v1/videos', list);
    expect(list.body.data.map((v: { status: string }) => v.status).sort()).toEqual([
      'cancelled',
      'completed',
      'failed',
    ]);
    expectDocumented('get /v1/videos', await h.http.get('/v1/videos?limit=1').set(bearer(key)));
    const videos = `/api/projects/${projectId}/videos`;
    const projectVideos = await h.http.get(videos).set(inOrg(owner.admin, owner.id));
    expectDocumented('get /api/projects/{projectId}/videos', projectVideos);
    expect(projectVideos.body.data.map((v: { status: string }) => v.status).sort()).toEqual([
      'cancelled',
      'completed',
      'failed',
    ]);
    const first = await h.http.get(`${videos}?limit=1`).set(inOrg(owner.admin, owner.id));
    expectDocumented('get /api/projects/{projectId}/videos', first);
    expect(first.body.hasMore).toBe(true);
  });

  it('the gateway: a web search (with images) and a web fetch (a page and a failed URL), and the request log', async () => {
    const { key, org: owner, projectId } = await aProjectWithKey(h, '10');
    const search = await h.http
      .post('/v1/web/search')
      .set(bearer(key))
      .send({ query: 'tides of the harbour', maxResults: 3, includeImages: true });
    expectDocumented('post /v1/web/search', search);
    expect([search.body.items.length, search.body.images.length]).toEqual([3, 3]);
    expectDocumented('post /v1/web/search', await h.http.post('/v1/web/search').set(bearer(key)).send({ query: 'x' }));
    const fetched = await h.http
      .post('/v1/web/fetch')
      .set(bearer(key))
      .send({ urls: [`${site.origin}/article`, `${site.origin}/missing`] });
    expectDocumented('post /v1/web/fetch', fetched);
    expect(fetched.body.items.map((i: { error?: string }) => Boolean(i.error))).toEqual([false, true]);
    await writeLedgers(h);
    const requests = await h.http.get(`/api/projects/${projectId}/requests`).set(inOrg(owner.admin, owner.id));
    expectDocumented('get /api/projects/{projectId}/requests', requests);
    expect(requests.body.data.map((r: { operation: string }) => r.operation).sort()).toEqual([
      'web_fetch',
      'web_search',
      'web_search',
    ]);
    const usage = await h.http.get(`/api/projects/${projectId}/usage?days=7`).set(inOrg(owner.admin, owner.id));
    expectDocumented('get /api/projects/{projectId}/usage', usage);
    expectDocumented(
      'get /api/projects/{projectId}/models',
      await h.http.get(`/api/projects/${projectId}/models`).set(inOrg(owner.admin, owner.id)),
    );
    expect(usage.body.data.models.map((m: { operation: string }) => m.operation).sort()).toEqual([
      'web_fetch',
      'web_search',
    ]);
  });

  it('the platform Admin: accounts provisioned, given roles and listed; organizations and their records; quota requests decided', async () => {
    const admin = bearer((await platformAdminOf(h)).session);
    const email = uniqueEmail('provisioned');
    const provisioned = await h.http
      .post('/api/v1/admin/accounts')
      .set(admin)
      .send({ email, name: 'Provisioned Reader', password: 'a-long-enough-password', roles: ['Publisher'] });
    expectDocumented('post /api/v1/admin/accounts', provisioned);
    const roles = await h.http
      .put(`/api/v1/admin/accounts/${provisioned.body.id}/roles`)
      .set(admin)
      .send({ roles: ['Publisher', 'Moderator'] });
    expectDocumented('put /api/v1/admin/accounts/{id}/roles', roles);
    expect(roles.body.roles).toEqual(['Publisher', 'Moderator']);
    const accounts = await h.http.get(`/api/v1/admin/accounts?search=${encodeURIComponent(email)}`).set(admin);
    expectDocumented('get /api/v1/admin/accounts', accounts);
    expect(accounts.body.items.map((i: { email: string }) => i.email)).toEqual([email]);
    expectDocumented('get /api/v1/admin/accounts', await h.http.get('/api/v1/admin/accounts?pageSize=100').set(admin));

    const funded = await anOrganization(h, undefined, 'Directory Reader');
    await recharge(h, funded, 4);
    const organizations = await h.http.get('/api/v1/admin/organizations?pageSize=100').set(admin);
    expectDocumented('get /api/v1/admin/organizations', organizations);
    expect(organizations.body.items.find((o: { id: string }) => o.id === funded.id)).toMatchObject({
      memberCount: 1,
      wallet: { balance: 4, frozenAmount: 0, currency: 'USD' },
    });
    const records = await h.http.get(`/api/v1/admin/organizations/${funded.id}/wallet/records`).set(admin);
    expectDocumented('get /api/v1/admin/organizations/{id}/wallet/records', records);
    expect(records.body.items.map((r: { type: string }) => r.type)).toEqual(['Recharge']);

    const asking = await Promise.all([createUser(h), createUser(h)]);
    const asked = await Promise.all(
      asking.map((user) =>
        h.http
          .post('/api/v1/api-keys/quota-requests')
          .set(bearer(user.session))
          .send({ requestedQuota: 4000, reason: 'a schema check' }),
      ),
    );
    const pending = await h.http.get('/api/v1/admin/quota-requests?status=pending').set(admin);
    expectDocumented('get /api/v1/admin/quota-requests', pending);
    expect(pending.body.map((r: { id: string }) => r.id)).toEqual(expect.arrayContaining(asked.map((r) => r.body.id)));
    const approved = await h.http.post(`/api/v1/admin/quota-requests/${asked[0]?.body.id}/approve`).set(admin);
    expectDocumented('post /api/v1/admin/quota-requests/{id}/approve', approved);
    expect(approved.body.status).toBe('approved');
    const rejected = await h.http.post(`/api/v1/admin/quota-requests/${asked[1]?.body.id}/reject`).set(admin);
    expectDocumented('post /api/v1/admin/quota-requests/{id}/reject', rejected);
    expect(rejected.body.status).toBe('rejected');
  });

  it('the public extras: the GitHub star count before its first fetch, one telemetry event and a batch', async () => {
    const stars = await h.http.get('/api/v1/github/stars');
    expectDocumented('get /api/v1/github/stars', stars);
    expect(stars.body).toMatchObject({ stars: null, fetchedAt: null, stale: true });
    const event = { itemType: 'mcp', slug: mcpSlug, eventType: 'view', clientId: 'schema-client' };
    const one = await h.http.post('/api/v1/telemetry').send(event);
    expectDocumented('post /api/v1/telemetry', one);
    expect(one.body).toEqual({ recorded: true });
    const batch = await h.http
      .post('/api/v1/telemetry')
      .send({ events: [{ ...event, eventType: 'install' }, { ...event, slug: uniqueSlug('missing') }, { slug: 1 }] });
    expectDocumented('post /api/v1/telemetry', batch);
    expect(batch.body.recorded).toBe(1);
    expect(batch.body.results.map((r: { error?: { status: number } }) => r.error?.status)).toEqual([
      undefined,
      404,
      400,
    ]);
  });

  it('the wallet: alert settings read and changed, a test alert and the history, the balance over time', async () => {
    const team = await anOrganization(h);
    const admin = inOrg(team.admin, team.id);
    await recharge(h, team, 7.25);
    expectDocumented(
      'get /api/organization/wallet/alerts',
      await h.http.get('/api/organization/wallet/alerts').set(admin),
    );
    const changed = await h.http
      .put('/api/organization/wallet/alerts')
      .set(admin)
      .send({
        maxDailyAlerts: 5,
        webhookUrl: `${site.origin}/article`,
        customHeaders: { 'x-team': 'schema' },
        thresholds: [20, 2.5],
      });
    expectDocumented('put /api/organization/wallet/alerts', changed);
    expect(changed.body.data).toMatchObject({ thresholds: [20, 2.5], webhookUrl: `${site.origin}/article` });
    const test = await h.http.post('/api/organization/wallet/alerts/test').set(admin);
    expectDocumented('post /api/organization/wallet/alerts/test', test, 202);
    // Every answer while the alerts worker delivers the webhook is held to the document, up to its recorded attempt.
    const delivered = await waitUntil(async () => {
      const history = await h.http.get('/api/organization/wallet/alerts/history').set(admin);
      expectDocumented('get /api/organization/wallet/alerts/history', history);
      expect(history.body.data.map((a: { id: string }) => a.id)).toEqual([test.body.data.alertId]);
      return history.body.data[0].webhook.status === 'sent' ? history.body.data[0] : undefined;
    }, 60_000);
    expect(delivered.attempts).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ channel: 'webhook', attempt: 1, succeeded: true, statusCode: 200 }),
        expect.objectContaining({ channel: 'email', succeeded: false, error: expect.any(String) }),
      ]),
    );
    for (const interval of ['day', 'hour']) {
      const balance = await h.http
        .get(`/api/organization/wallet/balance-history?interval=${interval}&days=2`)
        .set(admin);
      expectDocumented('get /api/organization/wallet/balance-history', balance);
      expect(balance.body.data.points.map((p: { balance: number }) => p.balance)).toEqual([7.25]);
    }
    const spending = await h.http.get('/api/organization/wallet/spending').set(admin);
    expectDocumented('get /api/organization/wallet/spending', spending);
  });

  it('organization members: a role changed, a member removed, a bulk invite and its report', async () => {
    const team = await anOrganization(h);
    const admin = inOrg(team.admin, team.id);
    const colleague = await aMember(h, team);
    const promoted = await h.http
      .put(`/api/organization/members/${colleague.accountId}/role`)
      .set(admin)
      .send({ role: 'Admin' });
    expectDocumented('put /api/organization/members/{userId}/role', promoted);
    expect(promoted.body.data).toEqual({ userId: colleague.accountId, role: 'Admin' });
    expectDocumented(
      'delete /api/organization/members/{userId}',
      await h.http.delete(`/api/organization/members/${colleague.accountId}`).set(admin),
    );
    const csv = `email,name,role\n${uniqueEmail('bulk')},Bulk One,member\nnot-an-address,Bulk Two,Member\n`;
    const uploaded = await h.http
      .post('/api/organization/bulk-invite')
      .set(admin)
      .attach('file', Buffer.from(csv), { filename: 'people.csv', contentType: 'text/csv' });
    expectDocumented('post /api/organization/bulk-invite', uploaded, 201);
    expect(uploaded.body.data.records.map((r: { status: string }) => r.status)).toEqual(['Success', 'Failed']);
    expect(uploaded.body.data.records[0].inviteUrl).toEqual(expect.any(String));
    const report = await h.http.get(`/api/organization/bulk-invite/${uploaded.body.data.id}`).set(admin);
    expectDocumented('get /api/organization/bulk-invite/{id}', report);
    expect(report.body.data.records[0].inviteUrl).toBeUndefined();
  });

  it('publishing: namespaces, my items, a draft edited, versioned, submitted, withdrawn and deleted, a bundle, an unpublish', async () => {
    const publisher = bearer(a.publisher.session);
    const created = await h.http
      .post('/api/v1/publisher/publishers')
      .set(publisher)
      .send({ slug: uniqueSlug('house'), name: 'Schema House' });
    expectDocumented('post /api/v1/publisher/publishers', created);
    const namespaces = await h.http.get('/api/v1/publisher/publishers').set(publisher);
    expectDocumented('get /api/v1/publisher/publishers', namespaces);
    expect(namespaces.body.map((p: { slug: string }) => p.slug)).toContain(created.body.slug);
    const mine = await h.http.get('/api/v1/publisher/mcp/mine').set(publisher);
    expectDocumented('get /api/v1/publisher/{type}/mine', mine);
    expect(mine.body.map((i: { slug: string }) => i.slug)).toContain(mcpSlug);

    const draft = await createDraft(h, a, 'mcp', { version: mcpVersion });
    const item = `/api/v1/publisher/mcp/${draft.id}`;
    expectDocumented(
      'put /api/v1/publisher/{type}/{id}/draft',
      await h.http.put(`${item}/draft`).set(publisher).send({ summary: 'Tides, edited.' }),
    );
    expectDocumented(
      'post /api/v1/publisher/{type}/{id}/versions',
      await h.http
        .post(`${item}/versions`)
        .set(publisher)
        .send({ ...mcpVersion, version: '1.1.0' }),
    );
    expectDocumented('post /api/v1/publisher/{type}/{id}/submit-review', await submit(h, a, 'mcp', draft.id, 'Look.'));
    const withdrawn = await h.http.post(`${item}/withdraw`).set(publisher);
    expectDocumented('post /api/v1/publisher/{type}/{id}/withdraw', withdrawn);
    expect(withdrawn.body.status).toBe('draft');
    const deleted = await h.http.delete(item).set(publisher);
    expectDocumented('delete /api/v1/publisher/{type}/{id}', deleted);
    expect(deleted.body).toEqual({ deleted: true, id: draft.id, slug: draft.slug });

    const skill = await createDraft(h, a, 'skill');
    const uploaded = await uploadBundle(h, a, skill, await buildZip({ 'SKILL.md': skillMd('schema-tools') }));
    expectDocumented('post /api/v1/publisher/skill/{skillId}/versions/{versionId}/package', uploaded);
    expect(uploaded.body).toMatchObject({ versionId: skill.versionId, fileCount: 1 });
    const skillFile = `${skill.id}/versions/${skill.versionId}/files/SKILL.md`;
    const ownFile = await h.http.get(`/api/v1/publisher/skill/${skillFile}`).set(publisher);
    expectDocumented('get /api/v1/publisher/skill/{skillId}/versions/{versionId}/files/{path}', ownFile);
    expect(ownFile.body).toEqual({
      path: 'SKILL.md',
      size: expect.any(Number),
      binary: false,
      text: skillMd('schema-tools'),
      truncated: false,
    });
    const reviewed = await h.http.get(`/api/v1/moderation/skill/${skillFile}`).set(bearer(a.moderator.session));
    expectDocumented('get /api/v1/moderation/skill/{skillId}/versions/{versionId}/files/{path}', reviewed);

    const published = await publishItem(h, a, 'soul', { version: { soulMd: '# Still' } });
    const unpublished = await h.http
      .post(`/api/v1/publisher/soul/${published.id}/unpublish`)
      .set(publisher)
      .send({ reason: 'Retired.' });
    expectDocumented('post /api/v1/publisher/{type}/{id}/unpublish', unpublished);
  });

  it('moderation: reports listed and resolved, curation, the four decisions', async () => {
    const moderator = bearer(a.moderator.session);
    const reported = await h.http
      .post(`/api/v1/mcp/${mcpSlug}/report`)
      .set(bearer(a.publisher.apiKey))
      .send({ reason: 'spam', detail: 'Looks copied.' });
    const reports = await h.http.get('/api/v1/moderation/reports?status=open&pageSize=100').set(moderator);
    expectDocumented('get /api/v1/moderation/reports', reports);
    expect(reports.body.items.map((r: { id: string }) => r.id)).toContain(reported.body.id);
    const resolved = await h.http
      .post(`/api/v1/moderation/reports/${reported.body.id}/resolve`)
      .set(moderator)
      .send({ resolution: 'Not a copy.' });
    expectDocumented('post /api/v1/moderation/reports/{id}/resolve', resolved);
    expect(resolved.body.status).toBe('resolved');
    expectDocumented('get /api/v1/moderation/reports', await h.http.get('/api/v1/moderation/reports').set(moderator));

    expectDocumented(
      'put /api/v1/moderation/publishers/{slug}/verified',
      await h.http
        .put(`/api/v1/moderation/publishers/${a.namespace}/verified`)
        .set(bearer((await platformAdminOf(h)).session))
        .send({ verified: true }),
    );
    expectDocumented(
      'put /api/v1/moderation/{type}/categories/{slug}',
      await h.http
        .put(`/api/v1/moderation/mcp/categories/${uniqueSlug('sea')}`)
        .set(moderator)
        .send({ name: 'Sea' }),
    );
    const shown = await publishItem(h, a, 'mcp', { version: mcpVersion });
    const featured = await h.http
      .put(`/api/v1/moderation/mcp/${shown.id}/featured`)
      .set(moderator)
      .send({ featured: true });
    expectDocumented('put /api/v1/moderation/{type}/{id}/featured', featured);
    expect(featured.body).toEqual({ id: shown.id, slug: shown.slug, isFeatured: true });
    expectDocumented(
      'post /api/v1/moderation/{type}/{id}/remove',
      await h.http.post(`/api/v1/moderation/mcp/${shown.id}/remove`).set(moderator).send({ reason: 'Broken.' }),
    );
    const mine = await h.http.get('/api/v1/moderation/decisions').set(moderator);
    expectDocumented('get /api/v1/moderation/decisions', mine);
    expect(mine.body.items[0]).toMatchObject({ action: 'remove', itemId: shown.id, comment: 'Broken.' });

    const decisions = [
      ['approve', {}],
      ['request-changes', { comment: 'Name the tools.' }],
      ['reject', { reason: 'Out of scope.' }],
    ] as const;
    for (const [decision, payload] of decisions) {
      const draft = await createDraft(h, a, 'mcp', { version: mcpVersion });
      await submit(h, a, 'mcp', draft.id).expect(200);
      const decided = await decide(h, a, 'mcp', draft.id, decision, payload);
      expectDocumented(`post /api/v1/moderation/{type}/{id}/${decision}`, decided);
    }
  });

  it("the catalog hub's refusals: each status documented for its route, with its body and headers", async () => {
    const key = bearer(a.outsider.apiKey);
    const list = 'get /api/v1/{type}';
    expectDocumentedError(list, await h.http.get('/api/v1/mcp?page=0'), 400, 'Catalog.InvalidQuery');
    expectDocumentedError(list, await h.http.get('/api/v1/mcp?page=1&page=2'), 400, 'Catalog.InvalidQuery');
    const item = `/api/v1/mcp/${mcpSlug}`;
    expectDocumentedError(
      'get /api/v1/{type}/{slug}',
      await h.http.get('/api/v1/mcp/no-such-item'),
      404,
      'Mcp.NotFound',
    );
    const etag = (await h.http.get(item)).headers.etag as string;
    const notModified = await h.http.get(item).set('if-none-match', etag);
    expect([notModified.status, documentedResponse('get /api/v1/{type}/{slug}', 304) ? 'documented' : '']).toEqual([
      304,
      'documented',
    ]);
    const version = 'get /api/v1/{type}/{slug}/versions/{version}';
    expectDocumentedError(version, await h.http.get(`${item}/versions/9.9.9`), 404, 'Version.NotFound');
    expectDocumentedError(version, await h.http.get(`${item}/versions/latest`), 400, 'Version.Invalid');
    const rate = 'put /api/v1/{type}/{slug}/rating';
    expectDocumentedError(rate, await h.http.put(`${item}/rating`).send({ score: 4 }), 401, 'Auth.Unauthorized');
    expectDocumentedError(rate, await h.http.put(`${item}/rating`).set(key).send({ score: 9 }), 400, 'Rating.Invalid');
    expectDocumentedError(rate, await h.http.put('/api/v1/mcp/no-such-item/rating').set(key).send({ score: 4 }), 404);
    const report = 'post /api/v1/{type}/{slug}/report';
    expectDocumentedError(report, await h.http.post(`${item}/report`).set(key).send({}), 400, 'Report.Invalid');
    const telemetry = 'post /api/v1/telemetry';
    const event = { itemType: 'mcp', slug: 'no-such-item', eventType: 'view' };
    expectDocumentedError(telemetry, await h.http.post('/api/v1/telemetry').send(event), 404, 'Mcp.NotFound');
    const badEvent = { ...event, eventType: 'click' };
    expectDocumentedError(telemetry, await h.http.post('/api/v1/telemetry').send(badEvent), 400, 'Telemetry.Invalid');
    const servers = 'get /v0.1/servers';
    expectDocumentedError(servers, await h.http.get('/v0.1/servers?limit=0'), 400);
    expectDocumentedError(servers, await h.http.get('/v0.1/servers?limit=1&limit=2'), 400);
    expectDocumentedError(
      'get /v0.1/servers/{serverName}/versions/{version}',
      await h.http.get('/v0.1/servers/no.such%2Fserver/versions/latest'),
      404,
    );
    // What the body parsers answer for any route that reads a body: a type it does not read, a body past the limit.
    const asText = await h.http.put(`${item}/rating`).set(key).set('content-type', 'text/plain').send('score=4');
    expectDocumentedError(rate, asText, 415, 'Request.UnsupportedMediaType');
    const huge = { ...event, filler: 'x'.repeat(h.config.BODY_LIMIT_BYTES) };
    expectDocumentedError(telemetry, await h.http.post('/api/v1/telemetry').send(huge), 413, 'Request.TooLarge');
    // A daily quota used up: 429 with Retry-After and the quota's headers, all documented.
    const spender = await createUser(h, { name: 'Quota Spender', dailyQuota: 1 });
    const spent = bearer(spender.apiKey);
    expectDocumented('get /api/v1/api-keys/usage', await h.http.get('/api/v1/api-keys/usage').set(spent));
    const over = await h.http.put(`${item}/rating`).set(spent).send({ score: 3 });
    expectDocumentedError(rate, over, 429, 'ApiKey.QuotaExceeded');
    expect([over.headers['x-ratelimit-limit'], over.headers['x-ratelimit-remaining']]).toEqual(['1', '0']);
  });

  it('the MCP Registry API refuses to edit or delete a version: 501 with its error body', async () => {
    const name = encodeURIComponent(`${registryNamespace(h.config)}.${a.namespace}/${mcpSlug}`);
    for (const prefix of ['/v0.1', '/v0']) {
      const path = `${prefix}/servers/${name}/versions/1.0.0`;
      expectDocumented(`put ${prefix}/servers/{serverName}/versions/{version}`, await h.http.put(path).send({}), 501);
      expectDocumented(`delete ${prefix}/servers/{serverName}/versions/{version}`, await h.http.delete(path), 501);
    }
  });

  it('the gateway keeps no OpenAI responses: reading, deleting or cancelling one is 404 with its error body', async () => {
    const { key } = await aProjectWithKey(h, '1');
    const at = (method: 'get' | 'delete' | 'post', path: string) => h.http[method](path).set(bearer(key));
    expectDocumented('get /v1/responses/{responseId}', await at('get', '/v1/responses/resp_1'), 404);
    expectDocumented('delete /v1/responses/{responseId}', await at('delete', '/v1/responses/resp_1'), 404);
    expectDocumented('post /v1/responses/{responseId}/cancel', await at('post', '/v1/responses/resp_1/cancel'), 404);
    expectDocumented(
      'get /v1/responses/{responseId}/input_items',
      await at('get', '/v1/responses/resp_1/input_items'),
      404,
    );
  });

  it('fails an answer with a field the document does not name, and one without a required field', async () => {
    const me = await h.http.get('/api/v1/auth/me').set(bearer(a.outsider.apiKey));
    expect(violations('get /api/v1/auth/me', { ...me, body: { ...me.body, passwordHash: 'x' } })).toEqual([
      '/ must NOT have additional properties',
    ]);
    const { email: _email, ...withoutEmail } = me.body;
    expect(violations('get /api/v1/auth/me', { ...me, body: withoutEmail })).toEqual([
      "/ must have required property 'email'",
    ]);
  });

  it('has called every route that declares a response schema', () => {
    expect(declared.filter(({ operation }) => !validated.has(operation)).map((d) => d.operation)).toEqual([]);
  });
});
