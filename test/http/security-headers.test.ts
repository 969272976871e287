// Security headers (helmet) on every answer of every route family, success and error alike, and the per-path
// Content-Security-Policy of the pages this service serves.
import { Readable } from 'node:stream';
import { type GatewayWorld, openGatewayWorld } from '../support/gateway.js';
import { bearer, signInAdmin } from '../support/identity.js';

let w: GatewayWorld;
let adminToken: string;
beforeAll(async () => {
  w = await openGatewayWorld({ balance: '5' });
  adminToken = (await signInAdmin(w.h)).token;
});
afterAll(async () => w.close());

type Answer = { status: number; headers: Record<string, string> };

function expectSecurityHeaders(res: Answer) {
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
  expect(res.headers['strict-transport-security']).toMatch(/^max-age=31536000; includeSubDomains/);
  expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
  expect(res.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
  expect(res.headers['x-powered-by']).toBeUndefined();
  expect(res.headers['x-correlation-id']).toBeDefined();
}

const dataOnly = "default-src 'none';base-uri 'none';form-action 'none';frame-ancestors 'none'";

describe('every route family', () => {
  const cases: [string, () => Promise<Answer>, number][] = [
    ['catalog success', () => w.h.http.get('/api/v1/mcp'), 200],
    ['catalog error (401)', () => w.h.http.get('/api/v1/auth/me'), 401],
    ['catalog error (unknown route)', () => w.h.http.get('/api/v1/no-such-area/x'), 404],
    [
      'catalog error (invalid JSON)',
      () => w.h.http.post('/api/v1/auth/login').set('content-type', 'application/json').send('{"email":'),
      400,
    ],
    ['health', () => w.h.http.get('/health'), 200],
    ['organization success', () => w.h.http.get('/api/organizations').set(bearer(adminToken)), 200],
    ['organization error', () => w.h.http.get('/api/organization/members'), 401],
    ['gateway success', () => w.h.http.get('/v1/models').set(bearer(w.key)), 200],
    ['gateway error', () => w.h.http.post('/v1/web/search').send({ query: 'x' }), 401],
    [
      'messages success',
      () =>
        w.h.http
          .post('/v1/messages')
          .set('x-api-key', w.key)
          .set('anthropic-version', '2023-06-01')
          .send({ model: 'claude-sonnet-5', max_tokens: 32, messages: [{ role: 'user', content: 'hi' }] }),
      200,
    ],
    ['messages error', () => w.h.http.post('/v1/messages').send({}), 401],
  ];

  it.each(cases)('%s carries the security headers and a data-only policy', async (_label, send, status) => {
    const res = await send();
    expect(res.status).toBe(status);
    expectSecurityHeaders(res);
    expect(res.headers['content-security-policy']).toBe(dataOnly);
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
  });
});

describe('pages', () => {
  it('gives /docs and its assets a policy that allows this origin’s scripts and no inline script', async () => {
    for (const path of ['/docs', '/docs/start.js', '/docs/swagger-ui-bundle.js', '/docs/swagger-ui.css']) {
      const res = await w.h.http.get(path);
      expect(res.status).toBe(200);
      expectSecurityHeaders(res);
      const csp = res.headers['content-security-policy'] as string;
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp).toContain("connect-src 'self'");
    }
    const page = await w.h.http.get('/docs');
    // Every script of the page is a file of this origin.
    expect(page.text.match(/<script[^>]*>/g)).toEqual([
      '<script src="/docs/swagger-ui-bundle.js">',
      '<script src="/docs/start.js">',
    ]);
  });

  it('gives the queue dashboard a policy for its own files, on the page and on the 401 alike', async () => {
    const session = await w.h.http.post('/admin/session').set(bearer(adminToken));
    const jar = String((session.headers['set-cookie'] as unknown as string[])[0]).split(';')[0] as string;
    const page = await w.h.http.get('/admin/queues').set('cookie', jar);
    expect(page.status).toBe(200);
    const script = /src="(static\/js\/main[^"]+\.js)"/.exec(page.text)?.[1];
    for (const res of [
      page,
      await w.h.http.get(`/admin/queues/${script}`).set('cookie', jar),
      await w.h.http.get('/admin/queues'),
    ]) {
      expectSecurityHeaders(res);
      const csp = res.headers['content-security-policy'] as string;
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    }
  });

  it('serves stored files sandboxed (no script, no forms), embeddable from other origins', async () => {
    await w.h.ctx.storage.put(
      'security-headers/sample.txt',
      Readable.from([Buffer.from('<script>alert(1)</script>')]),
      {
        contentType: 'text/html',
      },
    );
    const res = await w.h.http.get('/files/security-headers/sample.txt');
    expect(res.status).toBe(200);
    expectSecurityHeaders(res);
    expect(res.headers['content-security-policy']).toMatch(/(^|;)sandbox allow-same-origin(;|$)/);
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
  });
});
