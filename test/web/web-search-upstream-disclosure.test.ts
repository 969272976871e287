// /v1/web/search tells neither the caller nor the request log (which organization members read) what the search
// upstream said when it refused the operator's key or failed, nor the upstream's host when it could not be reached:
// fixed messages, the detail in the server log (found by a security review; /v1/messages has the same rule in
// test/gateway/upstream-error-disclosure.test.ts).
import { aProjectWithKey, requestLogsOf } from '../support/gateway.js';
import { createHarness, type Harness } from '../support/harness.js';
import { type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';

const OPERATOR_KEY = 'tvly-OPERATORSECRET1234567890';

describe('a search upstream that refuses the operator key', () => {
  let upstream: LoopbackServer;
  let h: Harness;
  beforeAll(async () => {
    upstream = await startLoopbackServer((_req, res, body) => {
      const status = body.includes('[server-error]') ? 502 : 401;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          detail: { error: `Unauthorized: invalid API key ${OPERATOR_KEY} (pool-7.internal.example)` },
        }),
      );
    });
    h = await createHarness({
      UPSTREAM_SEARCH_KIND: 'tavily',
      UPSTREAM_SEARCH_URL: upstream.origin,
      UPSTREAM_SEARCH_KEY: OPERATOR_KEY,
    });
  });
  afterAll(async () => {
    await h?.close();
    await upstream?.close();
  });

  it('does not pass the upstream text to the caller or the request log', async () => {
    const { key, projectId } = await aProjectWithKey(h, '1');
    const texts: string[] = [];
    for (const query of ['hello', 'hello [server-error]']) {
      const res = await h.http.post('/v1/web/search').set('authorization', `Bearer ${key}`).send({ query });
      expect(res.status).toBe(500);
      texts.push(res.text);
    }
    const logs = await requestLogsOf(h, projectId);
    texts.push(...logs.map((l) => String(l.errorMessage)));
    expect(texts.join('\n')).not.toMatch(/OPERATORSECRET|internal\.example/);
  });
});

describe('an unreachable search upstream', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({
      UPSTREAM_SEARCH_KIND: 'tavily',
      UPSTREAM_SEARCH_URL: 'http://search-proxy.corp-internal.invalid/',
    });
  });
  afterAll(async () => h?.close());

  it('does not name the upstream host to the caller or in the request log', async () => {
    const { key, projectId } = await aProjectWithKey(h, '1');
    const res = await h.http.post('/v1/web/search').set('authorization', `Bearer ${key}`).send({ query: 'hello' });
    expect(res.status).toBeGreaterThanOrEqual(500);
    const logs = await requestLogsOf(h, projectId);
    expect([res.text, ...logs.map((l) => String(l.errorMessage))].join('\n')).not.toContain('corp-internal');
  });
});
