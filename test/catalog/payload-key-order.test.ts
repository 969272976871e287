// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the catalog writes its placeholders literally as ${NAME}.
// A publisher's JSON comes back in the order it was written: a tool's input schema (its `properties` above all, the
// order clients draw argument forms and models fill arguments in), an annotation object, a connection's headers and
// environment, through the publisher's draft read, the public item and version reads, and the MCP Registry API's
// server read. catalog_versions.payload was jsonb, which keeps its own key order (shorter keys first); it is json.
import { storedPayload } from '../../shared/catalog/version-payloads.js';
import { registryNamespace } from '../../shared/mcp-registry/server-names.js';
import {
  type Actors,
  createActors,
  createDraft,
  decide,
  draftBody,
  submit,
  uniqueSlug,
} from '../support/catalog-factory.js';
import { createHarness, type Harness } from '../support/harness.js';
import { bearer } from '../support/identity.js';

let h: Harness;
let a: Actors;

beforeAll(async () => {
  h = await createHarness();
  a = await createActors(h);
});
afterAll(async () => h.close());

// Every object below is in an order jsonb would change: `mid`, `zeta`, `alpha` and `type` before `required` before
// `properties` before `additionalProperties` is its order (by length, then bytes).
const inputSchema = {
  type: 'object',
  properties: {
    zeta: { description: 'The last letter', type: 'string' },
    alpha: { type: 'number', minimum: 0, description: 'The first letter' },
    mid: { enum: ['b', 'a'], type: 'string' },
  },
  additionalProperties: false,
  required: ['zeta', 'alpha'],
};
const annotations = { title: 'Letters', readOnlyHint: true, idempotentHint: false };
const headers = { 'X-Harbour-Zone': 'north', Authorization: 'Bearer ${TOKEN}', Accept: 'text/event-stream' };
const env = { ZETA_HOME: '/srv/zeta', API_KEY: '${TOKEN}', A: '1' };
const version = {
  connections: [
    { transport: 'streamable-http', url: 'https://letters.example.com/mcp', headers },
    { transport: 'stdio', command: 'npx', args: ['-y', '@example/letters-mcp@1.0.0'], env },
  ],
  tools: [{ name: 'spell', description: 'Spells a word', inputSchema, annotations }],
  configFields: [{ name: 'TOKEN', type: 'secret', required: true }],
};

/** The JSON text of a value as it was parsed: equal only when every object's keys come in the same order. */
const text = (value: unknown) => JSON.stringify(value);

/** The parts whose order the publisher wrote, of a version as the API answers it. */
function expectWrittenOrder(v: { tools: Record<string, unknown>[]; connections: Record<string, unknown>[] }) {
  expect(text(v.tools[0]?.inputSchema)).toBe(text(inputSchema));
  expect(text(v.tools[0]?.annotations)).toBe(text(annotations));
  expect(text(v.connections[0]?.headers)).toBe(text(headers));
  expect(text(v.connections[1]?.env)).toBe(text(env));
}

describe('an MCP version’s payload', () => {
  it('reads back in the order its publisher wrote it, before and after publishing', async () => {
    const draft = await createDraft(h, a, 'mcp', { slug: uniqueSlug('letters'), version });

    const own = await h.http.get(`/api/v1/publisher/mcp/${draft.id}`).set(bearer(a.publisher.session)).expect(200);
    expectWrittenOrder(own.body.versions.find((v: { id: string }) => v.id === draft.versionId));
    // The raw answer too: nothing between the database and the response reorders the schema's properties.
    expect(own.text).toContain('"properties":{"zeta":{"description":"The last letter","type":"string"},"alpha":');

    await submit(h, a, 'mcp', draft.id).expect(200);
    await decide(h, a, 'mcp', draft.id, 'approve').expect(200);

    const item = await h.http.get(`/api/v1/mcp/${draft.slug}`).expect(200);
    expectWrittenOrder(item.body.currentVersion);
    const exact = await h.http.get(`/api/v1/mcp/${draft.slug}/versions/1.0.0`).expect(200);
    expectWrittenOrder(exact.body);

    // The registry's server.json builds its remotes and packages from the connections: headers and environment
    // variables in the publisher's order (a package's config fields come first, then the rest of its environment).
    const name = `${registryNamespace(h.config)}.${a.namespace}/${draft.slug}`;
    const entry = await h.http.get(`/v0.1/servers/${encodeURIComponent(name)}/versions/latest`).expect(200);
    const { remotes, packages } = entry.body.server;
    expect(remotes[0].headers.map((x: { name: string }) => x.name)).toEqual(Object.keys(headers));
    expect(packages[0].environmentVariables.map((x: { name: string }) => x.name)).toEqual([
      'TOKEN',
      ...Object.keys(env),
    ]);
  });

  it('keeps the written order through a draft update of the tools', async () => {
    const draft = await createDraft(h, a, 'mcp', { slug: uniqueSlug('letters') });
    await h.http
      .put(`/api/v1/publisher/mcp/${draft.id}/draft`)
      .set(bearer(a.publisher.session))
      .send({ version })
      .expect(200);
    const own = await h.http.get(`/api/v1/publisher/mcp/${draft.id}`).set(bearer(a.publisher.session)).expect(200);
    expectWrittenOrder(own.body.versions.find((v: { id: string }) => v.id === draft.versionId));
  });

  it('puts integer-like keys first, as JavaScript orders any object’s keys (JSON.parse and JSON.stringify alike)', async () => {
    const numbered = { type: 'object', properties: { b: { type: 'string' }, '10': { type: 'string' } } };
    const draft = await createDraft(h, a, 'mcp', {
      slug: uniqueSlug('letters'),
      version: { tools: [{ name: 'numbered', inputSchema: numbered }] },
    });
    const own = await h.http.get(`/api/v1/publisher/mcp/${draft.id}`).set(bearer(a.publisher.session)).expect(200);
    const [v] = own.body.versions;
    expect(Object.keys(v.tools[0].inputSchema.properties)).toEqual(['10', 'b']);
  });
});

describe('a NUL character in a version’s payload', () => {
  // jsonb refused `\u0000` (22P05, a 400 Request.InvalidText); json stores it, and a row holding one fails every
  // `->>` and `::jsonb` on the column (a later migration back to jsonb included), so the API refuses it as before.
  it('is refused with 400 Request.InvalidText, as when the column was jsonb, on a new draft and on an update', async () => {
    const withNul = { ...version, tools: [{ name: 'spell', description: 'a\u0000b', inputSchema }] };
    const created = await h.http
      .post('/api/v1/publisher/mcp/drafts')
      .set(bearer(a.publisher.session))
      .send(draftBody(a, 'mcp', { version: withNul }));
    expect(created.status).toBe(400);
    expect(created.body.title).toBe('Request.InvalidText');

    const draft = await createDraft(h, a, 'mcp', { slug: uniqueSlug('letters'), version });
    const updated = await h.http
      .put(`/api/v1/publisher/mcp/${draft.id}/draft`)
      .set(bearer(a.publisher.session))
      .send({ version: { tools: withNul.tools } });
    expect(updated.status).toBe(400);
    expect(updated.body.title).toBe('Request.InvalidText');
  });

  it('is refused with an unpaired surrogate too, which json keeps and `::jsonb` refuses; a pair is kept', () => {
    // A JSON body holding one is refused before any route runs; this holds for a payload built another way (#131).
    const tools = (description: string) => ({ tools: [{ name: 'spell', description }] });
    expect(() => storedPayload('mcp', tools('half \ud800 of a pair'))).toThrow(/unpaired UTF-16 surrogate/);
    expect(() => storedPayload('mcp', { env: {}, tools: [{ name: 'spell', inputSchema: { '\udc00': 1 } }] })).toThrow(
      expect.objectContaining({ code: 'Request.InvalidText' }),
    );
    expect(storedPayload('mcp', tools('a whole pair \ud83d\ude00')).tools).toEqual(tools('a whole pair 😀').tools);
  });
});
