// What a gateway caller learns when the upstream fails. Its refusal of the operator's credentials (401/403) or its
// own failure (5xx) is a 500 with a fixed message, and an unreachable upstream a 529 that names no host: the upstream's
// text can echo the operator's key (found by a security review: an upstream 401 reached the caller with it), so only
// the server log keeps it. A refusal of the caller's own request (400, 429…) still passes through with its message.
import { aProjectWithKey, requestLogsOf } from '../support/gateway.js';
import { createHarness, type Harness } from '../support/harness.js';
import { type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';

const OPERATOR_KEY = 'sk-ant-api03-OPERATORSECRET1234567890';
const request = (content: string) => ({
  model: 'claude-sonnet-5',
  max_tokens: 16,
  messages: [{ role: 'user', content }],
});

describe('an upstream that refuses or fails', () => {
  let upstream: LoopbackServer;
  let h: Harness;
  beforeAll(async () => {
    upstream = await startLoopbackServer((_req, res, body) => {
      const [status, type, message] = body.includes('[caller-error]')
        ? [400, 'invalid_request_error', 'max_tokens: must be at most 8192']
        : body.includes('[server-error]')
          ? [503, 'api_error', `backend pool-7.internal.example is down (key ${OPERATOR_KEY})`]
          : [401, 'authentication_error', `invalid x-api-key: ${OPERATOR_KEY}`];
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type, message } }));
    });
    h = await createHarness({ UPSTREAM_MESSAGES_URL: upstream.origin, UPSTREAM_MESSAGES_KEY: OPERATOR_KEY });
  });
  afterAll(async () => {
    await h.close();
    await upstream.close();
  });

  it('answers 500 with a fixed message for a refused key or an upstream 5xx, in the answer and the request log', async () => {
    const { key, projectId } = await aProjectWithKey(h, '10');
    for (const content of ['hi', 'hi [server-error]']) {
      const res = await h.http.post('/v1/messages').set('x-api-key', key).send(request(content));
      expect(res.status).toBe(500);
      expect(res.body).toEqual({
        type: 'error',
        error: {
          type: 'api_error',
          message: 'The upstream model provider failed to answer this request; try again shortly.',
        },
      });
      expect(res.text).not.toContain('OPERATORSECRET');
    }
    const logs = await requestLogsOf(h, projectId);
    expect(logs.map((l) => l.errorMessage).join(' ')).not.toMatch(/OPERATORSECRET|internal\.example/);
  });

  it('passes a refusal of the caller’s own request through with its status and message', async () => {
    const { key } = await aProjectWithKey(h, '10');
    const res = await h.http.post('/v1/messages').set('x-api-key', key).send(request('[caller-error]'));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      type: 'invalid_request_error',
      message: 'max_tokens: must be at most 8192',
    });
  });
});

describe('an unreachable upstream', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ UPSTREAM_MESSAGES_URL: 'http://llm-proxy.corp-internal.invalid/' });
  });
  afterAll(async () => h.close());

  it('answers 529 overloaded without the upstream host name', async () => {
    const { key, projectId } = await aProjectWithKey(h, '10');
    const res = await h.http.post('/v1/messages').set('x-api-key', key).send(request('hi'));
    expect(res.status).toBe(529);
    expect(res.body.error).toMatchObject({
      type: 'overloaded_error',
      message: 'The upstream model provider could not be reached; try again shortly.',
    });
    expect(res.text).not.toContain('corp-internal');
    const logs = await requestLogsOf(h, projectId);
    expect(logs.map((l) => l.errorMessage).join(' ')).not.toContain('corp-internal');
  });
});
