import { createHarness, type Harness } from '../support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

describe('GET /health', () => {
  it('answers 200 text/plain with a correlation id', async () => {
    const res = await h.http.get('/health');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toBe('ok');
    expect(res.headers['x-correlation-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('echoes a valid incoming correlation id and replaces an invalid one', async () => {
    const echoed = await h.http.get('/health').set('x-correlation-id', 'abc-123.test');
    expect(echoed.headers['x-correlation-id']).toBe('abc-123.test');
    const replaced = await h.http.get('/health').set('x-correlation-id', 'bad id with spaces');
    expect(replaced.headers['x-correlation-id']).not.toBe('bad id with spaces');
    expect(replaced.headers['x-correlation-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('GET /ready', () => {
  it('reports PostgreSQL and Redis up', async () => {
    const res = await h.http.get('/ready');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready', checks: { postgres: 'ok', redis: 'ok' } });
  });
});

describe('unknown routes', () => {
  it('answers a problem+json 404 on the catalog family', async () => {
    const res = await h.http.get('/api/v1/no-such-thing/at/all');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(res.text)).toMatchObject({ title: 'Route.NotFound', status: 404, type: expect.any(String) });
    expect(res.headers['x-correlation-id']).toBeDefined();
  });

  it('answers the envelope on the organization family', async () => {
    const res = await h.http.delete('/api/organization/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ data: null, code: 404, error: { code: 'Route.NotFound', message: expect.any(String) } });
  });

  it('answers the OpenAI-style error on gateway routes', async () => {
    const res = await h.http.get('/v1/nothing');
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ type: 'not_found_error', message: expect.any(String) });
  });

  it("answers Anthropic's error shape under /v1/messages with a request-id", async () => {
    const res = await h.http.get('/v1/messages/nothing');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ type: 'error', error: { type: 'not_found_error', message: expect.any(String) } });
    expect(res.headers['request-id']).toBe(res.headers['x-correlation-id']);
  });

  it('says how to set the base URL when a client adds /v1 twice (an Anthropic SDK given .../v1)', async () => {
    const res = await h.http.post('/v1/v1/messages').send({});
    expect([res.status, res.body.error.message]).toEqual([
      404,
      expect.stringMatching(/^No route for POST \/v1\/v1\/messages\. .*Anthropic's SDKs the origin alone/),
    ]);
  });

  it('says the gateway is under /v1 when a client leaves it out (an OpenAI SDK given the bare origin)', async () => {
    const res = await h.http.post('/chat/completions').send({});
    expect(res.status).toBe(404);
    expect(JSON.parse(res.text).detail).toMatch(/routes start with \/v1 \(\/v1\/chat\/completions\)/);
  });

  it('names the served gateway routes when a client asks for an API it does not serve (OpenAI embeddings)', async () => {
    const res = await h.http.post('/v1/embeddings').send({});
    expect([res.status, res.body.error.message]).toEqual([
      404,
      expect.stringMatching(
        /^No route for POST \/v1\/embeddings\. The gateway serves .*\/v1\/chat\/completions, POST \/v1\/responses.*Compatibility/,
      ),
    ]);
  });

  it('adds no hint to other unknown paths', async () => {
    const res = await h.http.get('/api/v1/no-such-thing/at/all');
    expect(JSON.parse(res.text).detail).toBe('No route for GET /api/v1/no-such-thing/at/all.');
  });
});

describe('every path of the organization family (SPEC section 0)', () => {
  const envelope404 = { data: null, code: 404, error: { code: 'Route.NotFound', message: expect.any(String) } };

  it.each([
    '/api/projects/00000000-0000-4000-8000-000000000000/no-such-thing',
    '/api/project-templates/no/such/thing',
    '/api/organizations/no/such/thing',
  ])('answers an unknown route %s with 404 in the envelope and a correlation id', async (path) => {
    const res = await h.http.get(path).set('x-correlation-id', 'probe-404');
    expect(res.status).toBe(404);
    expect(res.body).toEqual(envelope404);
    expect(res.headers['x-correlation-id']).toBe('probe-404');
  });

  it.each(['/api/projects', '/api/project-templates', '/api/organizations'])(
    'answers malformed JSON to %s with 400 Request.InvalidJson in the envelope',
    async (path) => {
      const res = await h.http.post(path).set('content-type', 'application/json').send('{"name": "x",');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        data: null,
        code: 400,
        error: { code: 'Request.InvalidJson', message: expect.any(String) },
      });
      expect(res.headers['x-correlation-id']).toMatch(/^[0-9a-f-]{36}$/);
    },
  );
});

describe('bad bodies', () => {
  const malformed = '{"name": "x",';

  it.each([
    ['/api/v1/anything', (b: Record<string, unknown>) => b.title === 'Request.InvalidJson'],
    [
      '/api/organization/anything',
      (b: Record<string, unknown>) => (b.error as { code: string }).code === 'Request.InvalidJson',
    ],
    ['/v1/anything', (b: Record<string, unknown>) => (b.error as { type: string }).type === 'invalid_request_error'],
    ['/v1/messages', (b: Record<string, unknown>) => (b.error as { type: string }).type === 'invalid_request_error'],
    // The hot routes, served by the direct lane rather than the router.
    ['/api/v1/telemetry', (b: Record<string, unknown>) => b.title === 'Request.InvalidJson'],
    [
      '/v1/messages/count_tokens',
      (b: Record<string, unknown>) =>
        b.type === 'error' && (b.error as { type: string }).type === 'invalid_request_error',
    ],
    [
      '/v1/chat/completions',
      (b: Record<string, unknown>) => (b.error as { type: string }).type === 'invalid_request_error',
    ],
  ])('malformed JSON to %s is a 400 in the family shape', async (path, shapeOk) => {
    const res = await h.http.post(path).set('content-type', 'application/json').send(malformed);
    expect(res.status).toBe(400);
    expect(shapeOk(JSON.parse(res.text))).toBe(true);
  });

  it('refuses a body that is not JSON with 415', async () => {
    const res = await h.http.post('/api/v1/anything').set('content-type', 'text/plain').send('hello');
    expect(res.status).toBe(415);
    expect(JSON.parse(res.text).title).toBe('Request.UnsupportedMediaType');
  });

  it('refuses an oversized body with 413', async () => {
    const big = JSON.stringify({ blob: 'x'.repeat(h.config.BODY_LIMIT_BYTES + 10) });
    const res = await h.http.post('/api/organization/anything').set('content-type', 'application/json').send(big);
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('Request.TooLarge');
  });
});
