// A project's gateway activity for its organization's members: recent requests and video tasks.

import { aProjectWithKey, type GatewayWorld, openGatewayWorld, writeLedgers } from '../support/gateway.js';
import { waitUntil } from '../support/harness.js';
import { createUser } from '../support/identity.js';
import { aMember, expectEnvelopeError, inOrg } from '../support/org-fixtures.js';

let w: GatewayWorld;
beforeAll(async () => {
  w = await openGatewayWorld({ balance: '50' });
});
afterAll(() => w.close());

const gateway = (key: string) => ({ authorization: `Bearer ${key}`, 'anthropic-version': '2023-06-01' });

describe('GET /api/projects/{projectId}/requests', () => {
  it('lists the project requests newest first with model, tokens, cost and status', async () => {
    const ok = await w.h.http
      .post('/v1/messages')
      .set(gateway(w.key))
      .send({ model: 'claude-haiku-4-5', max_tokens: 50, messages: [{ role: 'user', content: 'hello console' }] });
    expect(ok.status).toBe(200);
    const unknown = await w.h.http
      .post('/v1/messages')
      .set(gateway(w.key))
      .send({ model: 'no-such-model', max_tokens: 50, messages: [{ role: 'user', content: 'x' }] });
    expect(unknown.status).toBe(400);
    // The `ledger` worker writes settled requests to PostgreSQL within a second; here the test writes them.
    await writeLedgers(w.h);
    const page = await waitUntil(async () => {
      const res = await w.h.http.get(`/api/projects/${w.projectId}/requests`).set(inOrg(w.org.admin, w.org.id));
      return res.body.total >= 1 ? res : undefined;
    });
    expect(page.status).toBe(200);
    const [first] = page.body.data;
    const tokens = ok.body.usage.input_tokens + ok.body.usage.output_tokens;
    expect(first).toEqual({
      id: expect.any(String),
      operation: 'messages',
      model: 'claude-haiku-4-5',
      status: 'succeeded',
      httpStatus: 200,
      inputTokens: ok.body.usage.input_tokens,
      outputTokens: ok.body.usage.output_tokens,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      totalTokens: tokens,
      cost: expect.any(Number),
      latencyMs: expect.any(Number),
      apiKeyId: expect.any(String),
      correlationId: expect.any(String),
      createdAt: expect.any(String),
      finishedAt: expect.any(String),
    });
    expect(first.cost).toBeGreaterThan(0);
    expect(page.body).toMatchObject({ total: 1, page: 1, size: 20 });
    const filtered = await w.h.http
      .get(`/api/projects/${w.projectId}/requests?operation=video`)
      .set(inOrg(w.org.admin, w.org.id));
    expect(filtered.body.data).toEqual([]);
  });

  it('lets any member of the organization read it, 401 without credentials, 404 to a stranger', async () => {
    const member = await aMember(w.h, w.org);
    const res = await w.h.http.get(`/api/projects/${w.projectId}/requests`).set(inOrg(member, w.org.id));
    expect(res.status).toBe(200);
    expectEnvelopeError(await w.h.http.get(`/api/projects/${w.projectId}/requests`), 401, 'Auth.Unauthorized');
    const stranger = await createUser(w.h);
    const hidden = await w.h.http.get(`/api/projects/${w.projectId}/requests`).set(inOrg(stranger, w.org.id));
    expectEnvelopeError(hidden, 404, 'Project.NotFound');
    const missing = await w.h.http
      .get('/api/projects/00000000-0000-4000-8000-000000000000/requests')
      .set(inOrg(w.org.admin, w.org.id));
    expectEnvelopeError(missing, 404, 'Project.NotFound');
  });

  it('answers 400 Project.InvalidQuery for a bad page size or operation', async () => {
    for (const q of ['size=0', 'size=101', 'page=x', 'operation=DROP%20TABLE']) {
      const res = await w.h.http.get(`/api/projects/${w.projectId}/requests?${q}`).set(inOrg(w.org.admin, w.org.id));
      expectEnvelopeError(res, 400, 'Project.InvalidQuery');
    }
  });
});

describe('GET /api/projects/{projectId}/videos', () => {
  it('lists the project video tasks newest first with prompt and status, paged by id', async () => {
    const p = await aProjectWithKey(w.h, '20');
    const ids: string[] = [];
    for (const prompt of ['A lighthouse at dusk', 'A fox in the snow']) {
      const res = await w.h.http
        .post('/v1/videos')
        .set({ authorization: `Bearer ${p.key}` })
        .send({ model: 'sora-2', prompt, seconds: '4' });
      expect(res.status).toBe(200);
      ids.push(res.body.id);
    }
    const res = await w.h.http.get(`/api/projects/${p.projectId}/videos?limit=1`).set(inOrg(p.org.admin, p.org.id));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 200, error: null, hasMore: true });
    expect(res.body.data).toEqual([
      {
        id: ids[1],
        model: 'sora-2',
        status: 'queued',
        progress: 0,
        seconds: 4,
        prompt: 'A fox in the snow',
        price: expect.any(Number),
        createdAt: expect.any(String),
      },
    ]);
    const next = await w.h.http
      .get(`/api/projects/${p.projectId}/videos?limit=1&after=${ids[1]}`)
      .set(inOrg(p.org.admin, p.org.id));
    expect(next.body.data.map((v: { id: string }) => v.id)).toEqual([ids[0]]);
    expect(next.body.hasMore).toBe(false);
  });

  it('answers 400 for a bad cursor, 401 without credentials and 404 to a stranger', async () => {
    const bad = await w.h.http.get(`/api/projects/${w.projectId}/videos?after=nope`).set(inOrg(w.org.admin, w.org.id));
    expectEnvelopeError(bad, 400, 'Project.InvalidQuery');
    expectEnvelopeError(await w.h.http.get(`/api/projects/${w.projectId}/videos`), 401, 'Auth.Unauthorized');
    const stranger = await createUser(w.h);
    const hidden = await w.h.http.get(`/api/projects/${w.projectId}/videos`).set(inOrg(stranger, w.org.id));
    expectEnvelopeError(hidden, 404, 'Project.NotFound');
  });
});
