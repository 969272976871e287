// The models a project's keys may call, with their prices, for the organization's members
// (`GET /api/projects/{projectId}/models`): the registry's models newest first, each price as a request is billed.
import { modelsNewestFirst } from '../../shared/gateway/model-pages.js';
import { loadModelRegistry } from '../../shared/gateway/model-registry.js';
import { type GatewayWorld, openGatewayWorld, requestLogsOf } from '../support/gateway.js';
import { createUser } from '../support/identity.js';
import { aMember, expectEnvelopeError, inOrg } from '../support/org-fixtures.js';

let w: GatewayWorld;
beforeAll(async () => {
  w = await openGatewayWorld({ balance: '5', env: { WEB_BILLING_MULTIPLIER: '2.5' } });
});
afterAll(() => w?.close());

type Priced = { id: string; capability: string; prices: Record<string, number>; maxOutputTokens?: number };

const listed = async (caller = w.org.admin) => {
  const res = await w.h.http.get(`/api/projects/${w.projectId}/models`).set(inOrg(caller, w.org.id));
  expect(res.status).toBe(200);
  return res.body.data as Priced[];
};

it("lists the registry's models newest first, with the prices a request is billed at", async () => {
  const models = await listed();
  const registry = loadModelRegistry(w.h.ctx.config.MODEL_REGISTRY);
  expect(models.map((m) => m.id)).toEqual(modelsNewestFirst(registry).map((m) => m.id));

  // A call of the first messages model costs what its listed prices say for the tokens it used.
  const sonnet = models.find((m) => m.id === 'claude-sonnet-5') as Priced;
  expect(sonnet).toMatchObject({ capability: 'messages', maxOutputTokens: 128_000 });
  const res = await w.h.http
    .post('/v1/messages')
    .set('x-api-key', w.key)
    .send({ model: sonnet.id, max_tokens: 32, messages: [{ role: 'user', content: 'What is a price list?' }] });
  expect(res.status).toBe(200);
  const { input_tokens: input, output_tokens: output } = res.body.usage;
  const [log] = await requestLogsOf(w.h, w.projectId);
  const expected = (input * (sonnet.prices.inputPerMTok ?? 0) + output * (sonnet.prices.outputPerMTok ?? 0)) / 1e6;
  expect(Number(log?.costMicros)).toBe(Math.round(expected * 1e6));

  // The fallbacks applied: a cache read at the input price when the registry names none is listed as such.
  for (const m of models.filter((x) => x.capability === 'messages')) {
    for (const name of [
      'inputPerMTok',
      'outputPerMTok',
      'cacheReadPerMTok',
      'cacheWritePerMTok',
      'cacheWrite1hPerMTok',
    ]) {
      expect(typeof m.prices[name]).toBe('number');
    }
  }
  // Video by the second; web search and fetch at SPEC's 0.001 USD times WEB_BILLING_MULTIPLIER, whatever the entry.
  expect(models.find((m) => m.id === 'sora-2')?.prices).toEqual({ perVideoSecond: 0.1 });
  expect(models.find((m) => m.capability === 'search')?.prices).toEqual({ perRequest: 0.0025 });
});

it('lets any member read it; 404 to a stranger, 401 without credentials', async () => {
  expect((await listed(await aMember(w.h, w.org))).length).toBeGreaterThan(0);
  const stranger = await createUser(w.h);
  expectEnvelopeError(
    await w.h.http.get(`/api/projects/${w.projectId}/models`).set(inOrg(stranger, w.org.id)),
    404,
    'Project.NotFound',
  );
  expectEnvelopeError(await w.h.http.get(`/api/projects/${w.projectId}/models`), 401, 'Auth.Unauthorized');
});
