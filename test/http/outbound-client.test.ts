// The outbound client against loopback servers with the allowlist on: GET, redirects, limits, timeouts, streaming, webhooks.
import { once } from 'node:events';
import type http from 'node:http';
import { createOutboundClient, type OutboundClient, type ResolvedAddress } from '../../shared/http/index.js';
import { type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';
import { type ConnectionMonitor, isLoopback, monitorConnections } from './connection-monitor.js';

const MB = 1024 * 1024;
let monitor: ConnectionMonitor;
let server: LoopbackServer;
let clients: OutboundClient[] = [];
/** Lets the slow routes end when the test is done with them. */
let releaseSlow: () => void = () => undefined;
let slowReleased = new Promise<void>((resolve) => {
  releaseSlow = resolve;
});

function client(options: Parameters<typeof createOutboundClient>[0] = {}) {
  const created = createOutboundClient({ allowedHosts: ['127.0.0.1'], ...options });
  clients.push(created);
  return created;
}

async function writeChunks(res: http.ServerResponse, total: number, chunkSize = 64 * 1024) {
  const chunk = Buffer.alloc(chunkSize, 'x');
  for (let sent = 0; sent < total; sent += chunkSize) {
    if (!res.write(chunk)) await once(res, 'drain');
  }
}

const routes: Record<string, (req: http.IncomingMessage, res: http.ServerResponse) => unknown> = {
  '/hello': (req, res) => res.writeHead(200, { 'x-seen-agent': req.headers['user-agent'] ?? '' }).end('hello'),
  '/r1': (_req, res) => res.writeHead(301, { location: '/r2' }).end(),
  '/r2': (_req, res) => res.writeHead(302, { location: `${server.origin}/r3` }).end(),
  '/r3': (_req, res) => res.writeHead(303, { location: 'r4?x=1' }).end(),
  '/r4': (_req, res) => res.writeHead(307, { location: '/r5' }).end(),
  '/r5': (_req, res) => res.writeHead(308, { location: '/hello' }).end(),
  '/to-localhost': (_req, res) => res.writeHead(302, { location: `http://localhost:${server.port}/headers` }).end(),
  '/to-same-origin': (_req, res) => res.writeHead(302, { location: '/headers' }).end(),
  '/headers': (req, res) => res.end(JSON.stringify(req.headers)),
  '/post-redirect': (_req, res) => res.writeHead(307, { location: '/hello' }).end(),
  '/declared-too-big': (_req, res) => res.writeHead(200, { 'content-length': String(6 * MB) }).end(),
  '/chunked': async (req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    await writeChunks(res, Number(new URL(req.url ?? '', 'http://x').searchParams.get('bytes')));
    res.end();
  },
  '/never-ends': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.write('<html>');
    void slowReleased.then(() => res.end());
  },
  '/no-headers': (_req, res) => void slowReleased.then(() => res.end()),
  '/video': async (_req, res) => {
    res.writeHead(200, { 'content-type': 'video/mp4' });
    await writeChunks(res, 4 * MB);
    await slowReleased;
    await writeChunks(res, 4 * MB);
    res.end();
  },
  '/webhook': (_req, res) => res.writeHead(202, { 'content-type': 'application/json' }).end('{"ok":true}'),
};

beforeAll(async () => {
  monitor = monitorConnections();
  server = await startLoopbackServer((req, res) => {
    const route = routes[new URL(req.url ?? '/', 'http://x').pathname];
    if (route) void route(req, res);
    else res.writeHead(404).end();
  });
});
afterEach(async () => {
  releaseSlow();
  slowReleased = new Promise<void>((resolve) => {
    releaseSlow = resolve;
  });
  await Promise.all(clients.map((c) => c.close()));
  clients = [];
  expect(monitor.connectedTo.every(isLoopback)).toBe(true);
});
afterAll(async () => {
  monitor.stop();
  await server.close();
});

describe('GET with the allowlist on', () => {
  it('fetches a page from an allowed loopback server', async () => {
    const res = await client({ userAgent: 'ockhub-test/1' }).fetchBuffer(`${server.origin}/hello`);
    expect(res).toMatchObject({ status: 200, finalUrl: `${server.origin}/hello` });
    expect(res.body.toString()).toBe('hello');
    expect(res.headers['x-seen-agent']).toBe('ockhub-test/1');
  });

  it('reaches ::1 when the allowlist names it, and a CIDR exempts a whole range', async () => {
    const v6 = await startLoopbackServer((_req, res) => res.end('six'), '::1');
    try {
      const res = await client({ allowedHosts: ['::1'] }).fetchBuffer(`${v6.origin}/`);
      expect(res.body.toString()).toBe('six');
    } finally {
      await v6.close();
    }
    const res = await client({ allowedHosts: ['127.0.0.0/8'] }).fetchBuffer(`${server.origin}/hello`);
    expect(res.status).toBe(200);
  });

  it('exempts an allowlisted host name case-insensitively', async () => {
    const res = await client({ allowedHosts: ['LocalHost'] }).fetchBuffer(`http://localhost:${server.port}/hello`);
    expect(res.body.toString()).toBe('hello');
  });

  it('resolves a host name once per connection and connects to exactly the address it checked', async () => {
    const answers: ResolvedAddress[][] = [[{ address: '127.0.0.1', family: 4 }]];
    const lookups: string[] = [];
    // A second resolution would rebind to 127.0.0.2, which is not allowed and where nothing listens.
    const lookup = async (hostname: string) => {
      lookups.push(hostname);
      return answers.shift() ?? [{ address: '127.0.0.2', family: 4 as const }];
    };
    monitor.connectedTo.length = 0;
    const res = await client({ allowedHosts: ['127.0.0.1/32'], lookup }).fetchBuffer(
      `http://rebind.example:${server.port}/hello`,
    );
    expect(res.body.toString()).toBe('hello');
    expect(lookups).toEqual(['rebind.example']);
    expect(monitor.connectedTo).toEqual(['127.0.0.1']);
  });

  it('reports a host name that does not resolve as dns, and a closed port as connect', async () => {
    const lookup = () => Promise.reject(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }));
    await expect(client({ lookup }).fetchBuffer('http://nowhere.example/')).rejects.toMatchObject({
      reason: 'dns',
      message: 'The host name nowhere.example could not be resolved.',
    });
    const closed = await startLoopbackServer(() => undefined);
    await closed.close();
    await expect(client().fetchBuffer(`${closed.origin}/`)).rejects.toMatchObject({ reason: 'connect' });
  });

  it('refuses an allowlist entry that is neither a host name, an IP nor a CIDR', () => {
    expect(() => createOutboundClient({ allowedHosts: ['10.0.0.0/99'] })).toThrow('not a valid CIDR');
    expect(() => createOutboundClient({ allowedHosts: ['http://x/'] })).toThrow('OUTBOUND_ALLOWED_HOSTS');
  });
});

describe('redirects', () => {
  it('follows a chain of 301, 302, 303, 307 and 308 within the limit and reports the final URL', async () => {
    const res = await client({ maxRedirects: 5 }).fetchBuffer(`${server.origin}/r1`);
    expect(res.status).toBe(200);
    expect(res.finalUrl).toBe(`${server.origin}/hello`);
    expect(res.body.toString()).toBe('hello');
    expect(server.requests.map((r) => r.url).slice(-6)).toEqual(['/r1', '/r2', '/r3', '/r4?x=1', '/r5', '/hello']);
  });

  it('fails one hop short of the same chain with too-many-redirects', async () => {
    await expect(client({ maxRedirects: 4 }).fetchBuffer(`${server.origin}/r1`)).rejects.toMatchObject({
      reason: 'too-many-redirects',
    });
  });

  it('keeps Authorization on a same-origin redirect and drops it when the origin changes', async () => {
    const c = client({ allowedHosts: ['127.0.0.1', 'localhost'] });
    const headers = { authorization: 'Bearer s3cret', 'x-custom': 'kept' };
    const same = JSON.parse((await c.fetchBuffer(`${server.origin}/to-same-origin`, { headers })).body.toString());
    expect(same).toMatchObject({ authorization: 'Bearer s3cret', 'x-custom': 'kept' });
    const other = JSON.parse((await c.fetchBuffer(`${server.origin}/to-localhost`, { headers })).body.toString());
    expect(other.authorization).toBeUndefined();
    expect(other['x-custom']).toBe('kept');
  });

  it('does not follow a redirect answering a POST: the 3xx is the response', async () => {
    const before = server.requests.length;
    const res = await client().postJson(`${server.origin}/post-redirect`, { a: 1 });
    expect(res.status).toBe(307);
    expect(server.requests.slice(before).map((r) => r.url)).toEqual(['/post-redirect']);
  });
});

describe('size and time limits', () => {
  it('refuses a body whose content-length is already over the limit', async () => {
    await expect(client().fetchBuffer(`${server.origin}/declared-too-big`)).rejects.toMatchObject({
      reason: 'too-large',
      message: 'The response is larger than the limit of 5 MB.',
    });
  });

  it('cuts a chunked body once it passes the limit, and accepts one exactly at the limit', async () => {
    const c = client({ maxBytes: MB });
    await expect(c.fetchBuffer(`${server.origin}/chunked?bytes=${3 * MB}`)).rejects.toMatchObject({
      reason: 'too-large',
    });
    const exact = await c.fetchBuffer(`${server.origin}/chunked?bytes=${MB}`);
    expect(exact.body.length).toBe(MB);
  });

  it('cuts a page that never ends at the deadline', async () => {
    const started = Date.now();
    await expect(client({ timeoutMs: 400 }).fetchBuffer(`${server.origin}/never-ends`)).rejects.toMatchObject({
      reason: 'timeout',
      message: 'The request did not complete within 400 ms.',
      url: `${server.origin}/never-ends`,
    });
    // Not before the deadline; the page never ends, so only the deadline can have ended the call.
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
  });

  it('times out a server that never sends headers and a DNS lookup that never answers', async () => {
    await expect(client({ timeoutMs: 300 }).fetchBuffer(`${server.origin}/no-headers`)).rejects.toMatchObject({
      reason: 'timeout',
    });
    const lookup = () => new Promise<ResolvedAddress[]>(() => undefined);
    // The lookup never answers: only the deadline can end the call.
    await expect(client({ timeoutMs: 300, lookup }).fetchBuffer('http://hangs.example/')).rejects.toMatchObject({
      reason: 'timeout',
    });
  });

  it('stops when the caller aborts', async () => {
    const controller = new AbortController();
    const pending = client().fetchBuffer(`${server.origin}/never-ends`, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ reason: 'aborted' });
  });
});

describe('stream()', () => {
  it('delivers a multi-MB body in chunks as it arrives, without buffering it whole', async () => {
    const res = await client().stream(`${server.origin}/video`, { maxBytes: 16 * MB, timeoutMs: 20_000 });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('video/mp4');
    let received = 0;
    let largestChunk = 0;
    let chunks = 0;
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      received += chunk.length;
      largestChunk = Math.max(largestChunk, chunk.length);
      chunks += 1;
      // The server holds back the second half until we have read the first: only a streaming client gets here.
      if (received >= 4 * MB) releaseSlow();
    }
    expect(received).toBe(8 * MB);
    expect(chunks).toBeGreaterThan(8);
    expect(largestChunk).toBeLessThanOrEqual(MB);
  });

  it('errors the body with too-large once it passes the byte limit', async () => {
    const res = await client().stream(`${server.origin}/chunked?bytes=${4 * MB}`, { maxBytes: 2 * MB });
    let received = 0;
    const failure = await (async () => {
      for await (const chunk of res.body as AsyncIterable<Buffer>) received += chunk.length;
    })().catch((err: unknown) => err);
    expect(failure).toMatchObject({ name: 'OutboundRequestError', reason: 'too-large' });
    expect(received).toBeLessThanOrEqual(2 * MB);
    expect(received).toBeGreaterThan(MB);
  });

  it('errors the body with timeout when the deadline passes while streaming', async () => {
    const res = await client({ timeoutMs: 300 }).stream(`${server.origin}/never-ends`);
    const failure = await (async () => {
      for await (const _chunk of res.body) {
        // keep reading until the deadline cuts the stream
      }
    })().catch((err: unknown) => err);
    expect(failure).toMatchObject({ reason: 'timeout' });
  });
});

describe('postJson()', () => {
  it('POSTs the JSON body with its content type and the custom headers', async () => {
    const before = server.requests.length;
    const res = await client().postJson(
      `${server.origin}/webhook`,
      { type: 'balance.low', threshold: 10 },
      { 'Webhook-Id': 'msg_1', 'X-Custom': 'yes' },
    );
    expect(res.status).toBe(202);
    expect(JSON.parse(res.body.toString())).toEqual({ ok: true });
    const [received] = server.requests.slice(before);
    expect(received).toMatchObject({ method: 'POST', url: '/webhook' });
    expect(received?.headers).toMatchObject({
      'content-type': 'application/json',
      'webhook-id': 'msg_1',
      'x-custom': 'yes',
    });
    expect(JSON.parse(received?.body ?? '')).toEqual({ type: 'balance.low', threshold: 10 });
  });
});
