import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { modelsNewestFirst } from '../../shared/gateway/model-pages.js';
import { loadModelRegistry } from '../../shared/gateway/model-registry.js';
import { bearer, createUser } from '../support/identity.js';
import { type ClientWorld, openClientWorld } from '../support/listening-gateway.js';

let w: ClientWorld;
let baseURL: string;

beforeAll(async () => {
  w = await openClientWorld({});
  baseURL = w.baseURL;
});
afterAll(() => w.closeAll());

const registry = loadModelRegistry();
const ids = modelsNewestFirst(registry).map((m) => m.id);
const anthropicHeaders = () => ({ 'x-api-key': w.key, 'anthropic-version': '2023-06-01' });
const get = async (path: string, headers: Record<string, string>) => {
  const res = await fetch(`${baseURL}${path}`, { headers });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('GET /v1/models (Anthropic)', () => {
  it('lists the registry newest first in pages of `limit`, with first_id, last_id and has_more', async () => {
    const first = await get('/v1/models?limit=3', anthropicHeaders());
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      data: ids.slice(0, 3).map((id) => expect.objectContaining({ id, type: 'model' })),
      has_more: true,
      first_id: ids[0],
      last_id: ids[2],
    });
    const next = await get(`/v1/models?limit=3&after_id=${ids[2]}`, anthropicHeaders());
    expect((next.body.data as { id: string }[]).map((m) => m.id)).toEqual(ids.slice(3, 6));
    const back = await get(`/v1/models?limit=2&before_id=${ids[3]}`, anthropicHeaders());
    expect(back.body).toMatchObject({ first_id: ids[1], last_id: ids[2], has_more: true });
    const last = await get(`/v1/models?after_id=${ids.at(-2)}`, anthropicHeaders());
    expect(last.body).toMatchObject({ data: [expect.objectContaining({ id: ids.at(-1) })], has_more: false });
  });

  it("pages through every model with the Anthropic SDK's auto-pagination", async () => {
    const client = new Anthropic({ apiKey: w.key, baseURL, maxRetries: 0 });
    const seen: string[] = [];
    for await (const model of client.models.list({ limit: 2 })) seen.push(model.id);
    expect(seen).toEqual(ids);
    const one = await client.models.retrieve('claude-sonnet-5');
    expect(one).toMatchObject({ id: 'claude-sonnet-5', type: 'model', display_name: expect.any(String) });
  });

  it("answers a bad page query with 400 in Anthropic's shape", async () => {
    for (const q of ['limit=0', 'limit=1001', 'after_id=nope', `after_id=${ids[0]}&before_id=${ids[1]}`]) {
      const res = await get(`/v1/models?${q}`, anthropicHeaders());
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        type: 'error',
        error: { type: 'invalid_request_error', message: expect.any(String) },
      });
    }
  });
});

describe('GET /v1/models/{id}', () => {
  it('answers one model, and 404 for an unknown one in the caller dialect', async () => {
    const one = await get('/v1/models/claude-haiku-4-5', anthropicHeaders());
    expect(one).toEqual({
      status: 200,
      body: {
        type: 'model',
        id: 'claude-haiku-4-5',
        display_name: registry.get('claude-haiku-4-5')?.displayName,
        created_at: registry.get('claude-haiku-4-5')?.createdAt,
        capabilities: ['messages'],
      },
    });
    const missing = await get('/v1/models/claude-nope', anthropicHeaders());
    expect(missing).toEqual({
      status: 404,
      body: { type: 'error', error: { type: 'not_found_error', message: expect.any(String) } },
    });
    const missingOpenAi = await get('/v1/models/claude-nope', bearer(w.key));
    expect(missingOpenAi.status).toBe(404);
    expect(missingOpenAi.body).toEqual({
      error: { type: 'not_found_error', message: expect.any(String), code: 'Model.NotFound' },
    });
  });
});

describe("OpenAI's shape for OpenAI clients", () => {
  it("answers OpenAI's SDKs (by their User-Agent) in OpenAI's list shape, so models.list() works", async () => {
    const client = new OpenAI({ apiKey: w.key, baseURL: `${baseURL}/v1`, maxRetries: 0 });
    const seen = [];
    for await (const model of client.models.list()) seen.push(model);
    expect(seen.map((m) => m.id)).toEqual(ids);
    expect(seen[0]).toEqual({ id: ids[0], object: 'model', created: expect.any(Number), owned_by: 'ockhub' });
    const one = await client.models.retrieve('claude-sonnet-5');
    expect(one).toMatchObject({ id: 'claude-sonnet-5', object: 'model' });
    const raw = await get('/v1/models', { ...bearer(w.key), 'user-agent': 'OpenAI/Python 1.99.0' });
    expect(raw.body.object).toBe('list');
  });
});

describe("Anthropic's list shape for every other caller (SPEC section 5)", () => {
  it('answers a plain Bearer caller with Anthropic’s list, one model of each capability among them', async () => {
    const res = await get('/v1/models', bearer(w.key));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: ids.map((id) => ({
        id,
        type: 'model',
        display_name: registry.get(id)?.displayName,
        created_at: registry.get(id)?.createdAt,
        capabilities: [registry.get(id)?.capability],
      })),
      has_more: false,
      first_id: ids[0],
      last_id: ids.at(-1),
    });
    const capabilities = (res.body.data as { capabilities: string[] }[]).flatMap((m) => m.capabilities);
    expect(new Set(capabilities)).toEqual(new Set(['messages', 'video', 'search']));
    const one = await get('/v1/models/claude-sonnet-5', { 'x-api-key': w.key });
    expect(one.body).toMatchObject({ id: 'claude-sonnet-5', type: 'model', capabilities: ['messages'] });
  });
});

describe('auth', () => {
  it('answers 401 without a key and 403 for a key bound to no project', async () => {
    expect((await get('/v1/models', {})).status).toBe(401);
    expect((await get('/v1/models/claude-sonnet-5', { 'anthropic-version': '2023-06-01' })).body).toEqual({
      type: 'error',
      error: { type: 'authentication_error', message: expect.any(String) },
    });
    const user = await createUser(w.h);
    expect((await get('/v1/models', bearer(user.apiKey))).status).toBe(403);
  });
});
